/**
 * Delivers webhook events to endpoints, at least once. This file is the scheduling shell: it
 * decides when a tick runs and starts the sends. The pieces it drives:
 *
 * - store.ts / statements.ts: the delivery log's SQL (claim, move from the outbox, record).
 * - scheduling.ts: who may send next (fair share per endpoint, the fast and slow lanes). Pure.
 * - retry-policy.ts: what a failure leads to (retry when, fail, disable). Pure.
 * - sender.ts: one HTTP POST to the address the SSRF check passed. Stateless.
 * - governor.ts: how many sends may start while checkout is saturated. Pure core.
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
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import type { Logger } from '../../lib/log'
import { LogOnce } from '../../lib/log-once'
import type { SecretBox } from '../../lib/secret-box'
import { checkWebhookUrl, type Lookup } from '../../lib/ssrf'
import type { Clock } from '../../lib/time'
import { DeliveryGovernor, LoopLagProbe, PRESSURE_MS } from './governor'
import type { RetryRules } from './retry-policy'
import { FairShare, laneLimits, type Outcome } from './scheduling'
import { send, type SendResult } from './sender'
import { signatureHeader } from './signing'
import type { SigningRow } from './statements'
import { DeliveryStore, type Claim } from './store'

export interface DispatcherDeps {
  db: Db
  config: Config
  clock: Clock
  log: Logger
  secretBox: SecretBox
  /** DNS for the send-time SSRF check, whose answer the send connects to; tests substitute one. */
  lookup?: Lookup
  /** Extra CA certificates (PEM) to trust for https receivers: tests with a self-signed one. */
  ca?: string
  /** Jitter of the retry schedule; tests substitute a fixed source. */
  random?: () => number
  /**
   * When `db` is the request path's own connection: runs each tick's transaction at NORMAL (no
   * fsync of its own; the next synced commit covers it too) and restores the level after
   * (WalSync.relaxed). Sharing the connection matters: a commit on another connection makes
   * SQLite drop this connection's page cache (and bumps data_version, which clears the
   * StoreCache), so a separate dispatcher connection made every order and every delivery
   * re-read its pages.
   */
  relaxed?: <T>(fn: () => T) => T
}

/** A claimed row and its slot in the lanes. */
interface Running {
  claim: Claim
  token: number
}

/** Outbox rows moved aside per tick past a stuck endpoint's: a bounded write, however long the backlog. */
const MOVE_BATCH = 256
/** Outbox rows looked at per tick for ones that can be sent at once. */
const OUTBOX_PEEK = 32
const RESULT_GATHER_MS = 5

export interface SweepResult {
  /** Rows claimed and attempted by this sweep (including follow-up pumps while it waited). */
  attempted: number
}

const outcomeOf = (r: SendResult): Outcome => (r.kind === 'ok' || r.code !== null ? 'answered' : r.timedOut ? 'timeout' : 'other')

/**
 * One line per attempt: which endpoint, which delivery, the receiver's status (null when none
 * answered) and how long it took. Never the payload, the URL (a receiver's URL may carry a token)
 * or the receiver's answer: a failure without a status is named by its kind only.
 */
export function logAttempt(log: Logger, c: Claim, r: SendResult): void {
  if (log.enabled?.('info') === false) return
  const failure = r.kind === 'ok' || r.code !== null ? undefined : r.timedOut ? 'timeout' : /^[A-Za-z_ ]{1,32}(?=:)/.exec(r.error)?.[0] ?? 'error'
  log.info('webhook attempt', { webhookId: c.webhookId, deliveryId: c.id, storeId: c.webhook.storeId, status: r.code, ok: r.kind === 'ok', ms: r.latencyMs, ...(failure ? { failure } : {}) })
}

export class Dispatcher {
  private results: { run: Running; result: SendResult }[] = []
  private pumpScheduled = false
  private wantAll = false
  /** The outbox may hold rows: set by notify() and sweeps (another process may have written), cleared when a move comes up short. */
  private outboxPending = true
  /** Endpoints that may have due rows: notified, just freed a slot, or left waiting for room. */
  private wantEndpoints = new Set<string>()
  private closed = false
  private draining = false
  private abort = new AbortController()
  private idleWaiters: (() => void)[] = []
  private attemptedCount = 0
  private deferred: ReturnType<typeof setTimeout> | undefined
  private deferredAt = Infinity
  private readonly store: DeliveryStore
  private readonly lanes: FairShare
  private readonly rules: RetryRules
  /** Bounds the send rate while checkout is queueing (governor.ts). */
  readonly governor: DeliveryGovernor

