/**
 * Delivers webhook events to endpoints, at least once. This file is the scheduling shell: it
 * decides when a tick runs and starts the sends. The pieces it drives:
 *
 * - store.ts / sql.ts: the delivery log's SQL (claim, move from the outbox, record).
 * - scheduling.ts: who may send next (fair share per endpoint, the fast and slow lanes). Pure.
 * - retry-policy.ts: what a failure leads to (retry when, fail, disable). Pure.
 * - sender.ts: one HTTP POST to the address the SSRF check passed. Stateless.
 * - governor.ts: how many sends may start while checkout is saturated. Pure core.
 * - claim-plan.ts: what one tick moves from the outbox and claims from the log.
 * - attempt.ts: one send of a claimed delivery (SSRF check, signing, the POST) and its log line.
 *
 * How a delivery goes:
 * - A row is claimed before it is sent: in one BEGIN IMMEDIATE transaction a conditional UPDATE
 *   moves it `pending → sending` and sets `locked_until`. Only one worker (this process, another
 *   Dispatcher on another connection, another process) can win that UPDATE, so a row is never
 *   sent twice at once. A crash leaves `sending` rows whose lock then expires; the next sweep
 *   claims them again (the receiver may see that message twice: at least once, and the
 *   `webhook-id` lets it deduplicate).
 * - `notify()` (wired to `deps.onOutbox`) pumps on the next tick, so the first attempt follows
 *   the commit at once; the croner sweep (jobs/webhooks.ts) picks up retries that fall due and
 *   leftovers from a crash.
 * - Events arrive in the append-only `webhook_outbox` (outbox.ts). Each tick first moves the
 *   outbox rows that can be sent at once into the log, inserted already claimed (moveLimit);
 *   rows of a stuck store at the head of the outbox are moved aside into the log in bounded
 *   batches, so events behind them are not held back. Then it claims due rows of the log
 *   (retries, replays, rows a move left pending), fairly across stores and endpoints. While
 *   checkout is under pressure (governor.ts) a tick moves and claims only the governor's budget.
 * - One transaction per tick writes the results that arrived and claims what is due next.
 * - Rows of an inactive endpoint are not claimed: they stay `pending` and go out if the endpoint
 *   is re-activated. When the service itself disables an endpoint (410 Gone, or failing for
 *   `webhookDisableAfterDays`), its pending rows are marked `failed` instead.
 */
import { LogOnce } from '../../lib/log-once'
import { DeliveryGovernor, LoopLagProbe, PRESSURE_MS } from './governor'
import type { RetryRules } from './retry-policy'
import { FairShare, laneLimits } from './scheduling'
import type { SendResult } from './sender'
import type { SigningRow } from './sql'
import { DeliveryStore } from './store'
import { planClaims, type Running } from './claim-plan'
import { Attempt, logAttempt, outcomeOf } from './attempt'
import type { DispatcherDeps } from './dispatcher-deps'

export type { DispatcherDeps }

const RESULT_GATHER_MS = 5

export interface SweepResult {
  /** Rows claimed and attempted by this sweep (including follow-up pumps while it waited). */
  attempted: number
}

// The fields and methods the claim plan reads (claim-plan.ts, PlanState) are not private; the
// rest of the dispatcher's state is.
export class Dispatcher {
  private results: { run: Running; result: SendResult }[] = []
  private pumpScheduled = false
  wantAll = false
  /**
   * The outbox may hold rows: set by notify() and sweeps (another
   * process may have written), cleared when a move comes up short.
   */
  outboxPending = true
  /** Endpoints that may have due rows: notified, just freed a slot, or left waiting for room. */
  wantEndpoints = new Set<string>()
  private closed = false
  private draining = false
  private abort = new AbortController()
  private idleWaiters: (() => void)[] = []
  private attemptedCount = 0
  private deferred: ReturnType<typeof setTimeout> | undefined
  private deferredAt = Infinity
  readonly store: DeliveryStore
  readonly lanes: FairShare
  private readonly rules: RetryRules
  /** Bounds the send rate while checkout is queueing (governor.ts). */
  readonly governor: DeliveryGovernor

  private lastCheckoutAt = -Infinity
  private probe: LoopLagProbe
  /** A failing tick (e.g. disk full) fails again on every tick: logged once a minute with a count. */
  private failures: LogOnce
  /** One send attempt of a claimed delivery (attempt.ts). */
  private readonly attempt: Attempt

  constructor(readonly deps: DispatcherDeps) {
    this.store = new DeliveryStore(deps.db.$client)
    this.lanes = new FairShare(laneLimits(deps.config))
    this.rules = { schedule: deps.config.webhookRetrySchedule, disableAfterDays: deps.config.webhookDisableAfterDays }
    this.governor = new DeliveryGovernor(deps.clock, deps.config.webhookBusyRate)
    this.failures = new LogOnce(deps.log, deps.clock)
    this.attempt = new Attempt(deps)
    this.probe = new LoopLagProbe(
      () => this.governor.notePressure(),
      () => performance.now() - this.lastCheckoutAt < PRESSURE_MS,
      () => this.governor.underPressure,
      deps.cpuMs,
    )
  }

  /** An order was posted: if the event loop also runs late, deliveries yield (governor.ts). */
  noteCheckout(): void {
    this.lastCheckoutAt = performance.now()
  }

  /**
   * A commit appended outbox rows: they move and go out on the next tick. Calls within one tick
   * coalesce into one pump.
   */
  notify(): void {
    this.outboxPending = true
    this.schedule()
  }

