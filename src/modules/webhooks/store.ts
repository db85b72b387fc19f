/**
 * The delivery log as the dispatcher and the API see it: claiming due rows, moving outbox rows
 * in, recording an attempt's outcome, and listing an endpoint's deliveries. Every write here
 * runs inside the caller's transaction (the dispatcher's tick); the listing only reads.
 */
import type { Database } from 'bun:sqlite'
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { webhookDeliveries, webhookOutbox, type DeliveryStatus } from '../../db/schema'
import { deliveryIdOf } from './delivery-id'
import { moveAll, moveOutbox, type Moved } from './outbox'
import { afterFailure, type RetryRules } from './retry-policy'
import type { SendResult } from './sender'
import { deliveryStatements, type ClaimedRow, type DeliveryRow, type DeliveryStatements, type SigningRow } from './sql'

const ERROR_MAX = 500

/** A row this worker holds: `lock` is the `locked_until` it wrote, which its result must still match. */
export interface Claim extends ClaimedRow {
  lock: number
  webhook: SigningRow
}

export class DeliveryStore {
  private q: DeliveryStatements

  constructor(private client: Database) {
    this.q = deliveryStatements(client)
  }

  /** Active endpoints with due or expired rows. */
  dueEndpoints(now: number): string[] {
    return this.q.dueEndpoints.all(now).map((r) => r.id)
  }

  /** The endpoints of the next `n` outbox rows, in order. */
  outboxHead(n: number): string[] {
    return this.q.outboxHead.all(n).map((r) => r.webhookId)
  }

  /** The endpoint, if it is active (an inactive one's rows wait in the log). */
  activeWebhook(id: string): SigningRow | undefined {
    return this.q.activeWebhook.all(id)[0]
  }

  /**
   * Claims up to `n` due rows of an active endpoint: expired claims first when `expired` (a
   * sweep), then pending rows oldest first. Returns how many were due (claimed or lost to
   * another worker), so the caller knows whether more may wait.
   */
  claimDue(webhook: SigningRow, n: number, lock: number, now: number, expired: boolean, out: Claim[]): number {
    const ids = (expired ? this.q.dueExpired.all(webhook.id, now, n) : []).map((r) => r.id)
    if (ids.length < n) for (const r of this.q.duePending.all(webhook.id, now, n - ids.length)) ids.push(r.id)
    for (const id of ids) {
      const row = this.q.claim.all(lock, now, id)[0]
      if (row) out.push({ ...row, lock, webhook })
    }
    return ids.length
  }

  /**
   * Moves up to `limit` outbox rows into the log. `claim(webhookId)` may hand out a lock for a
   * row to be sent at once (inserted `sending`, joining `out`); the others are inserted
   * `pending`, and their endpoints are returned to be looked at again. `hooks` caches endpoint
   * rows for the tick.
   */
  move(
    limit: number,
    claim: (webhook: SigningRow) => number | null,
    out: Claim[],
    hooks: Map<string, SigningRow | undefined>,
  ): { moved: number; waiting: Set<string> } {
    const hookOf = (id: string) => {
      if (!hooks.has(id)) hooks.set(id, this.activeWebhook(id))
      return hooks.get(id)
    }
    const waiting = new Set<string>()
    const moved: Moved[] = moveOutbox(this.client, limit, (webhookId) => {
      const hook = hookOf(webhookId)
      return hook ? claim(hook) : null
    })
    for (const m of moved) {
      if (m.lock !== null)
        out.push({ id: m.id, webhookId: m.webhookId, payload: m.payload, lock: m.lock, webhook: hookOf(m.webhookId)! })
      else waiting.add(m.webhookId)
    }
    return { moved: moved.length, waiting }
  }

