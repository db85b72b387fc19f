/**
 * The inbox's SQL (inbox.ts, seen.ts): a page of rows by a WHERE the verb chose (customer, status,
 * number, name rowids or LIKE), rows by id, the commit-ordered event log, an order's history with
 * who moved it, and the per-person "opened" marks.
 */
import type { Database } from 'bun:sqlite'
import type { OrderStatus } from '../../../db/schema'

export interface InboxRow {
  id: string
  orderNumber: string
  status: OrderStatus
  customerName: string
  customerPhone: string
  /** Minor units of `currency`. */
  total: number
  currency: string
  createdAt: number
  isNew: boolean
  /** Its lines as the row shows them ("2 × House Blend"); filled by the inbox's verbs. */
  items: InboxItem[]
}

export interface InboxItem {
  quantity: number
  productName: string
  variantName: string | null
}

/**
 * The SQL of an inbox row's `isNew` for `o` (an orders alias) and its two parameters, in order:
 * since, user id. With no viewer no row is new (a `since` no order reaches).
 */
const IS_NEW =
  '(o.created_at >= ? AND NOT EXISTS (SELECT 1 FROM order_opened op WHERE op.order_id = o.id ' +
  'AND op.user_id = ?)) AS isNew'
const ROW =
  'o.id, o.order_number AS orderNumber, o.status, o.customer_name AS customerName, ' +
  `o.customer_phone AS customerPhone, o.total, o.currency, o.created_at AS createdAt, ${IS_NEW}`
export type NewParams = [since: number, userId: string]
type RawRow = Omit<InboxRow, 'items'> & { isNew: number | boolean }
const rowOf = (r: RawRow): InboxRow => ({ ...r, isNew: !!r.isNew, items: [] })

/** What narrows a page. `+` before a column keeps the planner off that column's index (see each use). */
export interface InboxWhere {
  storeId: string
  /** The customer a phone found: walks that customer's orders newest first (orders_customer_created_idx). */
  customerId?: string
  status?: OrderStatus
  orderNumber?: string
  /** At most a few hundred rowids from the trigram index (orderRowidsNamed). */
  rowids?: number[]
  /** A LIKE pattern on the customer's name, for names the index can't answer. */
  nameLike?: string
}

/** One page of the store's orders newest first, with the viewer's "new" marks. */
export function inboxRowsWhere(
  client: Database,
  w: InboxWhere,
  isNew: NewParams,
  limit: number,
  offset: number,
): InboxRow[] {
  const where: string[] = []
  const params: (string | number)[] = []
  if (w.customerId !== undefined) {
    // `+` keeps the planner on the customer's index rather than the store's.
    where.push('o.customer_id = ?', '+o.store_id = ?'), params.push(w.customerId, w.storeId)
    if (w.status) where.push('+o.status = ?'), params.push(w.status)
  } else {
    // With rowids, `+` keeps the planner off the store's created_at index: at most a few hundred rows by rowid.
    where.push(w.rowids ? '+o.store_id = ?' : 'o.store_id = ?'), params.push(w.storeId)
    if (w.status) where.push('o.status = ?'), params.push(w.status)
  }
  if (w.orderNumber) where.push('o.order_number = ?'), params.push(w.orderNumber)
  if (w.rowids) where.push('o.rowid IN (SELECT value FROM json_each(?))'), params.push(JSON.stringify(w.rowids))
  else if (w.nameLike !== undefined) where.push("o.customer_name LIKE ? ESCAPE '\\'"), params.push(w.nameLike)
  return client
    .query<RawRow, (string | number)[]>(
      `SELECT ${ROW} FROM orders o WHERE ${where.join(' AND ')} ORDER BY o.created_at DESC, o.rowid DESC ` +
        'LIMIT ? OFFSET ?',
    )
    .all(...isNew, ...params, limit, offset)
    .map(rowOf)
}

/** The inbox rows of these orders of the store. */
export function inboxRowsById(client: Database, storeId: string, ids: readonly string[], isNew: NewParams): InboxRow[] {
  return client
    .query<RawRow, [number, string, string, string]>(
      // `+` keeps the planner on the ids' primary key: without it
      // SQLite walks the store's orders (store_id index) and filters.
      `SELECT ${ROW} FROM orders o WHERE +o.store_id = ? AND o.id IN (SELECT value FROM json_each(?))`,
    )
    .all(...isNew, storeId, JSON.stringify(ids))
    .map(rowOf)
}

export const customerIdByPhone = (client: Database, storeId: string, phone: string): string | undefined =>
  client
    .query<{ id: string }, [string, string]>('SELECT id FROM customers WHERE store_id = ? AND phone = ?')
    .get(storeId, phone)?.id

/** Rowids of the store's orders whose name contains `match` (an FTS5 trigram phrase), at most `limit`. */
export const orderRowidsNamed = (client: Database, storeId: string, match: string, limit: number): number[] =>
  client
    .query<{ r: number }, [string, string, number]>(
      'SELECT rowid AS r FROM order_names WHERE order_names MATCH ? AND store_id = ? LIMIT ?',
    )
    .all(match, storeId, limit)
    .map((x) => x.r)

