/**
 * The push queue's two ends inside transactions. The appends run in the triggering write's own
 * transaction — a new order, a review submitted, an order taking an item to the low-stock mark
 * (all through the events those writes emit; deps.ts binds them beside the webhook outbox's
 * append), an endpoint the webhook dispatcher disables — one small row each, and only when some
 * person of the store has a device that wants that kind. `fanOut` runs later in the dispatcher's
 * transaction: one delivery per device of each person whose role there allows the kind (alerts.ts),
 * rendered in the person's words, and the outbox rows deleted (exactly once, as the webhook outbox's move).
 */
import type { Database } from 'bun:sqlite'
import { LOW_STOCK } from '../products'
import { roleHas } from '../people'
import { GRANT_OF } from './alerts'
import { alertStatements } from './sql/alerts'
import { lowStockMessage, orderMessage, type PushMessage, reviewMessage, webhookDisabledMessage } from './message'
import { type OutboxRow, type PushKind, pushStatements } from './sql/queue'

/** A pushed message is news for a day; the push service is told the same (TTL). */
export const PUSH_TTL_SECONDS = 86_400

function appendTx(
  client: Database,
  storeId: string,
  kind: PushKind,
  subjectId: string,
  detail: string | null,
  now: number,
): number {
  const s = pushStatements(client)
  if (!s.anyRecipient.get(storeId, kind)) return 0
  return s.append.run(storeId, kind, subjectId, detail, now).changes
}

/**
 * A new order: its push, and one for each tracked item it took to the low-stock mark. Both kinds'
 * wishes come from one look-up: it is the only push work an order of a store without devices does.
 */
export function appendOrderPushTx(client: Database, storeId: string, orderId: string, now: number): number {
  const s = pushStatements(client)
  const wants = s.orderWants.get(storeId)! // an aggregate: always one row
  let n = wants.orders === 1 ? s.append.run(storeId, 'order', orderId, null, now).changes : 0
  if (wants.lowStock === 1)
    for (const c of alertStatements(client).crossings.all(orderId, LOW_STOCK))
      n += s.append.run(storeId, 'low-stock', c.productId, c.variantId, now).changes
  return n
}

/** A stock edit took this item (the product, or its variant) to the low-stock mark. */
export function appendLowStockPushTx(
  client: Database,
  storeId: string,
  productId: string,
  variantId: string | null,
  now: number,
): number {
  return appendTx(client, storeId, 'low-stock', productId, variantId, now)
}

/** A review submitted and waiting for moderation. */
export function appendReviewPushTx(client: Database, storeId: string, reviewId: string, now: number): number {
  return appendTx(client, storeId, 'review', reviewId, null, now)
}

/** The webhook dispatcher disabled this endpoint (in its transaction that disabled it). */
export function appendWebhookDisabledPushTx(client: Database, webhookId: string, now: number): number {
  const storeId = alertStatements(client).webhookStore.get(webhookId)?.storeId
  return storeId ? appendTx(client, storeId, 'webhook-disabled', webhookId, null, now) : 0
}

/** The message a row announces, in `language` (null: the store's), or null when its subject is gone. */
function messageOf(client: Database, row: OutboxRow): ((language: string | null) => PushMessage) | null {
  if (row.kind === 'order') {
    const o = pushStatements(client).order.get(row.orderId)
    return o ? (l) => orderMessage(o, l) : null
  }
  const a = alertStatements(client)
  if (row.kind === 'review') {
    const r = a.review.get(row.orderId)
    return r ? (l) => reviewMessage(r, l) : null
  }
  if (row.kind === 'low-stock') {
    const f = a.stock.get(row.orderId, row.detail)
    return f ? (l) => lowStockMessage(f, l) : null
  }
  const w = a.webhook.get(row.orderId)
  return w ? (l) => webhookDisabledMessage(w, l) : null
}

/**
 * Inside the caller's write transaction: turns up to `limit`
 * outbox rows into deliveries; returns how many rows it read.
 */
export function fanOut(client: Database, limit: number, now: number): number {
  const s = pushStatements(client)
  const rows = s.oldest.all(limit)
  if (rows.length === 0) return 0
  for (const row of rows) {
    // A subject gone by now (its store deleted, a review already moderated, an endpoint on again) has nothing to tell.
    const message = messageOf(client, row)
    const grant = GRANT_OF[row.kind]
    if (!message || !grant) continue
    for (const r of s.recipients.all(row.storeId, row.kind)) {
      if (!roleHas(r.role, grant)) continue
      const payload = JSON.stringify(message(r.language))
      s.insertDelivery.run(
        r.subscriptionId,
        r.userId,
        row.storeId,
        payload,
        now,
        row.createdAt + PUSH_TTL_SECONDS * 1000,
        grant,
      )
    }
  }
  s.deleteOutboxUpTo.run(rows[rows.length - 1]!.seq)
  return rows.length
}