  /** A delivery of this endpoint is due now (a replay): claimed on the next tick. */
  wake(webhookId: string): void {
    this.wantEndpoints.add(webhookId)
    this.schedule()
  }

  schedule(): void {
    if (this.closed || this.pumpScheduled) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  /**
   * One tick, one BEGIN IMMEDIATE transaction: write the results that came in since the last
   * tick, then claim what is due for the endpoints that may have work and start those sends
   * after commit. Each endpoint is one indexed query, so a backlog on one endpoint never costs a
   * scan per event. Never throws.
   */
  pump(): number {
    if (this.closed) return 0
    const batch = this.results
    this.results = []
    for (const b of batch) {
      this.lanes.finish(b.run.token, outcomeOf(b.result))
      // A slot of this endpoint freed: its next due row (a zero-delay retry, or the backlog
      // behind its bound) goes out now.
      this.wantEndpoints.add(b.run.claim.webhookId)
    }
    if (batch.length === 0 && !this.wantAll && this.governor.available() === 0) {
      // Checkout is under pressure and no send may start yet: no transaction at all this tick
      // (a checkout batch wakes the dispatcher every few milliseconds).
      this.deferPump(this.governor.msUntilNext())
      return 0
    }
    let claimed: Running[] = []
    const random = this.deps.random ?? Math.random
    const tick = this.deps.db.$client.transaction(() => {
      const now = this.deps.clock.now()
      for (const b of batch) {
        const disabled = this.store.record(b.run.claim, b.result, now, this.rules, random)
        if (disabled) {
          this.deps.log.warn('webhook endpoint disabled', { webhookId: b.run.claim.webhookId, reason: disabled })
          this.deps.onDisabledTx?.(this.deps.db.$client, b.run.claim.webhookId, now)
        }
      }
      return this.draining ? [] : this.claimDue()
    })
    try {
      claimed = this.deps.relaxed ? this.deps.relaxed(() => tick.immediate()) : tick.immediate()
    } catch (err) {
      // The results stay unwritten: those rows remain `sending` until their lock expires and
      // are sent again (at least once). Slots reserved for this tick's claims are given back.
      this.failures.error(String(err), 'webhook dispatch failed', { error: String(err) })
      for (const r of this.reserved) this.lanes.finish(r, 'other')
    }
    this.reserved = []
    for (const c of claimed) this.start(c)
    this.checkIdle()
    return claimed.length
  }

  /** Lane slots taken by the tick in progress (released if its transaction fails). */
  private reserved: number[] = []

  take(hook: SigningRow, at: number): number {
    const token = this.lanes.start(hook.id, hook.storeId, at)
    this.reserved.push(token)
    return token
  }

  /** Inside pump's transaction: the claim plan (claim-plan.ts) over this dispatcher's state. */
  private claimDue(): Running[] {
    return planClaims(this)
  }

  deferPump(ms: number): void {
    if (this.closed) return
    const at = performance.now() + ms
    if (this.deferred) {
      if (this.deferredAt <= at) return
      clearTimeout(this.deferred)
    }
    this.deferredAt = at
    this.deferred = setTimeout(() => {
      this.deferred = undefined
      this.deferredAt = Infinity
      this.schedule()
    }, ms)
    this.deferred.unref?.()
  }

  private start(run: Running): void {
    this.attemptedCount++
    void this.attempt
      .run(run.claim, this.abort.signal)
      .catch(
        (err): SendResult => ({ kind: 'fail', code: null, latencyMs: null, error: `internal error: ${String(err)}` }),
      )
      .then((result) => {
        logAttempt(this.deps.log, run.claim, result)
        // Written by the next tick's transaction, together with that tick's claims. Under
        // checkout pressure results gather for a few milliseconds first: one transaction then
        // records a wave of sends and claims the next, instead of one per send.
        this.results.push({ run, result })
        if (this.governor.underPressure) this.deferPump(RESULT_GATHER_MS)
        else this.schedule()
      })
  }

  private isIdle(): boolean {
    return this.closed || (this.lanes.inFlight === 0 && !this.pumpScheduled && this.results.length === 0)
  }

  private checkIdle(): void {
    if (this.isIdle() && this.idleWaiters.length) {
      const waiters = this.idleWaiters
      this.idleWaiters = []
      waiters.forEach((w) => w())
    }
  }

  /** Resolves when nothing is in flight and every result is written (or the dispatcher is closed). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((r) => this.idleWaiters.push(r))
  }

  /**
   * Attempts everything due now and waits until those sends (and any follow-ups that fell due
   * meanwhile, e.g. with a zero-second retry schedule) are recorded. The croner job's body.
   */
  async sweep(): Promise<SweepResult> {
    const before = this.attemptedCount
    this.wantAll = true
    this.pump()
    await this.idle()
    return { attempted: this.attemptedCount - before }
  }

  /** Graceful shutdown: stop claiming, wait up to `ms` for in-flight sends to finish. */
  async drain(ms: number): Promise<void> {
    this.draining = true // no new claims: only what is in flight finishes
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, ms).unref?.())])
  }

  /** Stops for good: aborts what is still in flight; those rows are reclaimed after their lock. */
  close(): void {
    if (this.closed) return
    this.closed = true
    clearTimeout(this.deferred)
    this.probe.stop()
    this.abort.abort()
    this.checkIdle()
  }
}
