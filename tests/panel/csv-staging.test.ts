/**
 * The checked CSV files waiting for "Apply" (panel/pages/csv/staging.ts), with an injected clock:
 * bound to their session, store and hash, gone after 30 minutes, one per session, at most
 * MAX_STAGED in the process (the oldest go first).
 */
import { describe, expect, test } from 'bun:test'
import { MAX_STAGED, STAGED_TTL_MS, sha256, StagedImports } from '../../src/panel/pages/csv/staging'

const file = (text: string) => ({ name: 'catalog.csv', file: new Blob([text]), hash: '' })

describe('staged CSV imports', () => {
  test('open only for their session, store and hash; gone after 30 minutes', async () => {
    let now = 1_000
    const staged = new StagedImports(() => now)
    const f = file('a,b')
    f.hash = await sha256(f.file)
    expect(f.hash).toBe(new Bun.CryptoHasher('sha256').update('a,b').digest('hex'))
    const owner = { sessionId: 's1', storeId: 'st1' }
    const s = staged.put(owner, f)
    expect(s.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(staged.get(s.id, owner, f.hash)?.file).toBe(f.file)
    expect(staged.get(s.id, { ...owner, sessionId: 's2' }, f.hash)).toBeUndefined()
    expect(staged.get(s.id, { ...owner, storeId: 'st2' }, f.hash)).toBeUndefined()
    expect(staged.get(s.id, owner, '0'.repeat(64))).toBeUndefined()
    now += STAGED_TTL_MS - 1
    expect(staged.get(s.id, owner, f.hash)).toBeDefined()
    now += 1
    expect(staged.get(s.id, owner, f.hash)).toBeUndefined()
  })

  test('a session keeps only its latest file; the process at most MAX_STAGED, oldest first', () => {
    const staged = new StagedImports(() => 0)
    const first = staged.put({ sessionId: 'a', storeId: 'x' }, file('1'))
    const second = staged.put({ sessionId: 'a', storeId: 'x' }, file('2'))
    expect(staged.get(first.id, { sessionId: 'a', storeId: 'x' }, '')).toBeUndefined()
    expect(staged.get(second.id, { sessionId: 'a', storeId: 'x' }, '')).toBeDefined()
    const others = Array.from({ length: MAX_STAGED }, (_, i) =>
      staged.put({ sessionId: `s${i}`, storeId: 'x' }, file(String(i))),
    )
    expect(staged.get(second.id, { sessionId: 'a', storeId: 'x' }, '')).toBeUndefined()
    for (const [i, o] of others.entries())
      expect(staged.get(o.id, { sessionId: `s${i}`, storeId: 'x' }, '')).toBeDefined()
  })
})
