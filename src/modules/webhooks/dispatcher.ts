/**
 * Delivers the outbox (`webhook_deliveries`) to endpoints, at least once.
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
 * - Concurrency is bounded per process: `webhookConcurrency` sends overall and
 *   `webhookConcurrencyPerEndpoint` per endpoint.
 * - Results are written in batches (one transaction per tick), not one per response.
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
import { iso } from '../../lib/time'
import { signatureHeader } from './signing'

export interface DispatcherDeps {
  db: Db
  config: Config
  clock: Clock
  log: Logger
  secretBox: SecretBox
  /** DNS for the send-time SSRF check; tests substitute one. */
  lookup?: Lookup
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

const DAY_MS = 86_400_000
const MAX_RETRY_AFTER_MS = DAY_MS
const ERROR_MAX = 500
const SNIPPET_BYTES = 256

export interface SweepResult {
  /** Rows claimed and attempted by this sweep (including follow-up pumps while it waited). */
  attempted: number
}

export class Dispatcher {
  private inFlight = 0
  private perEndpoint = new Map<string, number>()
  private results: { claim: Claimed; result: Result; done: () => void }[] = []
  private flushScheduled = false
  private pumpScheduled = false
  private closed = false
  private draining = false
  private abort = new AbortController()
  private idleWaiters: (() => void)[] = []
  private attemptedCount = 0
  private readonly q: ReturnType<Dispatcher['prepare']>

  constructor(private deps: DispatcherDeps) {
    this.q = this.prepare()
  }

