/**
 * Delivers webhook events to endpoints, at least once.
 *
 * - A row is claimed before it is sent: in one BEGIN IMMEDIATE transaction a conditional UPDATE
 *   moves it `pending → sending` and sets `locked_until`. Only one worker (this process, another
 *   Dispatcher on another connection, another process) can win that UPDATE, so a row is never
 *   sent twice at once. A crash leaves `sending` rows whose lock then expires; the next pump or
 *   sweep claims them again (the receiver may see that message twice: at least once, and the
 *   `webhook-id` lets it deduplicate).
 * - `notify()` (wired to `deps.onOutbox`) pumps on the next tick, so the first attempt follows
 *   the commit at once; the croner sweep (jobs/webhooks.ts) picks up retries that fall due and
 *   leftovers from a crash.
 * - Events arrive in the append-only `webhook_outbox` (outbox.ts). Each tick claims due rows
 *   of the delivery log (`webhook_deliveries`: retries, replays, rows left by a crash) first,
 *   then moves from the outbox only as many events as it has room to send now; a moved event
 *   with a free slot is inserted already claimed. Reading the log moves the rest. While
 *   checkout is under pressure (governor.ts) the room is the governor's budget.
 * - Concurrency is bounded per process: `webhookConcurrency` sends overall and
 *   `webhookConcurrencyPerEndpoint` per endpoint.
 * - One transaction per tick writes the results that arrived and claims what is due next.
 * - Rows of an inactive endpoint are not claimed: they stay `pending` and go out if the endpoint
 *   is re-activated. When the service itself disables an endpoint (410 Gone, or failing for
 *   `webhookDisableAfterDays`), its pending rows are marked `failed` instead.
 */
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import type { Logger } from '../../lib/log'
import type { SecretBox } from '../../lib/secret-box'
import { checkWebhookUrl, type Lookup } from '../../lib/ssrf'
import type { Clock } from '../../lib/time'
import { DAY_MS, iso } from '../../lib/time'
import { DeliveryGovernor, LoopLagProbe, PRESSURE_MS } from './governor'
import { moveAll, moveOutbox } from './outbox'
import { signatureHeader } from './signing'

export interface DispatcherDeps {
  db: Db
  config: Config
  clock: Clock
  log: Logger
  secretBox: SecretBox
  /** DNS for the send-time SSRF check; tests substitute one. */
  lookup?: Lookup
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

interface WebhookRow {
  id: string
  url: string
  secret: string
  previousSecret: string | null
  previousSecretExpiresAt: number | null
}

interface Claimed {
  id: string
  webhookId: string
  payload: string
  lock: number
  webhook: WebhookRow
}

type Result =
  | { kind: 'ok'; code: number; latencyMs: number }
  | { kind: 'fail'; code: number | null; latencyMs: number | null; error: string; retryAfterMs?: number; gone?: boolean }

const MAX_RETRY_AFTER_MS = DAY_MS
const ERROR_MAX = 500
const SNIPPET_BYTES = 256
const RESULT_GATHER_MS = 5

export interface SweepResult {
  /** Rows claimed and attempted by this sweep (including follow-up pumps while it waited). */
  attempted: number
}

export class Dispatcher {
  private inFlight = 0
  private perEndpoint = new Map<string, number>()
  private results: { claim: Claimed; result: Result }[] = []
  private pumpScheduled = false
  private wantAll = false
  /** The outbox may hold rows: set by notify() and sweeps (another process may have written), cleared when a move comes up short. */
  private outboxPending = true
  private wantEndpoints = new Set<string>()
  private closed = false
  private draining = false
  private abort = new AbortController()
  private idleWaiters: (() => void)[] = []
  private attemptedCount = 0
  private deferred: ReturnType<typeof setTimeout> | undefined
  private deferredAt = Infinity
  private readonly q: ReturnType<Dispatcher['prepare']>
  /** Bounds the send rate while checkout is queueing (governor.ts). */
  readonly governor: DeliveryGovernor

  private lastCheckoutAt = -Infinity
  private probe: LoopLagProbe

