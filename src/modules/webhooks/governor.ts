/**
 * Checkout comes first. While checkout is saturated (orders are being placed and the event loop
 * keeps running late, see LoopLagProbe below) deliveries share the one core at a bounded rate, a token
 * bucket of `WEBHOOK_BUSY_RATE` sends per second, and the durable outbox absorbs the rest; once
 * the pressure is gone (no late turn for PRESSURE_MS) sends are unbounded again and the backlog
 * drains. A delivery costs a third to a half of an order's CPU (one HTTP request plus its
 * bookkeeping), so without this a saturated shop lost a fifth or more of its checkout capacity
 * to webhooks; with it, deliveries lag during a burst instead, and never stop (the rate is a
 * floor as well as a ceiling).
 */
import type { Clock } from '../../lib/time'

export const PRESSURE_MS = 250
/**
 * Under pressure, sends start in groups of this many (every 100 ms at 100/s): one transaction
 * moves, claims and later records a group, instead of one per checkout batch.
 */
export const PRESSURE_GROUP = 16
/** Event-loop lateness that counts as saturated: at 200 orders/s a turn takes well under 1 ms. */
export const LAG_MS = 4

export class DeliveryGovernor {
  private busyUntil = 0
  private tokens: number
  private tokensAt = 0

  constructor(
    private clock: Clock,
    /** Sends per second while checkout is under pressure. */
    private rate: number,
    /** Sends allowed at once when pressure starts (a second's worth by default). */
    private burst = rate,
    /** A group is at most a tenth of a second's sends. */
    private group = Math.max(1, Math.min(PRESSURE_GROUP, Math.floor(rate / 10), burst)),
  ) {
    this.tokens = burst
  }

  /** Checkout is saturated (LoopLagProbe): opens or extends a pressure episode. */
  notePressure(): void {
    const now = this.clock.now()
    if (now >= this.busyUntil) {
      // A new episode starts with a full bucket.
      this.tokens = this.burst
      this.tokensAt = now
    }
    this.busyUntil = now + PRESSURE_MS
  }

  get underPressure(): boolean {
    return this.clock.now() < this.busyUntil
  }

  /**
   * How many sends may start now (Infinity when checkout is not under pressure; 0 until a group's worth has accrued).
   */
  available(): number {
    const now = this.clock.now()
    if (now >= this.busyUntil) return Infinity
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.tokensAt) * this.rate) / 1000)
    this.tokensAt = now
    return this.tokens >= this.group ? Math.floor(this.tokens) : 0
  }

  take(n: number): void {
    if (this.underPressure) this.tokens -= n
  }

  /** Milliseconds until the next group may start (for a deferred pump). */
  msUntilNext(): number {
    return Math.max(1, Math.ceil(((this.group - this.tokens) * 1000) / this.rate))
  }
}

/**
 * Measures how late a 10 ms timer fires: the event loop's own queue length, which the checkout
 * code cannot see (saturated requests wait in the sockets, not in the order batcher). Calls
 * `onLate` when the loop has been at least LAG_MS late LATE_STREAK times in a row while
 * `active()` says checkout is being used — a single late turn (a GC pause, a burst of a few
 * orders) is not saturation: at 200 orders/s on one core that happened every few seconds and
 * held deliveries back for no reason — and, once `pressured()`, on any late tick: a saturated
 * loop still has on-time ticks (waiting for an fsync, say), and dropping out of pressure on
 * them let the backlog out at full speed several times a second.
 */
export const LATE_STREAK = 3
/**
 * …and the process must have used at least half a core over the last ~100 ms. A late
 * loop with an idle process is a stalled VM (CPU time lost to neighbours, a slow disk), not
 * checkout saturating the core: at 200 orders/s such stalls held deliveries back (p99 receipt
 * 0.5 s) although checkout used a third of the core. Saturated, it uses 85–95 %.
 */
export const BUSY_SHARE = 0.5
const WINDOW_TICKS = 10

/** This process's CPU time so far, in ms. */
export function processCpuMs(): number {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}

/**
 * The decision, apart from timers and clocks: fed one observation per probe tick, says whether
 * this tick counts as checkout pressure.
 */
export class PressureSignal {
  private streak = 0

  observe(o: { lateMs: number; cpuShare: number; active: boolean; pressured: boolean }): boolean {
    this.streak = o.lateMs >= LAG_MS ? this.streak + 1 : 0
    return this.streak > 0 && (this.streak >= LATE_STREAK || o.pressured) && o.cpuShare >= BUSY_SHARE && o.active
  }
}

export class LoopLagProbe {
  private timer: ReturnType<typeof setInterval>
  private expected = performance.now() + 10
  private signal = new PressureSignal()
  /** (wall ms, process CPU ms) at each of the last WINDOW_TICKS ticks. */
  private window: [number, number][] = []

  constructor(
    onLate: () => void,
    active: () => boolean,
    pressured: () => boolean = () => false,
    /** The process's CPU time in ms (user + system). */
    private cpuMs: () => number = processCpuMs,
  ) {
    this.timer = setInterval(() => {
      const now = performance.now()
      const lateMs = now - this.expected
      this.expected = now + 10
      if (this.signal.observe({ lateMs, cpuShare: this.cpuShare(now), active: active(), pressured: pressured() }))
        onLate()
    }, 10)
    this.timer.unref?.()
  }

  /** Share of one core this process used since the oldest tick in the window. */
  private cpuShare(now: number): number {
    const cpu = this.cpuMs()
    this.window.push([now, cpu])
    if (this.window.length > WINDOW_TICKS) this.window.shift()
    const [t0, c0] = this.window[0]!
    return now > t0 ? (cpu - c0) / (now - t0) : 0
  }

  stop(): void {
    clearInterval(this.timer)
  }
}