export interface OrderEventRow {
  id: number
  storeId: string
  orderId: string
  status: OrderStatus
  previous: OrderStatus | null
}

const EVENT = 'id, store_id AS storeId, order_id AS orderId, status, previous'

/** Events of every store after `after`, in commit order (the live inbox's one cursor). */
export const orderEventsAfter = (client: Database, after: number, limit = 1000): OrderEventRow[] =>
  client
    .query<OrderEventRow, [number, number]>(`SELECT ${EVENT} FROM order_events WHERE id > ? ORDER BY id LIMIT ?`)
    .all(after, limit)

/** One store's events after `after` (a stream resuming from its Last-Event-ID). */
export const storeOrderEventsAfter = (client: Database, storeId: string, after: number, limit = 500): OrderEventRow[] =>
  client
    .query<OrderEventRow, [string, number, number]>(
      `SELECT ${EVENT} FROM order_events WHERE store_id = ? AND id > ? ORDER BY id LIMIT ?`,
    )
    .all(storeId, after, limit)

/** The newest event id (0 when none). */
export const lastOrderEventId = (client: Database): number =>
  client.query<{ n: number | null }, []>('SELECT max(id) AS n FROM order_events').get()!.n ?? 0

export interface HistoryLine {
  status: OrderStatus
  previous: OrderStatus | null
  at: number
  /** `user:<id>`, `key:<prefix>`, `cli`, `system`; null: the customer (creation) or not recorded. */
  actor: string | null
  /** The person's name or e-mail when the actor is a user of the panel. */
  person: string | null
}

/**
 * The order's status history, oldest first (found by the order's rowid, schema/order-events.ts), with who made each
 * move: the first activity line naming the order written in the move's transaction (write() records it there, a moment
 * after the move's own clock reading, hence the window).
 */
export const historyOf = (client: Database, storeId: string, orderId: string): HistoryLine[] =>
  client
    .query<HistoryLine, [string, string]>(
      `SELECT e.status, e.previous, e.at, a.actor, coalesce(nullif(u.name, ''), u.email) AS person
         FROM order_events e
         LEFT JOIN activity a ON a.seq = (SELECT seq FROM activity WHERE store_id = e.store_id AND at BETWEEN e.at
         AND e.at + 1000 AND record_id = e.order_id ORDER BY at, seq LIMIT 1)
         LEFT JOIN users u ON a.actor = 'user:' || u.id
        WHERE e.order_rowid = (SELECT rowid FROM orders WHERE id = ?1) AND e.order_id = ?1 AND e.store_id = ?2
        ORDER BY e.id`,
    )
    .all(orderId, storeId)

// ── Per-person "opened" marks (seen.ts) ──────────────────────────────────────────

/** When the person joined the store (ms), or undefined when they are not a member. */
export const memberSinceOf = (client: Database, storeId: string, userId: string): number | undefined =>
  client
    .query<{ at: number }, [string, string]>(
      'SELECT created_at AS at FROM memberships WHERE store_id = ? AND user_id = ?',
    )
    .get(storeId, userId)?.at

/** Who opened which of these orders: (order id, user id) pairs. */
export const openedPairs = (client: Database, orderIds: readonly string[]): { o: string; u: string }[] =>
  client
    .query<{ o: string; u: string }, [string]>(
      'SELECT order_id AS o, user_id AS u FROM order_opened WHERE order_id IN (SELECT value FROM json_each(?))',
    )
    .all(JSON.stringify(orderIds))

/** Whether the person's mark of the order is there already (a read: no transaction, no commit). */
export const isOpened = (client: Database, orderId: string, userId: string): boolean =>
  client
    .query<{ x: number }, [string, string]>('SELECT 1 AS x FROM order_opened WHERE order_id = ? AND user_id = ?')
    .get(orderId, userId) !== null

/**
 * Marks the store's order opened by the person (only an order
 * created since `since`), and drops their marks older than that.
 */
export function markOpened(client: Database, storeId: string, orderId: string, userId: string, since: number): void {
  client.run(
    'INSERT OR IGNORE INTO order_opened (order_id, user_id, store_id, order_created_at) ' +
      'SELECT id, ?, store_id, created_at FROM orders WHERE id = ? AND store_id = ? AND created_at >= ?',
    [userId, orderId, storeId, since],
  )
  client.run('DELETE FROM order_opened WHERE user_id = ? AND order_created_at < ?', [userId, since])
}

/**
 * How many of the store's orders created since `since` the person has not opened, counting at most
 * `cap` of them: the count walks the store's created_at index from `since`, so the cap bounds the
 * work on a store that takes many orders and a person who opens few.
 */
export const countUnopened = (client: Database, storeId: string, since: number, userId: string, cap: number): number =>
  client
    .query<{ n: number }, [string, number, string, number]>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM orders o WHERE o.store_id = ? AND o.created_at >= ?
        AND NOT EXISTS (SELECT 1 FROM order_opened op WHERE op.order_id = o.id AND op.user_id = ?) LIMIT ?)`,
    )
    .get(storeId, since, userId, cap)!.n
