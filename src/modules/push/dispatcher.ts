/**
 * Sends the push queue, after commit and never on checkout's path. The same shape as the
 * webhook dispatcher (docs/decisions/003), smaller:
 * - `notify()` (a commit appended to `push_outbox`, or a test notification was queued) pumps on
 *   the next turn of the event loop; `sweep()` (the croner job, and tests) pumps whatever is due.
 * - A pump's transaction fans the outbox out into deliveries (outbox.ts) and claims the due
 *   ones, fairly across people and their devices (sql/queue.ts `due`), setting a lock so no second
 *   pump sends a row twice; a row whose store is suspended, whose person left the store or
 *   lost the grant its kind needs (alerts.ts), or whose day is over is deleted instead of sent.
 * - The sends run concurrently (PUSH_CONCURRENCY); their answers are written together a few
 *   milliseconds later (retry.ts decides), and the next due retry gets a timer.
 * - While checkout saturates the process (as the webhook dispatcher reads it), sends start at
 *   PUSH_BUSY_RATE a second (the webhooks' governor): the durable queue absorbs a burst instead of the orders' rate.
 */
import type { Config } from '../../config'
import { immediate, type Db } from '../../db/client'
import type { Logger } from '../../lib/log'
import type { SecretBox } from '../../lib/secret-box'
import type { Lookup } from '../../lib/ssrf'
import type { Clock } from '../../lib/time'
import { type Grant, roleHas } from '../people'
import { DeliveryGovernor, type SendResult } from '../webhooks'
import { deliver } from './deliver'
import { fanOut } from './outbox'
import { outcomeOf } from './retry'
import { type DueRow, pushStatements } from './sql/queue'
import { loadVapidKeys, type VapidKeys } from './vapid'

export interface PushDispatcherDeps {
  db: Db
  config: Config
  clock: Clock
  log: Logger
  secretBox: SecretBox
  /** DNS for the send-time SSRF check; tests substitute one. */
  lookup?: Lookup
  /**
   * Runs each pump's transaction without an fsync of its own
   * (WalSync.relaxed): a lost claim only means a push is sent again.
   */
  relaxed?: <T>(fn: () => T) => T
  random?: () => number
  /** Whether checkout saturates the process now (the webhook dispatcher's governor reads the event loop's lag). */
  pressure?: { readonly underPressure: boolean }
}

const RESULT_GATHER_MS = 5
/** A claimed row is sent again after this if its answer was never written (a crash mid-send). */
const LOCK_MARGIN_MS = 30_000

export class PushDispatcher {
  readonly vapid: VapidKeys
  private readonly governor: DeliveryGovernor
  private inFlight = 0
  private pumpScheduled = false
  private flushScheduled = false
  private results: { row: DueRow; result: SendResult }[] = []
  private retryTimer: ReturnType<typeof setTimeout> | undefined
  private idle: (() => void)[] = []
  private abort = new AbortController()
  private closed = false

  constructor(private deps: PushDispatcherDeps) {
    this.vapid = loadVapidKeys(deps.config)
    this.governor = new DeliveryGovernor(deps.clock, deps.config.pushBusyRate)
  }