  /**
   * Writes an attempt's outcome, if the row is still the one this worker claimed (not deleted,
   * replayed or reclaimed meanwhile). Returns why the endpoint was disabled, if this attempt disabled it
   * (a second failure answered after that finds it disabled already: once per disabling).
   */
  record(c: Claim, r: SendResult, now: number, rules: RetryRules, random: () => number): string | undefined {
    const q = this.q
    if (r.kind === 'ok') {
      q.succeeded.run(now, r.code, r.latencyMs, c.lock, c.id)
      q.clearFailing.run(c.webhookId)
      return undefined
    }
    const row = q.attemptState.all(c.id)[0]
    if (row?.status !== 'sending' || row.lockedUntil !== c.lock) return undefined
    const error = r.error.length > ERROR_MAX ? `${r.error.slice(0, ERROR_MAX - 1)}…` : r.error
    const failingSince = q.failingSince.all(c.webhookId)[0]?.failingSince ?? now
    q.setFailing.run(now, c.webhookId)
    const verdict = afterFailure(
      { attempts: row.attempts + 1, retryAfterMs: r.retryAfterMs, gone: r.gone },
      rules,
      failingSince,
      now,
      random,
    )
    q.failed.run(verdict.status, verdict.nextAttemptAt, r.code, r.latencyMs, error, now, c.id, c.lock)
    if (!verdict.disabledReason) return undefined
    const disabledNow = q.disable.run(verdict.disabledReason, now, c.webhookId).changes > 0
    moveAll(this.client) // its events still in the outbox fail too
    q.failPending.run(`endpoint disabled: ${verdict.disabledReason}`, now, c.webhookId)
    return disabledNow ? verdict.disabledReason : undefined
  }
}

/**
 * A row of the delivery listing: a log row, or an event still
 * in the outbox shown as the pending delivery it will become.
 */
export type ListedDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'webhookId'
  | 'eventType'
  | 'status'
  | 'attempts'
  | 'attemptsTotal'
  | 'lastResponseCode'
  | 'lastLatencyMs'
  | 'lastError'
  | 'nextAttemptAt'
  | 'deliveredAt'
  | 'createdAt'
  | 'updatedAt'
>

/**
 * An endpoint's deliveries, newest first: events still in the outbox (newer than anything in
 * the log, which is filled from the outbox in order), then the log. Reads only: listing never
 * moves the outbox (a burst can leave tens of thousands of rows there, and moving them is the
 * dispatcher's job, in its own bounded steps). The outbox has no index by endpoint; it is
 * scanned only when it holds rows at all, which outside a checkout burst it does not.
 */
export function listDeliveryLog(
  db: Db,
  webhookId: string,
  status: DeliveryStatus | undefined,
  limit: number,
  offset: number,
): { rows: ListedDelivery[]; total: number } {
  const queuedCond = eq(webhookOutbox.webhookId, webhookId)
  const outboxInUse =
    (status === undefined || status === 'pending') &&
    db.select({ seq: webhookOutbox.seq }).from(webhookOutbox).limit(1).all().length > 0
  const queuedTotal = outboxInUse ? db.select({ n: count() }).from(webhookOutbox).where(queuedCond).get()!.n : 0
  const queued: ListedDelivery[] =
    offset < queuedTotal
      ? db
          .select()
          .from(webhookOutbox)
          .where(queuedCond)
          .orderBy(desc(webhookOutbox.seq))
          .limit(limit)
          .offset(offset)
          .all()
          .map((r) => ({
            id: deliveryIdOf(r),
            webhookId: r.webhookId,
            eventType: r.eventType as DeliveryRow['eventType'],
            status: 'pending',
            attempts: 0,
            attemptsTotal: 0,
            lastResponseCode: null,
            lastLatencyMs: null,
            lastError: null,
            nextAttemptAt: r.createdAt,
            deliveredAt: null,
            createdAt: r.createdAt,
            updatedAt: r.createdAt,
          }))
      : []
  const where: SQL[] = [eq(webhookDeliveries.webhookId, webhookId)]
  if (status) where.push(eq(webhookDeliveries.status, status))
  const cond = and(...where)
  const logged =
    queued.length < limit
      ? db
          .select()
          .from(webhookDeliveries)
          .where(cond)
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(limit - queued.length)
          .offset(Math.max(0, offset - queuedTotal))
          .all()
      : []
  const total = queuedTotal + db.select({ n: count() }).from(webhookDeliveries).where(cond).get()!.n
  return { rows: [...queued, ...logged], total }
}