  private lastCheckoutAt = -Infinity
  private probe: LoopLagProbe
  /** A failing tick (e.g. disk full) fails again on every tick: logged once a minute with a count. */
  private failures: LogOnce

  constructor(private deps: DispatcherDeps) {
    this.store = new DeliveryStore(deps.db.$client)
    this.lanes = new FairShare(laneLimits(deps.config))
    this.rules = { schedule: deps.config.webhookRetrySchedule, disableAfterDays: deps.config.webhookDisableAfterDays }
    this.governor = new DeliveryGovernor(deps.clock, deps.config.webhookBusyRate)
    this.failures = new LogOnce(deps.log, deps.clock)
    this.probe = new LoopLagProbe(
      () => this.governor.notePressure(),
      () => performance.now() - this.lastCheckoutAt < PRESSURE_MS,
      () => this.governor.underPressure,
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

  private schedule(): void {
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
        if (disabled) this.deps.log.warn('webhook endpoint disabled', { webhookId: b.run.claim.webhookId, reason: disabled })
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

  private take(hook: SigningRow, at: number): number {
    const token = this.lanes.start(hook.id, hook.storeId, at)
    this.reserved.push(token)
    return token
  }

  /**
   * Inside pump's transaction: moves outbox rows into the log (claimed when they can go at
   * once), then claims due log rows fairly across the wanted endpoints, within the lanes and the
   * governor's budget.
   */
  private claimDue(): Running[] {
    const now = this.deps.clock.now()
    // The lanes run on real elapsed time (a test's fixed clock must not freeze them).
    const at = performance.now()
    const sweep = this.wantAll
    const budget = this.governor.available()
    const targets = new Set(this.wantEndpoints)
    if (sweep) {
      this.outboxPending = true
      for (const id of this.store.dueEndpoints(now)) targets.add(id)
    }
    this.wantAll = false
    this.wantEndpoints.clear()
    const lock = this.lockFor(now)
    const hooks = new Map<string, SigningRow | undefined>()
    const hookOf = (id: string) => {
      if (!hooks.has(id)) hooks.set(id, this.store.activeWebhook(id))
      return hooks.get(id)
    }
    const out: Running[] = []
    const claims: Claim[] = []
    let throttled = false
    let laneBound = false

    // Fresh events first: those that can be sent at once go straight from the outbox (one
    // write each); a stuck store's are moved aside to wait in the log.
    if (this.outboxPending) {
      const next = this.moveLimit(at, budget - out.length, hookOf)
      if (next.limit > 0) {
        const tokens: number[] = []
        const first = claims.length
        const { moved, waiting } = this.store.move(
          next.limit,
          (hook) => {
            // The same test as moveLimit's, now taking the slots.
            if (out.length + tokens.length >= budget || this.lanes.stuck(hook.id, hook.storeId, at) || this.lanes.room(hook.id, hook.storeId, at) <= 0) return null
            tokens.push(this.take(hook, at))
            return lock
          },
          claims,
          hooks,
        )
        claims.slice(first).forEach((c, i) => out.push({ claim: c, token: tokens[i]! }))
        for (const w of waiting) targets.add(w) // their turn comes in the rounds below
        if (moved < next.limit) this.outboxPending = false
        else if (next.aside) this.schedule() // more may wait behind: next tick, after these sends start
      } else if (next.blocked === 'empty') this.outboxPending = false
      else if (next.blocked === 'budget') throttled = true
      else laneBound = true
    }
    // Rounds: each endpoint in turn, least recently served store first (scheduling.ts), gets its
    // share of what is free (at least one send), and goes round again only while it has more due.
    let queue = this.lanes.order(targets, (id) => hookOf(id)?.storeId ?? '')
    while (queue.length > 0) {
      const again: string[] = []
      for (const [i, endpoint] of queue.entries()) {
        if (out.length >= budget) {
          throttled = true
          this.wantEndpoints.add(endpoint)
          continue
        }
        const hook = hookOf(endpoint)
        if (!hook) continue // inactive: its rows wait in the log until it is re-activated
        const room = this.lanes.room(endpoint, hook.storeId, at)
        if (room <= 0) {
          // Looked at again when a slot frees (its own completion, another's, or a demotion).
          this.wantEndpoints.add(endpoint)
          laneBound = true
          continue
        }
        const share = Math.max(1, Math.floor(this.lanes.fastRoom(at) / (queue.length - i)))
        const n = Math.min(room, share, budget - out.length)
        const before = claims.length
        const due = this.store.claimDue(hook, n, lock, now, sweep, claims)
        for (const c of claims.slice(before)) out.push({ claim: c, token: this.take(hook, at) })
        if (due === n && claims.length > before) again.push(endpoint) // it may have more
      }
      queue = again
    }
    this.lanes.nextRound()

    this.governor.take(out.length)
    if (throttled) this.deferPump(this.governor.msUntilNext())
    if (laneBound) {
      const ms = this.lanes.msUntilSlotFrees(at)
      if (Number.isFinite(ms)) this.deferPump(ms)
    }
    return out
  }

  /**
   * How many outbox rows to move this tick. Rows move while they can be sent at once (inserted
   * already claimed), up to the last such row among the next OUTBOX_PEEK; a row in front of it
   * whose endpoint has no free slot goes in `pending`. When none of those rows can be sent and
   * one of them belongs to an endpoint that is stuck (timing out, inactive, or of a store with
   * a hanging send), a
   * batch moves aside into the log (`aside`): the events behind it are reached and take their
   * fair turn there. Otherwise nothing moves, and the busy endpoints' completions pull their
   * rows: moved ahead of their send, each row would cost a second write transaction.
   */
  private moveLimit(at: number, budgetLeft: number, hookOf: (id: string) => SigningRow | undefined): { limit: number; aside?: boolean; blocked?: 'empty' | 'budget' | 'lanes' } {
    if (budgetLeft <= 0) return { limit: 0, blocked: 'budget' }
    const head = this.store.outboxHead(OUTBOX_PEEK)
    if (head.length === 0) return { limit: 0, blocked: 'empty' }
    const taken = new Map<string, number>()
    let fast = this.lanes.fastRoom(at)
    let claimable = 0
    let last = -1
    let stuck = false
    head.forEach((endpoint, i) => {
      const hook = hookOf(endpoint)
      if (!hook || this.lanes.stuck(endpoint, hook.storeId, at)) {
        stuck = true
        return
      }
      const t = taken.get(endpoint) ?? 0
      if (claimable >= budgetLeft || fast <= 0 || this.lanes.room(endpoint, hook.storeId, at) - t <= 0) return
      taken.set(endpoint, t + 1)
      fast--
      claimable++
      last = i
    })
    if (last >= 0) return { limit: last + 1 }
    if (stuck) return { limit: Math.min(MOVE_BATCH, budgetLeft), aside: true }
    return { limit: 0, blocked: claimable >= budgetLeft ? 'budget' : 'lanes' }
  }

  /** A claim's expiry: past the send's timeout, so only a crashed worker's claim ever expires. */
  private lockFor(now: number): number {
    const t = this.deps.config.webhookTimeoutMs
    return now + t + Math.max(1000, t / 2)
  }

  /** A pump in `ms` (e.g. at the governor's next group), unless one is already due sooner. */
  private deferPump(ms: number): void {
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
    void this.attempt(run.claim)
      .catch((err): SendResult => ({ kind: 'fail', code: null, latencyMs: null, error: `internal error: ${String(err)}` }))
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

  /** Decrypted secrets by ciphertext (a rotation writes a new ciphertext, so entries never go stale). */
  private opened = new Map<string, string>()
  private open(sealed: string, webhookId: string): string {
    const key = `${webhookId} ${sealed}` // the row id stays part of the check, as in the AAD
    let plain = this.opened.get(key)
    if (plain === undefined) {
      plain = this.deps.secretBox.open(sealed, webhookId)
      if (this.opened.size >= 1000) this.opened.clear()
      this.opened.set(key, plain)
    }
    return plain
  }

  /** One attempt: the SSRF check (whose address the send connects to), signing, the POST. Never throws. */
  private async attempt(c: Claim): Promise<SendResult> {
    const { config, clock } = this.deps
    const check = await checkWebhookUrl(c.webhook.url, { allowPrivate: config.webhookAllowPrivate, lookup: this.deps.lookup, resolve: true })
    if (!check.ok) return { kind: 'fail', code: null, latencyMs: null, error: `refused: ${check.message}` }
    const now = clock.now()
    const secrets = [this.open(c.webhook.secret, c.webhook.id)]
    if (c.webhook.previousSecret && (c.webhook.previousSecretExpiresAt ?? 0) > now) secrets.push(this.open(c.webhook.previousSecret, c.webhook.id))
    const ts = Math.floor(now / 1000)
    return send(
      {
        url: check.url,
        addresses: check.addresses,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Storefront-Webhooks/1.0',
          'webhook-id': c.id,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureHeader(secrets, c.id, ts, c.payload),
        },
        body: c.payload,
        timeoutMs: config.webhookTimeoutMs,
        signal: this.abort.signal,
        ca: this.deps.ca,
      },
      () => clock.now(),
    )
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
