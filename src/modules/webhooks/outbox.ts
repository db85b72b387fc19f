/**
 * The transactional outbox. A change that causes an event calls `ctx.emit` inside its own
 * transaction, which appends the rows here, so they commit (or roll back) with the change
 * itself; after commit the write helper (kernel/write.ts) wakes the dispatcher.
 *
 * Two tables, because of what an insert costs (docs/decisions/003): a delivery-log row has a
 * random key and three indexes, so the writer's transaction appends to `webhook_outbox` instead
 * (integer key: an append touches the last page), and `moveOutbox` turns those rows into
 * delivery rows later, in the dispatcher's own transaction (exactly once: the move deletes what
 * it copies), before their first attempt.
 */
import type { Database } from 'bun:sqlite'
import type { WebhookEvent } from '../../db/schema'
import type { EventMap, EventType } from '../../kernel/events'
import { iso } from '../../lib/time'
import { deliveryIdOf } from './delivery-id'
import { EVENTS } from './catalogue'
import { outboxStatements, type OutboxRow } from './sql'

/** Standard Webhooks payload: `{ type, event, timestamp, storeId, data }` (`event` repeats `type`). */
export function eventPayload(type: WebhookEvent, data: unknown, at: number, storeId: string): string {
  return JSON.stringify({ type, event: type, timestamp: iso(at), storeId, data })
}

/**
 * A step inside the caller's write (the kernel's `AppendEvent`, handed to every `Ctx`):
 * appends one outbox row per active endpoint of the store subscribed to `type`; returns how
 * many. `client` is the connection whose transaction is open (`db.$client`; a Drizzle `tx` runs
 * on it too): cached raw statements (docs/decisions/001). A deferred event (events.ts) stores its subject's
 * id, not a body. An event outside the catalogue (`stock.low`, for the push queue only) appends nothing here.
 */
export function appendEventTx<E extends EventType>(
  client: Database,
  storeId: string,
  type: E,
  data: EventMap[E],
  now: number,
): number {
  if (!Object.hasOwn(EVENTS, type)) return 0
  const event = type as WebhookEvent
  const deferred = EVENTS[event].deferred as { subject: (d: unknown) => string } | undefined
  if (deferred) return outboxStatements(client).append.run(storeId, event, null, deferred.subject(data), now).changes
  return enqueueEvent(client, storeId, event, data, now)
}

/** Appends rows whose body is `data`, rendered now. The body is only serialized when some endpoint wants the event. */
export function enqueueEvent(
  client: Database,
  storeId: string,
  type: WebhookEvent,
  data: unknown,
  now: number,
): number {
  const s = outboxStatements(client)
  if (s.anySubscriber.all(storeId, type).length === 0) return 0
  return s.append.run(storeId, type, eventPayload(type, data, now, storeId), null, now).changes
}

/** The body of an outbox row whose payload is rendered at the move. */
function renderPayload(client: Database, r: OutboxRow): string {
  // A deferred subject gone by now (a deleted store takes its outbox rows with it) is defensive.
  const deferred = EVENTS[r.eventType].deferred
  const data = (deferred && r.subjectId !== null && deferred.render(client, r.subjectId)) || { id: r.subjectId }
  return eventPayload(r.eventType, data, r.createdAt, r.storeId)
}

/** A delivery row made by a move: claimed (`lock` set, status `sending`) or pending. */
export interface Moved {
  id: string
  webhookId: string
  payload: string
  lock: number | null
}

/**
 * Inside the caller's write transaction: moves the `limit` oldest outbox rows into
 * `webhook_deliveries` (each gets its id from its outbox row, delivery-id.ts; also its `webhook-id`) and deletes them
 * from the outbox. `claim(webhookId)` may return a lock expiry for a row that is to be sent at
 * once: it is inserted already claimed (`sending`), which saves the claim's own UPDATE; the
 * others are inserted `pending`.
 */
export function moveOutbox(client: Database, limit: number, claim?: (webhookId: string) => number | null): Moved[] {
  const s = outboxStatements(client)
  const rows = s.oldest.all(limit)
  if (rows.length === 0) return []
  const out = rows.map((r): Moved => {
    const lock = claim?.(r.webhookId) ?? null
    const id = deliveryIdOf(r)
    const payload = r.payload ?? renderPayload(client, r)
    s.insertDelivery.run(
      id,
      r.webhookId,
      r.storeId,
      r.eventType,
      payload,
      r.createdAt,
      lock === null ? 'pending' : 'sending',
      lock,
    )
    return { id, webhookId: r.webhookId, payload, lock }
  })
  // The rows read are the oldest `limit`, and the write transaction keeps others out: deleting
  // up to the last one read deletes exactly them.
  s.deleteUpTo.run(rows[rows.length - 1]!.seq)
  return out
}

/** Inside the caller's write transaction: moves the whole outbox. */
export function moveAll(client: Database): void {
  while (moveOutbox(client, 1000).length > 0);
}