  private prepare() {
    const c = this.deps.db.$client
    return {
      candidates: c.prepare<{ id: string; webhookId: string }, [number, string, number]>(
        `SELECT d.id, d.webhook_id AS webhookId FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE w.is_active = 1
           AND ((d.status = 'pending' AND d.next_attempt_at <= ?1) OR (d.status = 'sending' AND d.locked_until < ?1))
           AND d.webhook_id NOT IN (SELECT value FROM json_each(?2))
         ORDER BY d.next_attempt_at LIMIT ?3`,
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

  /** A commit wrote outbox rows: attempt what is due on the next tick (calls in one tick coalesce). */
  notify(): void {
    if (this.closed || this.draining || this.pumpScheduled) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  /** Claims and starts everything due now, within the concurrency bounds. Never throws. */
  pump(): number {
    let started = 0
    try {
      while (!this.closed && !this.draining) {
        const free = this.deps.config.webhookConcurrency - this.inFlight
        if (free <= 0) break
        const now = this.deps.clock.now()
        const perMax = this.deps.config.webhookConcurrencyPerEndpoint
        const saturated = [...this.perEndpoint].filter(([, n]) => n >= perMax).map(([id]) => id)
        const limit = Math.max(free * 4, 32)
        const candidates = this.q.candidates.all(now, JSON.stringify(saturated), limit)
        if (candidates.length === 0) break
        const wanted = new Map(this.perEndpoint)
        const picked: string[] = []
        for (const c of candidates) {
          if (picked.length >= free) break
          const n = wanted.get(c.webhookId) ?? 0
          if (n >= perMax) continue
          wanted.set(c.webhookId, n + 1)
          picked.push(c.id)
        }
        if (picked.length === 0) break
        const claimed = this.claim(picked, now)
        for (const c of claimed) this.start(c)
        started += claimed.length
        // Lost every race (another worker took them) or nothing more could fit: stop here.
        if (claimed.length === 0 || candidates.length < limit) break
      }
    } catch (err) {
      if (!this.closed) this.deps.log.error('webhook pump failed', { error: String(err) })
    }
    if (started === 0) this.checkIdle()
    return started
  }

  private claim(ids: string[], now: number): Claimed[] {
    const lock = now + this.deps.config.webhookTimeoutMs + Math.max(1000, this.deps.config.webhookTimeoutMs / 2)
    const db = this.deps.db.$client
    return db.transaction(() => {
      const out: Claimed[] = []
      const hooks = new Map<string, WebhookRow | null>()
      for (const id of ids) {
        const row = this.q.claim.all(lock, now, id)[0]
        if (!row) continue
        let hook = hooks.get(row.webhookId)
        if (hook === undefined) {
          hook = this.q.webhook.get(row.webhookId) ?? null
          hooks.set(row.webhookId, hook)
        }
        if (hook) out.push({ ...row, lock, webhook: hook })
      }
      return out
    }).immediate()
  }

  private start(c: Claimed): void {
    this.inFlight++
    this.perEndpoint.set(c.webhookId, (this.perEndpoint.get(c.webhookId) ?? 0) + 1)
    this.attemptedCount++
    void this.attempt(c)
      .catch((err): Result => ({ kind: 'fail', code: null, latencyMs: null, error: `internal error: ${String(err)}` }))
      .then((result) => new Promise<void>((done) => this.record(c, result, done)))
      .finally(() => {
        this.inFlight--
        const n = (this.perEndpoint.get(c.webhookId) ?? 1) - 1
        if (n <= 0) this.perEndpoint.delete(c.webhookId)
        else this.perEndpoint.set(c.webhookId, n)
        this.pump()
        this.checkIdle()
      })
  }

  /** One HTTP attempt. Never throws: every failure becomes a Result. */
  private async attempt(c: Claimed): Promise<Result> {
    const { config, clock, secretBox } = this.deps
    const check = await checkWebhookUrl(c.webhook.url, { allowPrivate: config.webhookAllowPrivate, lookup: this.deps.lookup })
    if (!check.ok) return { kind: 'fail', code: null, latencyMs: null, error: `refused: ${check.message}` }
    const now = clock.now()
    const secrets = [secretBox.open(c.webhook.secret, c.webhook.id)]
    if (c.webhook.previousSecret && (c.webhook.previousSecretExpiresAt ?? 0) > now) secrets.push(secretBox.open(c.webhook.previousSecret, c.webhook.id))
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

  /** Queues a result; all results of one tick are written in one transaction. */
  private record(claim: Claimed, result: Result, done: () => void): void {
    this.results.push({ claim, result, done })
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(() => {
      this.flushScheduled = false
      const batch = this.results
      this.results = []
      // After close() the database may be gone: the rows stay `sending` until their lock
      // expires and a later process sends them again (at least once).
      if (!this.closed) {
        try {
          this.deps.db.$client.transaction(() => batch.forEach((b) => this.apply(b.claim, b.result))).immediate()
        } catch (err) {
          this.deps.log.error('webhook result write failed', { error: String(err) })
        }
      }
      batch.forEach((b) => b.done())
    })
  }

  private apply(c: Claimed, r: Result): void {
    const q = this.q
    const now = this.deps.clock.now()
    if (r.kind === 'ok') {
      q.succeeded.run(now, r.code, r.latencyMs, c.lock, c.id)
      q.clearFailing.run(c.webhookId)
      return
    }
    const row = q.row.get(c.id)
    if (!row || row.status !== 'sending' || row.lockedUntil !== c.lock) return // deleted, replayed or reclaimed meanwhile
    const attempts = row.attempts + 1
    const error = r.error.length > ERROR_MAX ? r.error.slice(0, ERROR_MAX - 1) + '…' : r.error
    const hook = q.webhook.get(c.webhookId)
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
      q.failPending.run(`endpoint disabled: ${disabledReason}`, now, c.webhookId)
      this.deps.log.warn('webhook endpoint disabled', { webhookId: c.webhookId, reason: disabledReason })
    }
  }

  private checkIdle(): void {
    if (this.inFlight === 0 && !this.pumpScheduled && this.idleWaiters.length) {
      const waiters = this.idleWaiters
      this.idleWaiters = []
      waiters.forEach((w) => w())
    }
  }

  /** Resolves when nothing is in flight. */
  idle(): Promise<void> {
    if (this.inFlight === 0 && !this.pumpScheduled) return Promise.resolve()
    return new Promise((r) => this.idleWaiters.push(r))
  }

  /**
   * Attempts everything due now and waits until those sends (and any follow-ups that fell due
   * meanwhile, e.g. with a zero-second retry schedule) are recorded. The croner job's body.
   */
  async sweep(): Promise<SweepResult> {
    const before = this.attemptedCount
    this.pump()
    await this.idle()
    return { attempted: this.attemptedCount - before }
  }

  /** Graceful shutdown: stop claiming, wait up to `ms` for in-flight sends to finish. */
  async drain(ms: number): Promise<void> {
    this.draining = true // no new claims: only what is in flight finishes
    const done = this.inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => this.idleWaiters.push(r))
    await Promise.race([done, new Promise((r) => setTimeout(r, ms).unref?.())])
  }

  /** Stops for good: aborts what is still in flight; those rows are reclaimed after their lock. */
  close(): void {
    this.closed = true
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
