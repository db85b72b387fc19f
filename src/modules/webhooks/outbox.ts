/**
 * The transactional outbox. A change that causes an event calls `enqueueEvent` inside its own
 * transaction, so the delivery rows commit (or roll back) with the change itself; after commit
 * the caller calls `deps.onOutbox(storeId)` so delivery starts at once (webhooks/dispatcher).
 */
import { and, eq, sql } from 'drizzle-orm'
import { createId } from '../../lib/cuid'
import type { Db } from '../../db/client'
import { webhookDeliveries, webhooks, type WebhookEvent } from '../../db/schema'
import { iso } from '../../lib/time'

/** Standard Webhooks payload: `{ type, event, timestamp, data }` (`event` repeats `type`). */
export function eventPayload(type: WebhookEvent, data: unknown, at: number): string {
  return JSON.stringify({ type, event: type, timestamp: iso(at), data })
}

/** Prepared once per connection handle: this runs inside every order transaction. */
const endpointsStmt = new WeakMap<Db, { all(p: { storeId: string }): { id: string; events: string }[] }>()

/** Writes one pending delivery per active endpoint of the store subscribed to `type`. Returns how many. */
export function enqueueEvent(tx: Db, storeId: string, type: WebhookEvent, data: unknown, now: number): number {
  let stmt = endpointsStmt.get(tx)
  if (!stmt) {
    stmt = tx
      .select({ id: webhooks.id, events: webhooks.events })
      .from(webhooks)
      .where(and(eq(webhooks.storeId, sql.placeholder('storeId')), eq(webhooks.isActive, true)))
      .prepare()
    endpointsStmt.set(tx, stmt)
  }
  const endpoints = stmt.all({ storeId }).filter((w) => (JSON.parse(w.events) as string[]).includes(type))
  if (endpoints.length === 0) return 0
  const payload = eventPayload(type, data, now)
  tx.insert(webhookDeliveries)
    .values(
      endpoints.map((w) => ({
        id: `msg_${createId()}`,
        webhookId: w.id,
        storeId,
        eventType: type,
        payload,
        status: 'pending' as const,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .run()
  return endpoints.length
}
