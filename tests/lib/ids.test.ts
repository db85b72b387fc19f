import { describe, expect, test } from 'bun:test'
import { isCuid } from '@paralleldrive/cuid2'
import { createId } from '../../src/lib/cuid'

describe('ids (src/lib/cuid.ts, the CUID2 algorithm with native SHA3)', () => {
  test('are CUID2 strings as the package defines them: 24 chars, a letter first, base 36', () => {
    for (let i = 0; i < 2000; i++) {
      const id = createId()
      expect(isCuid(id)).toBe(true)
      expect(id).toMatch(/^[a-z][0-9a-z]{23}$/)
    }
  })

  test('do not repeat across 50,000 ids made in a tight loop', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 50_000; i++) seen.add(createId())
    expect(seen.size).toBe(50_000)
  })

  test('spread over the alphabet (no stuck characters)', () => {
    const chars = new Set<string>()
    for (let i = 0; i < 500; i++) for (const c of createId().slice(1)) chars.add(c)
    expect(chars.size).toBe(36)
  })
})