  /** Rows were queued: pump on the next turn (calls within one turn coalesce). */
  notify(): void {
    if (this.pumpScheduled || this.closed) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  /** Pumps whatever is due now and waits until those sends' answers are written. */
  async sweep(): Promise<void> {
    this.pump()
    if (this.inFlight === 0 && this.results.length === 0) return
    await new Promise<void>((resolve) => this.idle.push(resolve))
  }

  /** The VAPID subject: VAPID_SUBJECT, else PUBLIC_URL when https, else the first owner's e-mail. */
  subject(): string {
    const c = this.deps.config
    if (c.vapidSubject) return c.vapidSubject
    if (c.publicUrl?.startsWith('https:')) return c.publicUrl
    const email = pushStatements(this.deps.db.$client).firstOwnerEmail.get()?.email
    return `mailto:${email ?? 'operator@localhost'}`
  }

  private tx<T>(fn: () => T): T {
    const run = () => immediate(this.deps.db, () => fn())
    return this.deps.relaxed ? this.deps.relaxed(run) : run()
  }

  private pump(): void {
    if (this.closed) return
    if (this.deps.pressure?.underPressure) this.governor.notePressure()
    const room = Math.min(this.deps.config.pushConcurrency - this.inFlight, this.governor.available())
    const now = this.deps.clock.now()
    const client = this.deps.db.$client
    const s = pushStatements(client)
    let claimed: DueRow[] = []
    // Most wake-ups (a webhook event, a store with no device, no send allowed yet) find nothing
    // to do: no write transaction for them.
    if (room <= 0) {
      // Sends in flight free a place when they are answered (flush pumps); tokens accrue with time.
      if (this.governor.available() === 0) this.later(this.governor.msUntilNext())
      return
    }
    if (!s.anyWork.get(now)) {
      this.scheduleNextDue()
      this.settleIfIdle()
      return
    }
    try {
      claimed = this.tx(() => {
        const out: DueRow[] = []
        const claim = (limit: number) => {
          for (const row of s.due.all(now, limit)) {
            if (!this.mayStillGo(row, now)) s.done.run(row.seq)
            else {
              s.lock.run(row.seq, now + this.deps.config.pushTimeoutMs + LOCK_MARGIN_MS)
              out.push(row)
            }
          }
        }
        claim(room)
        // Orders are fanned out into deliveries one at a time, only as there is room to send
        // them: a burst of orders stays a few bytes per order in the outbox, not a row per
        // device, and the fair claim above sorts a few hundred rows at most, not the backlog.
        while (out.length < room && fanOut(client, 1, now) > 0) claim(room - out.length)
        return out
      })
    } catch (e) {
      this.deps.log.error('push queue: pump failed', { error: String(e) })
    }
    this.governor.take(claimed.length)
    for (const row of claimed) this.start(row)
    if (claimed.length === 0) this.scheduleNextDue()
    this.settleIfIdle()
  }

  /**
   * Not sent: a suspended store, a person no longer of the store or whose role lost the kind's grant, a day-old push.
   */
  private mayStillGo(row: DueRow, now: number): boolean {
    if (row.expiresAt <= now) return false
    if (row.storeId === null) return true
    return row.storeStatus === 'active' && row.role !== null && roleHas(row.role, row.grant as Grant)
  }

  private start(row: DueRow): void {
    this.inFlight++
    let auth: string
    try {
      auth = this.deps.secretBox.open(row.auth, row.endpoint)
    } catch {
      auth = ''
    }
    void deliver({ endpoint: row.endpoint, p256dh: row.p256dh, auth }, row.payload, {
      vapid: this.vapid,
      subject: this.subject(),
      allowPrivate: this.deps.config.pushAllowPrivate,
      timeoutMs: this.deps.config.pushTimeoutMs,
      signal: this.abort.signal,
      now: () => this.deps.clock.now(),
      lookup: this.deps.lookup,
    })
      .catch((e): SendResult => ({ kind: 'fail', code: 400, latencyMs: null, error: String(e) }))
      .then((result) => {
        this.inFlight--
        this.results.push({ row, result })
        this.scheduleFlush()
      })
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return
    this.flushScheduled = true
    // Answers that arrive within a few ms are written in one transaction.
    setTimeout(() => {
      this.flushScheduled = false
      this.flush()
    }, RESULT_GATHER_MS)
  }

  private flush(): void {
    const batch = this.results
    this.results = []
    if (batch.length === 0 || this.closed) {
      this.settleIfIdle()
      return
    }
    const now = this.deps.clock.now()
    const s = pushStatements(this.deps.db.$client)
    try {
      this.tx(() => {
        for (const { row, result } of batch) {
          const o = outcomeOf(result, row, now, this.deps.random)
          if (o.kind === 'delivered') s.done.run(row.seq)
          else if (o.kind === 'gone') s.dropSubscription.run(row.subscriptionId)
          else if (o.kind === 'retry') s.retry.run(row.seq, o.at)
          else {
            s.done.run(row.seq)
            this.deps.log.warn('push not delivered', { subscription: row.subscriptionId, reason: o.reason })
          }
        }
      })
    } catch (e) {
      this.deps.log.error('push queue: recording answers failed', { error: String(e) })
    }
    this.pump()
  }

  /** A timer for the next retry (real time: tests with a moved clock call sweep() instead). */
  private scheduleNextDue(): void {
    const at = pushStatements(this.deps.db.$client).nextDue.get()?.at
    if (at === null || at === undefined) return
    this.later(Math.max(1, at - this.deps.clock.now()))
  }

  private later(ms: number): void {
    if (this.closed) return
    clearTimeout(this.retryTimer)
    // At most a minute: the croner sweep also runs, and a clock may have moved.
    this.retryTimer = setTimeout(() => this.pump(), Math.min(ms, 60_000))
    this.retryTimer.unref?.()
  }

  private settleIfIdle(): void {
    if (this.inFlight > 0 || this.results.length > 0 || this.flushScheduled) return
    const waiting = this.idle
    this.idle = []
    for (const w of waiting) w()
  }

  close(): void {
    this.closed = true
    this.abort.abort()
    clearTimeout(this.retryTimer)
    this.settleIfIdle()
  }
}
