/** The customer's status page, the team's notes, and what the jobs forget or expire: their SQL. */
import type { Database } from 'bun:sqlite'
import type { OrderStatus } from '../../../db/schema'

/** The order a status token names within a store. */
export const orderIdByToken = (client: Database, storeId: string, token: string): string | undefined =>
  client
    .query<{ orderId: string }, [string, string]>(
      'SELECT id AS orderId FROM orders WHERE status_token = ? AND store_id = ?',
    )
    .get(token, storeId)?.orderId

/** The order's status token (the panel puts the page's link in its WhatsApp message). */
export const statusTokenOf = (client: Database, orderId: string): string | undefined =>
  client.query<{ token: string | null }, [string]>('SELECT status_token AS token FROM orders WHERE id = ?').get(orderId)
    ?.token ?? undefined

/** The order's status moves, oldest first (found by the order's rowid, schema/order-events.ts). */
export const timelineOf = (client: Database, orderId: string): { status: OrderStatus; at: number }[] =>
  client
    .query<{ status: OrderStatus; at: number }, [string]>(
      'SELECT status, at FROM order_events WHERE order_rowid = (SELECT rowid FROM orders WHERE id = ?1) ' +
        'AND order_id = ?1 ORDER BY id',
    )
    .all(orderId)

export interface NoteLine {
  body: string
  createdAt: number
  /** The author's name or e-mail when a person of the panel wrote it. */
  person: string | null
}

/** The order's notes, oldest first. */
export const notesOfOrder = (client: Database, storeId: string, orderId: string): NoteLine[] =>
  client
    .query<NoteLine, [string, string]>(
      `SELECT n.body, n.created_at AS createdAt, coalesce(nullif(u.name, ''), u.email) AS person
         FROM order_notes n LEFT JOIN users u ON n.author = 'user:' || u.id
        WHERE n.order_id = ? AND n.store_id = ? ORDER BY n.id`,
    )
    .all(orderId, storeId)

/** Forgets idempotency keys created before `before`. */
export const deleteIdempotencyKeysBefore = (client: Database, before: number): void => {
  client.run('DELETE FROM idempotency_keys WHERE created_at < ?', [before])
}

/** Stores that expire pending orders, with their time to live in hours. */
export const storesExpiringOrders = (client: Database): { id: string; ttl: number }[] =>
  client
    .query<{ id: string; ttl: number }, []>(
      'SELECT id, pending_order_ttl_hours AS ttl FROM stores WHERE pending_order_ttl_hours > 0',
    )
    .all()

/** Up to `limit` of the store's pending orders created at or before `before`, oldest first. */
export const pendingOrdersBefore = (client: Database, storeId: string, before: number, limit: number): string[] =>
  client
    .query<{ id: string }, [string, number, number]>(
      "SELECT id FROM orders WHERE store_id = ? AND status = 'pending' AND created_at <= ? ORDER BY created_at LIMIT ?",
    )
    .all(storeId, before, limit)
    .map((r) => r.id)
