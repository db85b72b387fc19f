/**
 * The argon2id queue's fairness between addresses, driven step by step: tasks are promises the
 * test settles itself and the clock is the test's, so no assertion depends on timing.
 */
import { describe, expect, test } from 'bun:test'
import { RateLimited } from '../../src/lib/errors'
import { fixedClock } from '../../src/lib/time'
import { FairQueue, USE_HALF_LIFE_MS } from '../../src/modules/people/password-queue'

/** A queue whose tasks finish when the test says; `order` lists the tasks as they start. */
function harness(parallel: number, capacity: number) {
  const clock = fixedClock(Date.UTC(2026, 2, 2))
  const q = new FairQueue(parallel, capacity, clock.now)
  const order: string[] = []
  const finishers = new Map<string, () => void>()
  const outcomes = new Map<string, 'done' | 'refused'>()
  const submit = (address: string, name: string) => {
    const p = q
      .run(
        address,
        () =>
          new Promise<void>((resolve) => {
            order.push(name)
            finishers.set(name, resolve)
          }),
      )
      .then(
        () => outcomes.set(name, 'done'),
        (e) => {
          expect(e).toBeInstanceOf(RateLimited)
          outcomes.set(name, 'refused')
        },
      )
    return p
  }
  /** Lets the queue's promise chains run (no timers involved). */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve()
  }
  const finish = async (name: string) => {
    finishers.get(name)!()
    await settle()
  }
  return { q, clock, order, outcomes, submit, finish, settle }
}

describe('who goes next', () => {
  test('a clean address is served before every waiting task of a busy one', async () => {
    const h = harness(1, 10)
    for (let i = 0; i < 4; i++) void h.submit('flood', `f${i}`)
    await h.settle()
    void h.submit('clean', 'c0')
    await h.settle()
    expect(h.order).toEqual(['f0'])
    await h.finish('f0')
    expect(h.order).toEqual(['f0', 'c0'])
    await h.finish('c0')
    await h.finish('f1')
    await h.finish('f2')
    await h.finish('f3')
    expect(h.order).toEqual(['f0', 'c0', 'f1', 'f2', 'f3'])
    expect([...h.outcomes.values()].every((o) => o === 'done')).toBe(true)
  })

  test('the lighter address goes first, then they take turns: not first come, first served', async () => {
    const h = harness(1, 20)
    void h.submit('a', 'a0')
    for (let i = 1; i < 4; i++) void h.submit('a', `a${i}`)
    for (let i = 0; i < 3; i++) void h.submit('b', `b${i}`)
    await h.settle()
    // a weighs 5 (four asked, one started), b 3: b's first two go before a's next, then turns.
    for (const name of ['a0', 'b0', 'b1', 'a1', 'b2', 'a2', 'a3']) await h.finish(name)
    expect(h.order).toEqual(['a0', 'b0', 'b1', 'a1', 'b2', 'a2', 'a3'])
  })

  test('recent use fades: an address that hashed long ago counts as clean again', async () => {
    const h = harness(1, 10)
    void h.submit('old', 'o0')
    await h.settle()
    await h.finish('o0')
    // One task asked for, one hash started.
    expect(h.q.useOf('old')).toBe(2)
    h.clock.advance(USE_HALF_LIFE_MS)
    expect(h.q.useOf('old')).toBeCloseTo(1)
    h.clock.advance(USE_HALF_LIFE_MS * 20)
    expect(h.q.useOf('old')).toBeLessThan(0.001)
  })
})

describe('who is refused when the queue is full', () => {
  test('a flood from many addresses fills the queue; a clean address still gets in, a flooder is refused', async () => {
    const h = harness(2, 8)
    // 5 flooding addresses, each with a hash served already, then 10 more tasks between them.
    for (let i = 0; i < 5; i++) {
      void h.submit(`flood-${i}`, `early${i}`)
      await h.settle()
      await h.finish(`early${i}`)
    }
    for (let i = 0; i < 10; i++) void h.submit(`flood-${i % 5}`, `f${i}`)
    await h.settle()
    expect(h.q.load).toEqual({ running: 2, waiting: 8 })
    void h.submit('clean', 'c0')
    await h.settle()
    expect(h.q.load).toEqual({ running: 2, waiting: 8 })
    const refused = [...h.outcomes].filter(([, o]) => o === 'refused').map(([n]) => n)
    expect(h.outcomes.size).toBe(6)
    expect(refused).toHaveLength(1)
    expect(refused[0]).toStartWith('f')
    expect(h.outcomes.has('c0')).toBe(false)
    // The clean address is next when a place frees.
    await h.finish('f0')
    expect(h.order.at(-1)).toBe('c0')
  })

  test('the heaviest address loses its newest task', async () => {
    const h = harness(1, 5)
    void h.submit('light', 'l0')
    for (let i = 0; i < 4; i++) void h.submit('heavy', `h${i}`)
    void h.submit('light', 'l1')
    await h.settle()
    expect(h.q.load).toEqual({ running: 1, waiting: 5 })
    // heavy weighs 4 (four asked), light 3 (two asked, one started).
    void h.submit('clean', 'c0')
    await h.settle()
    expect(h.outcomes.get('h3')).toBe('refused')
    expect([...h.outcomes.keys()]).toEqual(['h3'])
  })

  test('a flood just begun (each waiting task as light as a newcomer): a newcomer takes the newest place', async () => {
    const h = harness(1, 2)
    void h.submit('a', 'a0')
    void h.submit('b', 'b0')
    void h.submit('c', 'c0')
    await h.settle()
    expect(h.q.load).toEqual({ running: 1, waiting: 2 })
    void h.submit('d', 'd0')
    await h.settle()
    expect(h.outcomes.get('c0')).toBe('refused')
    expect(h.outcomes.has('d0')).toBe(false)
    // c asks again: now heavier than anyone waiting, it is refused and takes no one's place.
    void h.submit('c', 'c1')
    await h.settle()
    expect(h.outcomes.get('c1')).toBe('refused')
    expect(h.outcomes.has('b0')).toBe(false)
    expect(h.outcomes.has('d0')).toBe(false)
  })

  test('a person waiting is not pushed out by the flood that asks again', async () => {
    const h = harness(1, 2)
    void h.submit('x', 'x0')
    void h.submit('p', 'p0')
    void h.submit('clean', 'c0')
    await h.settle()
    for (let i = 0; i < 5; i++) void h.submit('p', `p${i + 1}`)
    await h.settle()
    expect(h.outcomes.has('c0')).toBe(false)
    await h.finish('x0')
    expect(h.order).toEqual(['x0', 'c0'])
  })

  test('one address alone cannot push past the limit: its own arrival is refused, none of its reordered', async () => {
    const h = harness(2, 8)
    for (let i = 0; i < 10; i++) void h.submit('everyone', `f${i}`)
    await h.settle()
    void h.submit('everyone', 'c0')
    await h.settle()
    expect(h.outcomes.get('c0')).toBe('refused')
  })
})
