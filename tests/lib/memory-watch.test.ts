/**
 * The memory watch collects once the engine's memory has grown by a step since its mark, and
 * the mark follows what is live: what stays after a collection, or a lower figure after the
 * engine's own collections.
 */
import { expect, test } from 'bun:test'
import { collections, MemoryWatch, startMemoryWatch } from '../../src/lib/memory-watch'

const MB = 1024 * 1024

/** A watch over a fake figure; `collect` leaves `live` of it. */
function watch(start: number) {
  const state = { used: start, live: start, collections: 0 }
  const w = new MemoryWatch({
    stepBytes: 32 * MB,
    everyMs: 250,
    used: () => state.used,
    collect: () => {
      state.collections++
      state.used = state.live
    },
  })
  return { w, state }
}

test('growth under a step: no collection', () => {
  const { w, state } = watch(40 * MB)
  state.used = 71 * MB
  w.look()
  expect(state.collections).toBe(0)
  expect(w.collections).toBe(0)
})

test('a step of growth: one collection, and the next needs a step more than what stayed', () => {
  const { w, state } = watch(40 * MB)
  state.used = 80 * MB
  state.live = 50 * MB // 30 MB were garbage; 10 MB more stays (a cache filling)
  w.look()
  expect(state.collections).toBe(1)
  expect(w.collections).toBe(1)
  state.used = 81 * MB // under 50 + 32
  state.live = 81 * MB
  w.look()
  expect(state.collections).toBe(1)
  state.used = 82 * MB
  w.look()
  expect(state.collections).toBe(2)
  // Everything was live: the mark is now 82 MB, so holding it costs no more collections.
  w.look()
  w.look()
  expect(state.collections).toBe(2)
})

test("the engine's own collections lower the mark", () => {
  const { w, state } = watch(60 * MB)
  state.used = 30 * MB
  w.look()
  state.used = 63 * MB // 33 MB above the lowered mark, 3 MB above the first figure
  w.look()
  expect(state.collections).toBe(1)
})

test('a step of 0 MB starts no watch', () => {
  expect(startMemoryWatch(0)).toBeUndefined()
  expect(collections.aroundResizes).toBe(false)
  const stop = startMemoryWatch(32)
  expect(typeof stop).toBe('function')
  // The service's process also collects around picture resizes; 0 leaves that off too.
  expect(collections.aroundResizes).toBe(true)
  stop?.()
  startMemoryWatch(0)
  expect(collections.aroundResizes).toBe(false)
})
