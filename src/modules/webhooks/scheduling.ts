/**
 * Who may send next: the sharing rules, apart from timers, sockets and SQL (the shell,
 * dispatcher.ts, feeds it the clock's reading), so a test can drive it tick by tick.
 *
 * - **Fair share per store, then per endpoint.** Endpoints with due work are served by their
 *   store's last turn, then their own: least recently served first, one share each per round. A
 *   store with forty endpoints and a backlog takes its turn like a store with one; it never gets
 *   the whole queue ahead of the other's event.
 * - **Two lanes.** The fast lane holds `overall` sends at once, at most `perEndpoint` of one
 *   endpoint. A send still unanswered after `slowAfterMs` leaves the fast lane for the slow lane
 *   (it keeps running until its timeout, but no longer holds a fast slot), so receivers that
 *   never answer cannot occupy the fast lane for longer than that; while it hangs there, the
 *   next sends of its store (`stuck`) start in the slow lane too, so a store with hanging
 *   receivers waits on its own receivers, not on everyone's fast slots. An endpoint whose last
 *   `slowStreak` attempts all timed out sends one at a time, in the slow lane, until it answers
 *   again. The slow lane starts sends while it holds fewer than `slowLane` (demoted sends count).
 * - An endpoint's own cap counts its sends in both lanes: a hanging endpoint holds back only
 *   itself.
 */

export interface LaneLimits {
  /** Fast-lane sends at once (WEBHOOK_CONCURRENCY). */
  overall: number
  /** Sends of one endpoint at once (WEBHOOK_CONCURRENCY_PER_ENDPOINT). */
  perEndpoint: number
  /** Slow-lane sends an endpoint that keeps timing out may start, all such endpoints together. */
  slowLane: number
  /** A send unanswered this long stops holding a fast slot. */
  slowAfterMs: number
  /** Consecutive timeouts that put an endpoint in the slow lane. */
  slowStreak: number
}

/** Limits derived from the configuration: the slow lane as wide as the fast one. */
export function laneLimits(c: {
  webhookConcurrency: number
  webhookConcurrencyPerEndpoint: number
  webhookTimeoutMs: number
}): LaneLimits {
  return {
    overall: c.webhookConcurrency,
    perEndpoint: c.webhookConcurrencyPerEndpoint,
    slowLane: c.webhookConcurrency,
    // A healthy receiver answers in milliseconds; two seconds also spares one that is merely slow
    // from moving lanes, and is well under the 15 s timeout a hanging receiver otherwise holds.
    slowAfterMs: Math.min(2000, Math.max(50, Math.floor(c.webhookTimeoutMs / 2))),
    slowStreak: 2,
  }
}

/** 'other': no answer but no timeout either (refused, reset): says nothing about slowness. */
export type Outcome = 'answered' | 'timeout' | 'other'

interface Send {
  endpoint: string
  store: string
  startedAt: number
  slow: boolean
}

export class FairShare {
  private sends = new Map<number, Send>()
  private nextToken = 1
  private byEndpoint = new Map<string, number>()
  private fast = 0
  private slow = 0
  /** Slow-lane sends per store (absent = 0). */
  private slowOf = new Map<string, number>()
  /** A lower bound of the fast sends' start times (exact after each demote walk). */
  private oldestFast = Infinity
  /** Consecutive timeouts per endpoint (absent = 0). */
  private timeouts = new Map<string, number>()
  /** Round in which each endpoint, and each store, was last granted a send: least recently served goes first. */
  private served = new Map<string, number>()
  private storeServed = new Map<string, number>()
  private round = 0

  constructor(readonly limits: LaneLimits) {}

  get inFlight(): number {
    return this.sends.size
  }

  /** Sends of `endpoint` in flight, both lanes. */
  sending(endpoint: string): number {
    return this.byEndpoint.get(endpoint) ?? 0
  }

  /** The endpoint keeps timing out: it sends in the slow lane only. */
  isSlow(endpoint: string): boolean {
    return (this.timeouts.get(endpoint) ?? 0) >= this.limits.slowStreak
  }