  constructor(private deps: DispatcherDeps) {
    this.q = this.prepare()
    this.governor = new DeliveryGovernor(deps.clock, deps.config.webhookBusyRate)
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

  private prepare() {
    const c = this.deps.db.$client
    return {
      /** One endpoint's due rows, oldest first: a seek on deliveries_endpoint_due_idx, no sort. */
      duePending: c.prepare<{ id: string }, [string, number, number]>(
        `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND webhook_id = ?1 AND next_attempt_at <= ?2
         ORDER BY next_attempt_at LIMIT ?3`,
      ),
      /** Claims a crash (or a lost result) left behind, once their lock has expired. */
      dueExpired: c.prepare<{ id: string }, [string, number, number]>(
        `SELECT id FROM webhook_deliveries WHERE status = 'sending' AND webhook_id = ?1 AND locked_until < ?2 LIMIT ?3`,
      ),
      /** Every active endpoint with something due: the sweep's starting point. */
      dueEndpoints: c.prepare<{ id: string }, [number]>(
        `SELECT w.id FROM webhooks w WHERE w.is_active = 1 AND (
           EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.status = 'pending' AND d.webhook_id = w.id AND d.next_attempt_at <= ?1)
           OR EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.status = 'sending' AND d.webhook_id = w.id AND d.locked_until < ?1))`,
      ),
      claim: c.prepare<{ id: string; webhookId: string; payload: string }, [number, number, string]>(
        `UPDATE webhook_deliveries SET status = 'sending', locked_until = ?1, updated_at = ?2
         WHERE id = ?3
           AND ((status = 'pending' AND next_attempt_at <= ?2) OR (status = 'sending' AND locked_until < ?2))
           AND webhook_id IN (SELECT id FROM webhooks WHERE is_active = 1)
         RETURNING id, webhook_id AS webhookId, payload`,
      ),
      webhook: c.prepare<WebhookRow & { isActive: number; failingSince: number | null }, [string]>(
        `SELECT id, url, secret, previous_secret AS previousSecret, previous_secret_expires_at AS previousSecretExpiresAt,
                is_active AS isActive, failing_since AS failingSince
         FROM webhooks WHERE id = ?`,
      ),
      row: c.prepare<{ attempts: number; status: string; lockedUntil: number | null }, [string]>(
        'SELECT attempts, status, locked_until AS lockedUntil FROM webhook_deliveries WHERE id = ?',
      ),
      succeeded: c.prepare<never, [number, number, number, number, string]>(
        `UPDATE webhook_deliveries SET status = 'succeeded', attempts = attempts + 1, delivered_at = ?1, last_response_code = ?2,
           last_latency_ms = ?3, last_error = NULL, next_attempt_at = NULL, locked_until = NULL, updated_at = ?1
         WHERE id = ?5 AND status = 'sending' AND locked_until = ?4`,
      ),
      failed: c.prepare<never, [string, number | null, number | null, number | null, string, number, string, number]>(
        `UPDATE webhook_deliveries SET status = ?1, attempts = attempts + 1, next_attempt_at = ?2, last_response_code = ?3,
           last_latency_ms = ?4, last_error = ?5, locked_until = NULL, updated_at = ?6
         WHERE id = ?7 AND status = 'sending' AND locked_until = ?8`,
      ),
      clearFailing: c.prepare<never, [string]>('UPDATE webhooks SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL'),
      setFailing: c.prepare<never, [number, string]>('UPDATE webhooks SET failing_since = ?1 WHERE id = ?2 AND failing_since IS NULL'),
      disable: c.prepare<never, [string, number, string]>(
        'UPDATE webhooks SET is_active = 0, disabled_reason = ?1, updated_at = ?2 WHERE id = ?3 AND is_active = 1',
      ),
      failPending: c.prepare<never, [string, number, string]>(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = ?1, updated_at = ?2
         WHERE webhook_id = ?3 AND status = 'pending'`,
      ),
    }
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
   * tick, then claim what is due for the endpoints that may have work — those of notified
   * stores, those whose send just finished (a slot freed), or, for a sweep, every active
   * endpoint with due or expired rows — and start those sends after commit. Each endpoint is
   * one indexed query, so a backlog on one endpoint never costs a scan per event. Never throws.
   */
  pump(): number {
    if (this.closed) return 0
    const batch = this.results
    this.results = []
    for (const b of batch) {
      this.inFlight--
      const n = (this.perEndpoint.get(b.claim.webhookId) ?? 1) - 1
      if (n <= 0) this.perEndpoint.delete(b.claim.webhookId)
      else this.perEndpoint.set(b.claim.webhookId, n)
      // A slot of this endpoint freed: its next due row (a zero-delay retry, or the backlog
      // behind the per-endpoint bound) goes out now.
      this.wantEndpoints.add(b.claim.webhookId)
    }
    if (batch.length === 0 && !this.wantAll && this.governor.available() === 0) {
      // Checkout is under pressure and no send may start yet: no transaction at all this tick
      // (a checkout batch wakes the dispatcher every few milliseconds).
      this.deferPump(this.governor.msUntilNext())
      return 0
    }
    let claimed: Claimed[] = []
    const tick = this.deps.db.$client.transaction(() => {
      for (const b of batch) this.apply(b.claim, b.result)
      return this.draining ? [] : this.claimDue()
    })
    try {
      claimed = this.deps.relaxed ? this.deps.relaxed(() => tick.immediate()) : tick.immediate()
    } catch (err) {
      // The results stay unwritten: those rows remain `sending` until their lock expires and
      // are sent again (at least once).
      this.deps.log.error('webhook dispatch failed', { error: String(err) })
    }
    for (const c of claimed) this.start(c)
    this.checkIdle()
    return claimed.length
  }

  /**
   * Inside pump's transaction: moves outbox rows into the log and claims due rows within the
   * concurrency bounds and the governor's budget.
   */
  private claimDue(): Claimed[] {
    const now = this.deps.clock.now()
    const sweep = this.wantAll
    const budget = this.governor.available()
    const targets = new Set(this.wantEndpoints)
    if (sweep) {
      this.outboxPending = true
      for (const r of this.q.dueEndpoints.all(now)) targets.add(r.id)
    }
    this.wantAll = false
    this.wantEndpoints.clear()
    const out: Claimed[] = []
    const first = this.claimFor(targets, out, budget, sweep, now)
    let throttled = first.throttled
    if (this.outboxPending && !first.backlogged) {
      // Only when the log's own due rows are out, and only what there is room to send now,
      // moves out of the outbox: the move is the costly write (a random-key insert), so it is
      // not done ahead of sending (the delivery log moves the rest when it is read).
      const room = Math.min(budget - out.length, this.deps.config.webhookConcurrency - this.inFlight - out.length)
      if (budget - out.length <= 0) throttled = true
      else if (room > 0) {
        this.move(room, out, now)
        // Nothing to wait for (e.g. the rows were an inactive endpoint's): keep moving.
        if (this.outboxPending && out.length === 0 && this.inFlight === 0) this.schedule()
      }
    }
    this.governor.take(out.length)
    if (throttled) this.deferPump(this.governor.msUntilNext())
    return out
  }

  /**
   * Moves up to `limit` outbox rows into the log; those with a free slot are inserted already
   * claimed and join `out` (the endpoint active, within the per-endpoint bound).
   */
  private move(limit: number, out: Claimed[], now: number): void {
    const lock = this.lockFor(now)
    const hooks = new Map<string, WebhookRow & { isActive: number } | undefined>()
    const hookOf = (id: string) => {
      if (!hooks.has(id)) hooks.set(id, this.q.webhook.all(id)[0])
      return hooks.get(id)
    }
    const perMax = this.deps.config.webhookConcurrencyPerEndpoint
    const moved = moveOutbox(this.deps.db.$client, limit, (webhookId) => {
      return hookOf(webhookId)?.isActive && this.sending(webhookId, out) < perMax ? lock : null
    })
    for (const m of moved) {
      if (m.lock !== null) out.push({ id: m.id, webhookId: m.webhookId, payload: m.payload, lock: m.lock, webhook: hookOf(m.webhookId)! })
      else this.wantEndpoints.add(m.webhookId) // pending in the log: its endpoint's next tick takes it
    }
    // A short move emptied the outbox; otherwise the sends' completions pull the next rows.
    if (moved.length < limit) this.outboxPending = false
  }

  /** Sends of `endpoint` in flight plus those claimed this tick (`out`). */
  private sending(endpoint: string, out: Claimed[]): number {
    return (this.perEndpoint.get(endpoint) ?? 0) + out.filter((c) => c.webhookId === endpoint).length
  }

  /** A claim's expiry: past the send's timeout, so only a crashed worker's claim ever expires. */
  private lockFor(now: number): number {
    const t = this.deps.config.webhookTimeoutMs
    return now + t + Math.max(1000, t / 2)
  }

  /**
   * Claims due rows of `targets` into `out`. `throttled`: the budget ran out with endpoints
   * left; `backlogged`: an active endpoint may have more due rows than it got slots for.
   */
  private claimFor(targets: Set<string>, out: Claimed[], budget: number, sweep: boolean, now: number): { throttled: boolean; backlogged: boolean } {
    const { webhookConcurrency: overall, webhookConcurrencyPerEndpoint: perMax } = this.deps.config
    const lock = this.lockFor(now)
    let throttled = false
    let backlogged = false
    for (const endpoint of targets) {
      const inFlight = this.inFlight + out.length
      if (inFlight >= overall) {
        // Out of overall slots: look again when one frees.
        this.wantEndpoints.add(endpoint)
        backlogged = true
        continue
      }
      if (out.length >= budget) {
        // Checkout is queueing and this second's sends are spent: look again shortly.
        this.wantEndpoints.add(endpoint)
        throttled = true
        continue
      }
      const free = Math.min(
        overall - inFlight,
        perMax - this.sending(endpoint, out),
        budget - out.length,
      )
      const hook = this.q.webhook.all(endpoint)[0]
      if (!hook?.isActive) continue // its rows wait in the log until it is re-activated
      if (free <= 0) {
        backlogged = true // its own completions will pull the rest
        continue
      }
      const ids = (sweep ? this.q.dueExpired.all(endpoint, now, free) : []).map((r) => r.id)
      if (ids.length < free) for (const r of this.q.duePending.all(endpoint, now, free - ids.length)) ids.push(r.id)
      if (ids.length === free) backlogged = true
      for (const id of ids) {
        // Conditional: of all workers, exactly one moves a row to `sending`.
        const row = this.q.claim.all(lock, now, id)[0]
        if (!row) continue
        out.push({ ...row, lock, webhook: hook })
      }
      if (out.length >= budget) throttled = true
    }
    return { throttled, backlogged }
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

  private start(c: Claimed): void {
    this.inFlight++
    this.perEndpoint.set(c.webhookId, (this.perEndpoint.get(c.webhookId) ?? 0) + 1)
    this.attemptedCount++
    void this.attempt(c)
      .catch((err): Result => ({ kind: 'fail', code: null, latencyMs: null, error: `internal error: ${String(err)}` }))
      .then((result) => {
        // Written by the next tick's transaction, together with that tick's claims. Under
        // checkout pressure results gather for a few milliseconds first: one transaction then
        // records a wave of sends and claims the next, instead of one per send.
        this.results.push({ claim: c, result })
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

  /** One HTTP attempt. Never throws: every failure becomes a Result. */
  private async attempt(c: Claimed): Promise<Result> {
    const { config, clock } = this.deps
    const check = await checkWebhookUrl(c.webhook.url, { allowPrivate: config.webhookAllowPrivate, lookup: this.deps.lookup })
    if (!check.ok) return { kind: 'fail', code: null, latencyMs: null, error: `refused: ${check.message}` }
    const now = clock.now()
    const secrets = [this.open(c.webhook.secret, c.webhook.id)]
    if (c.webhook.previousSecret && (c.webhook.previousSecretExpiresAt ?? 0) > now) secrets.push(this.open(c.webhook.previousSecret, c.webhook.id))
    const ts = Math.floor(now / 1000)
    const started = performance.now()
    const signal = AbortSignal.any([AbortSignal.timeout(config.webhookTimeoutMs), this.abort.signal])
    try {
      const res = await fetch(c.webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Storefront-Webhooks/1.0',
          'webhook-id': c.id,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureHeader(secrets, c.id, ts, c.payload),
        },
        body: c.payload,
        redirect: 'manual',
        signal,
      })
      const latencyMs = Math.round(performance.now() - started)
      const snippet = await readSnippet(res)
      if (res.status >= 200 && res.status < 300) return { kind: 'ok', code: res.status, latencyMs }
      let error = `HTTP ${res.status}`
      if (res.status >= 300 && res.status < 400) error += `: redirect${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''} not followed`
      else if (snippet) error += `: ${snippet}`
      const retryAfterMs = res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('retry-after'), clock.now()) : undefined
      return { kind: 'fail', code: res.status, latencyMs, error, retryAfterMs, gone: res.status === 410 }
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started)
      const e = err as { name?: string; message?: string; code?: string }
      const error =
        e.name === 'TimeoutError' ? `timeout after ${config.webhookTimeoutMs} ms` : this.abort.signal.aborted ? 'aborted: service shutting down' : `${e.code ?? e.name ?? 'Error'}: ${e.message ?? String(err)}`
      return { kind: 'fail', code: null, latencyMs, error }
    }
  }

  private apply(c: Claimed, r: Result): void {
    const q = this.q
    const now = this.deps.clock.now()
    if (r.kind === 'ok') {
      q.succeeded.run(now, r.code, r.latencyMs, c.lock, c.id)
      q.clearFailing.run(c.webhookId)
      return
    }
    const row = q.row.all(c.id)[0]
    if (!row || row.status !== 'sending' || row.lockedUntil !== c.lock) return // deleted, replayed or reclaimed meanwhile
    const attempts = row.attempts + 1
    const error = r.error.length > ERROR_MAX ? r.error.slice(0, ERROR_MAX - 1) + '…' : r.error
    const hook = q.webhook.all(c.webhookId)[0]
    const failingSince = hook?.failingSince ?? now
    q.setFailing.run(now, c.webhookId)
    let disabledReason: string | undefined
    if (r.gone) disabledReason = 'Endpoint answered 410 Gone'
    else if (now - failingSince >= this.deps.config.webhookDisableAfterDays * DAY_MS) {
      disabledReason = `Every delivery failed since ${iso(failingSince)} (${this.deps.config.webhookDisableAfterDays} days)`
    }
    const schedule = this.deps.config.webhookRetrySchedule
    if (disabledReason || attempts > schedule.length) {
      q.failed.run('failed', null, r.code, r.latencyMs, error, now, c.id, c.lock)
    } else {
      const base = schedule[attempts - 1]! * 1000
      // ±10 % jitter spreads retries of a burst; Retry-After (429/503) can only push the retry
      // later than the schedule, never sooner, and at most 24 h out.
      let delay = Math.round(base * (0.9 + Math.random() * 0.2))
      if (r.retryAfterMs !== undefined) delay = Math.max(delay, Math.min(r.retryAfterMs, MAX_RETRY_AFTER_MS))
      q.failed.run('pending', now + delay, r.code, r.latencyMs, error, now, c.id, c.lock)
    }
    if (disabledReason) {
      q.disable.run(disabledReason, now, c.webhookId)
      moveAll(this.deps.db.$client) // its events still in the outbox fail too
      q.failPending.run(`endpoint disabled: ${disabledReason}`, now, c.webhookId)
      this.deps.log.warn('webhook endpoint disabled', { webhookId: c.webhookId, reason: disabledReason })
    }
  }

  private isIdle(): boolean {
    return this.closed || (this.inFlight === 0 && !this.pumpScheduled && this.results.length === 0)
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

/** Retry-After: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined
  const v = value.trim()
  if (/^\d+$/.test(v)) return Number(v) * 1000
  const at = Date.parse(v)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** The start of an error body for lastError; the rest is discarded so the connection is reusable. */
async function readSnippet(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } finally {
    if (size >= SNIPPET_BYTES) await reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8').replace(/\s+/g, ' ').trim()
}
