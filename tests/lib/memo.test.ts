/** boundedMemo keeps answers by its key (undefined too), at most `max`, dropping the oldest first. */
import { expect, test } from 'bun:test'
import { boundedMemo } from '../../src/lib/memo'

test('answers once per key, keeps undefined, and drops the oldest past its bound', () => {
  const calls: string[] = []
  const f = boundedMemo(
    2,
    (a: string, b?: string) => `${a}|${b ?? ''}`,
    (a: string, b?: string) => {
      calls.push(`${a}|${b ?? ''}`)
      return a === 'none' ? undefined : a + (b ?? '')
    },
  )
  expect(f('x', 'y')).toBe('xy')
  expect(f('x', 'y')).toBe('xy')
  expect(f('none')).toBeUndefined()
  expect(f('none')).toBeUndefined()
  expect(calls).toEqual(['x|y', 'none|'])
  // A third key drops the oldest ('x|y'): asked again, it is worked out again; 'none|' is still kept.
  expect(f('z')).toBe('z')
  expect(f('none')).toBeUndefined()
  expect(f('x', 'y')).toBe('xy')
  expect(calls).toEqual(['x|y', 'none|', 'z|', 'x|y'])
})