  /**
   * The endpoint keeps timing out, or its store has a send waiting past slowAfterMs: its queued
   * events are better moved aside (into the log, to wait their turn there) than sent straight
   * from the head of the outbox, in front of other stores' events.
   */
  stuck(endpoint: string, store: string, now: number): boolean {
    this.demote(now)
    return this.isSlow(endpoint) || (this.slowOf.get(store) ?? 0) > 0
  }

  /**
   * `endpoints` in serving order: the least recently served store first,
   * within it the least recently served endpoint (never served: before all).
   */
  order(endpoints: Iterable<string>, storeOf: (endpoint: string) => string): string[] {
    const key = (e: string) => [this.storeServed.get(storeOf(e)) ?? -1, this.served.get(e) ?? -1] as const
    return [...endpoints]
      .map((e) => ({ e, k: key(e) }))
      .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1])
      .map((x) => x.e)
  }

  /** How many sends `endpoint` (of `store`) may start now. */
  room(endpoint: string, store: string, now: number): number {
    this.demote(now)
    const own = this.sending(endpoint)
    if (this.isSlow(endpoint)) return Math.max(0, Math.min(1 - own, this.limits.slowLane - this.slow))
    if (this.stuck(endpoint, store, now))
      return Math.max(0, Math.min(this.limits.perEndpoint - own, this.limits.slowLane - this.slow))
    return Math.max(0, Math.min(this.limits.perEndpoint - own, this.limits.overall - this.fast))
  }

  /** Free fast-lane slots (what a tick may still hand out to endpoints not in the slow lane). */
  fastRoom(now: number): number {
    this.demote(now)
    return Math.max(0, this.limits.overall - this.fast)
  }

  /** A send of `endpoint` (of `store`) starts (the caller checked `room`); returns its token for `finish`. */
  start(endpoint: string, store: string, now: number): number {
    const slow = this.stuck(endpoint, store, now)
    const token = this.nextToken++
    this.sends.set(token, { endpoint, store, startedAt: now, slow })
    this.byEndpoint.set(endpoint, this.sending(endpoint) + 1)
    if (slow) this.toSlow(store, 1)
    else {
      this.fast++
      this.oldestFast = Math.min(this.oldestFast, now)
    }
    this.served.set(endpoint, this.round)
    this.storeServed.set(store, this.round)
    return token
  }

  /** Ends a serving round: endpoints served in it queue behind those that were not. */
  nextRound(): void {
    this.round++
  }

  finish(token: number, outcome: Outcome): void {
    const s = this.sends.get(token)
    if (!s) return
    this.sends.delete(token)
    if (s.slow) this.toSlow(s.store, -1)
    else this.fast--
    const n = this.sending(s.endpoint) - 1
    if (n > 0) this.byEndpoint.set(s.endpoint, n)
    else this.byEndpoint.delete(s.endpoint)
    if (outcome === 'timeout') this.timeouts.set(s.endpoint, (this.timeouts.get(s.endpoint) ?? 0) + 1)
    else if (outcome === 'answered') this.timeouts.delete(s.endpoint)
  }

  /** Milliseconds until a running fast send moves to the slow lane (freeing its slot); Infinity if none will. */
  msUntilSlotFrees(now: number): number {
    let oldest = Infinity
    for (const s of this.sends.values()) if (!s.slow && s.startedAt < oldest) oldest = s.startedAt
    return oldest === Infinity ? Infinity : Math.max(1, oldest + this.limits.slowAfterMs - now)
  }

  /** Fast sends unanswered for slowAfterMs move to the slow lane. */
  private demote(now: number): void {
    if (this.fast === 0) return
    const cutoff = now - this.limits.slowAfterMs
    // Most calls find nothing to move: skip the walk until the oldest fast send is due.
    if (this.oldestFast > cutoff) return
    this.oldestFast = Infinity
    for (const s of this.sends.values()) {
      if (!s.slow && s.startedAt > cutoff) this.oldestFast = Math.min(this.oldestFast, s.startedAt)
      if (!s.slow && s.startedAt <= cutoff) {
        s.slow = true
        this.fast--
        this.toSlow(s.store, 1)
      }
    }
  }

  private toSlow(store: string, by: 1 | -1): void {
    this.slow += by
    const n = (this.slowOf.get(store) ?? 0) + by
    if (n > 0) this.slowOf.set(store, n)
    else this.slowOf.delete(store)
  }
}
