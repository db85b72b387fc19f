/** The pure cores of delivery: the lanes (FairShare), the retry policy, and the sender's pure helpers. */
import { describe, expect, test } from 'bun:test'
import { FairShare, laneLimits, type LaneLimits } from '../../src/modules/webhooks/scheduling'
import { afterFailure, MAX_RETRY_AFTER_MS } from '../../src/modules/webhooks/retry-policy'
import { describeError, pinnedUrl } from '../../src/modules/webhooks/sender'

const DAY = 86_400_000
const limits: LaneLimits = { overall: 4, perEndpoint: 2, slowLane: 2, slowAfterMs: 1000, slowStreak: 2 }
const store = (e: string) => e.split('/')[0]!

describe('FairShare', () => {
  test('the fast lane holds `overall` sends, an endpoint at most `perEndpoint`', () => {
    const f = new FairShare(limits)
    expect(f.room('a/1', 'a', 0)).toBe(2)
    f.start('a/1', 'a', 0)
    f.start('a/1', 'a', 0)
    expect(f.room('a/1', 'a', 0)).toBe(0)
    f.start('a/2', 'a', 0)
    f.start('b/1', 'b', 0)
    expect(f.room('b/2', 'b', 0)).toBe(0) // the lane is full
    expect(f.fastRoom(0)).toBe(0)
  })

  test('a send unanswered for slowAfterMs stops holding a fast slot, but still counts for its endpoint', () => {
    const f = new FairShare(limits)
    for (const e of ['b/1', 'b/1', 'b/2', 'b/2']) f.start(e, 'b', 0)
    expect(f.room('a/1', 'a', 999)).toBe(0)
    expect(f.msUntilSlotFrees(400)).toBe(600)
    expect(f.room('a/1', 'a', 1000)).toBe(2) // all four moved to the slow lane
    expect(f.room('b/1', 'b', 1000)).toBe(0) // b/1 still has its two sends hanging
    expect(f.msUntilSlotFrees(1000)).toBe(Infinity)
    expect(f.inFlight).toBe(4)
  })

  test('an endpoint whose last slowStreak attempts timed out sends one by one in the slow lane till it answers', () => {
    const f = new FairShare(limits)
    f.finish(f.start('b/1', 'b', 0), 'timeout')
    expect(f.isSlow('b/1')).toBe(false)
    f.finish(f.start('b/1', 'b', 0), 'other') // refused: says nothing either way
    f.finish(f.start('b/1', 'b', 0), 'timeout')
    expect(f.isSlow('b/1')).toBe(true)
    expect(f.room('b/1', 'b', 0)).toBe(1)
    const t = f.start('b/1', 'b', 0)
    expect(f.room('b/1', 'b', 0)).toBe(0)
    expect(f.fastRoom(0)).toBe(4) // the fast lane is untouched
    // Other slow endpoints share the slow lane's width.
    for (const e of ['c/1', 'c/2']) for (let i = 0; i < 2; i++) f.finish(f.start(e, 'c', 0), 'timeout')
    f.start('c/1', 'c', 0)
    expect(f.room('c/2', 'c', 0)).toBe(0) // slowLane 2: b/1 and c/1
    f.finish(t, 'answered')
    expect(f.isSlow('b/1')).toBe(false)
    expect(f.room('c/2', 'c', 0)).toBe(1)
  })

  test(
    'stuck: an endpoint that keeps timing out, or any endpoint of a store with a send past slowAfterMs; ' +
      'its sends go to the slow lane',
    () => {
      const f = new FairShare(limits)
      const t = f.start('b/1', 'b', 0)
      expect(f.stuck('b/2', 'b', 999)).toBe(false)
      expect(f.stuck('b/2', 'b', 1000)).toBe(true) // b/1's send moved to the slow lane
      expect(f.stuck('a/1', 'a', 1000)).toBe(false)
      // The stuck store's next send starts in the slow lane: the fast lane stays free for others.
      const t2 = f.start('b/2', 'b', 1000)
      expect(f.fastRoom(1000)).toBe(4)
      expect(f.room('b/3', 'b', 1000)).toBe(0) // slowLane 2: both taken
      expect(f.room('a/1', 'a', 1000)).toBe(2)
      f.finish(t2, 'answered')
      f.finish(t, 'timeout')
      expect(f.stuck('b/2', 'b', 1000)).toBe(false)
      f.finish(f.start('b/1', 'b', 1000), 'timeout')
      expect(f.stuck('b/1', 'b', 1000)).toBe(true) // two timeouts in a row
      expect(f.stuck('b/2', 'b', 1000)).toBe(false)
    },
  )

  test('serving order: least recently served store first, then endpoint; never served before all', () => {
    const f = new FairShare(limits)
    f.start('b/1', 'b', 0)
    f.start('b/2', 'b', 0)
    f.nextRound()
    f.start('c/1', 'c', 0)
    f.nextRound()
    // b/3 was never served but its store was; a/1's store never was.
    expect(f.order(['b/3', 'c/2', 'b/1', 'a/1'], store)).toEqual(['a/1', 'b/3', 'b/1', 'c/2'])
  })

  test('limits from the configuration', () => {
    expect(laneLimits({ webhookConcurrency: 16, webhookConcurrencyPerEndpoint: 4, webhookTimeoutMs: 15000 })).toEqual({
      overall: 16,
      perEndpoint: 4,
      slowLane: 16,
      slowAfterMs: 2000,
      slowStreak: 2,
    })
    expect(
      laneLimits({ webhookConcurrency: 1, webhookConcurrencyPerEndpoint: 1, webhookTimeoutMs: 200 }).slowAfterMs,
    ).toBe(100)
  })
})

