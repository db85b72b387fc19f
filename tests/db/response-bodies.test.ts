/**
 * The bounds of the cached answers (db/response-bodies.ts): entries per store, bytes over all
 * stores (the least recently filled store goes first, whole), a body too big to keep, and the
 * byte count following drops and replacements.
 */
import { describe, expect, test } from 'bun:test'
import { MAX_BYTES, MAX_ENTRIES_PER_STORE, ResponseBodies, sizeOf, type CachedBody } from '../../src/db/response-bodies'

const blob = (bytes: number) => new Blob([new Uint8Array(bytes)])
const size = (b: CachedBody | undefined) => (b === undefined ? undefined : sizeOf(b))

describe('cached answers are bounded', () => {
  test('the production bounds are 256 answers a store and 32 MiB in all', () => {
    expect(MAX_ENTRIES_PER_STORE).toBe(256)
    expect(MAX_BYTES).toBe(32 * 1024 * 1024)
  })

  test('a store keeps at most its entry bound: its oldest answer goes first', () => {
    const r = new ResponseBodies(1_000_000, 3)
    for (const k of ['a', 'b', 'c', 'd']) r.set('s1', k, blob(10))
    expect(r.get('s1', 'a')).toBeUndefined()
    expect(['b', 'c', 'd'].map((k) => size(r.get('s1', k)))).toEqual([10, 10, 10])
    expect(r.bytes).toBe(30)
  })

  test('over the byte bound, the least recently filled store is dropped whole; the one being filled stays', () => {
    const r = new ResponseBodies(1000, 100)
    r.set('old', 'x', blob(200))
    r.set('old', 'y', blob(200))
    r.set('mid', 'x', blob(200))
    r.set('old', 'z', blob(100)) // old is now the most recently filled
    r.set('new', 'x', blob(250)) // 950: within the bound
    expect(size(r.get('mid', 'x'))).toBe(200)
    r.set('new', 'y', blob(250)) // 1200: mid goes first
    expect(r.get('mid', 'x')).toBeUndefined()
    expect(size(r.get('old', 'x'))).toBe(200)
    expect(r.bytes).toBe(1000)
    r.set('new', 'z', blob(250)) // 1250: old goes whole
    expect(r.get('old', 'x')).toBeUndefined()
    expect(r.get('old', 'z')).toBeUndefined()
    expect(['x', 'y', 'z'].map((k) => size(r.get('new', k)))).toEqual([250, 250, 250])
    expect(r.bytes).toBe(750)
  })

  test('a body over a quarter of the bound is not kept; replacing and dropping keep the count right', () => {
    const r = new ResponseBodies(1000, 100)
    r.set('s', 'huge', blob(251))
    expect(r.get('s', 'huge')).toBeUndefined()
    expect(r.bytes).toBe(0)
    r.set('s', 'k', blob(100))
    r.set('s', 'k', blob(40))
    r.set('s', 'text', 'abc')
    expect(r.bytes).toBe(46)
    r.drop('s')
    expect(r.bytes).toBe(0)
    expect(r.get('s', 'k')).toBeUndefined()
  })
})
