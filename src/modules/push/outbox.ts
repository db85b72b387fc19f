/**
 * The push queue's two ends inside transactions. `appendOrderPushTx` runs in the order's own
 * transaction (any path that creates an order emits `order.created`; deps.ts binds it beside
 * the webhook outbox's append): one small row, and only when some person of the store has a
 * device that wants new orders. `fanOut` runs later in the dispatcher's transaction: one
 * delivery per device of each person whose role there reads orders, rendered in the person's
 * words, and the outbox rows deleted (exactly once, as the webhook outbox's move).
 */
import type { Database } from 'bun:sqlite'
import { roleHas } from '../people'
import { orderMessage } from './message'
import { pushStatements } from './sql'

/** A pushed message is news for a day; the push service is told the same (TTL). */
export const PUSH_TTL_SECONDS = 86_400

export function appendOrderPushTx(client: Database, storeId: string, orderId: string, now: number): number {
  const s = pushStatements(client)
  if (!s.anyRecipient.get(storeId)) return 0
  return s.append.run(storeId, orderId, now).changes
}

/** Inside the caller's write transaction: turns up to `limit` outbox rows into deliveries; returns how many rows it read. */
export function fanOut(client: Database, limit: number, now: number): number {
  const s = pushStatements(client)
  const rows = s.oldest.all(limit)
  if (rows.length === 0) return 0
  for (const row of rows) {
    const order = s.order.get(row.orderId)
    // An order gone by now (its store deleted) has nobody to tell.
    if (!order) continue
    for (const r of s.recipients.all(row.storeId)) {
      if (!roleHas(r.role, 'orders:read')) continue
      const payload = JSON.stringify(orderMessage(order, r.language))
      s.insertDelivery.run(
        r.subscriptionId,
        r.userId,
        row.storeId,
        payload,
        now,
        row.createdAt + PUSH_TTL_SECONDS * 1000,
      )
    }
  }
  s.deleteOutboxUpTo.run(rows[rows.length - 1]!.seq)
  return rows.length
}