describe('retry policy', () => {
  const rules = { schedule: [5, 300], disableAfterDays: 5 }
  const now = Date.UTC(2026, 0, 10)

  test('jitter is ±10 % of the schedule, from the injected random source', () => {
    expect(afterFailure({ attempts: 1 }, rules, now, now, () => 0)).toEqual({
      status: 'pending',
      nextAttemptAt: now + 4500,
    })
    expect(afterFailure({ attempts: 1 }, rules, now, now, () => 0.5)).toEqual({
      status: 'pending',
      nextAttemptAt: now + 5000,
    })
    expect(afterFailure({ attempts: 2 }, rules, now, now, () => 0.999999).nextAttemptAt).toBe(now + 330_000)
  })

  test('Retry-After only pushes later, at most 24 h', () => {
    expect(afterFailure({ attempts: 1, retryAfterMs: 1000 }, rules, now, now, () => 0.5).nextAttemptAt).toBe(now + 5000)
    expect(afterFailure({ attempts: 1, retryAfterMs: 120_000 }, rules, now, now, () => 0.5).nextAttemptAt).toBe(
      now + 120_000,
    )
    expect(afterFailure({ attempts: 1, retryAfterMs: 10 * DAY }, rules, now, now, () => 0.5).nextAttemptAt).toBe(
      now + MAX_RETRY_AFTER_MS,
    )
  })

  test('the schedule spent → failed; 410 → failed and disabled; failing for the whole period → disabled', () => {
    expect(afterFailure({ attempts: 3 }, rules, now, now, Math.random)).toEqual({
      status: 'failed',
      nextAttemptAt: null,
      disabledReason: undefined,
    })
    expect(afterFailure({ attempts: 1, gone: true }, rules, now, now, Math.random)).toMatchObject({
      status: 'failed',
      disabledReason: 'Endpoint answered 410 Gone',
    })
    expect(afterFailure({ attempts: 1 }, rules, now - 5 * DAY + 1, now, Math.random).status).toBe('pending')
    expect(afterFailure({ attempts: 1 }, rules, now - 5 * DAY, now, Math.random)).toMatchObject({
      status: 'failed',
      disabledReason: expect.stringContaining('(5 days)'),
    })
  })
})

describe('sender helpers', () => {
  test('lastError names the code once', () => {
    expect(
      describeError(
        Object.assign(new TypeError('ECONNREFUSED: Unable to connect. Is the computer able to access the url?'), {
          code: 'ECONNREFUSED',
        }),
      ),
    ).toBe('ECONNREFUSED: Unable to connect. Is the computer able to access the url?')
    expect(describeError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(
      'ECONNRESET: socket hang up',
    )
    expect(describeError(new TypeError('fetch failed'))).toBe('TypeError: fetch failed')
    expect(describeError('boom')).toBe('Error: boom')
  })

  test('the URL fetched carries the checked address; port, path and query stay', () => {
    expect(pinnedUrl(new URL('https://hooks.example.com:8443/a/b?x=1'), '93.184.216.34')).toBe(
      'https://93.184.216.34:8443/a/b?x=1',
    )
    expect(pinnedUrl(new URL('https://hooks.example.com/a'), '2606:4700:4700::1111')).toBe(
      'https://[2606:4700:4700::1111]/a',
    )
  })
})
