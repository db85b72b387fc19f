/**
 * The orders module's read SQL, as raw bun:sqlite statements: Drizzle's per-call query building
 * and compiling cost more than these queries themselves (docs/decisions/001). Lists page
 * through (store_id, created_at) indexes with a covering rowid scan and read the full rows of
 * the page only, so a deep offset over a million orders skips index entries instead of table
 * rows; `total` comes from the `order_counts` counters (kept by triggers, drizzle/0009). Row
 * types are the schema's: `columns` names every column by its key.
 */
import type { Database } from 'bun:sqlite'
import { columns } from '../../../db/sql'
import type { Db } from '../../../db/client'
import { orderItems, orders, type Order, type OrderItem, type OrderStatus } from '../../../db/schema'

const ORDER_FIELDS = columns(orders)
const ITEM_FIELDS = columns(orderItems)

/**
 * The list form's columns only: bun:sqlite's cost is mostly building row objects,
 * so a page of 50 orders with 9 columns instead of 22 (and items with 6 of 12) is ~half the CPU.
 */
const LIST_ORDER_KEYS = [
  'id',
  'orderNumber',
  'status',
  'customerName',
  'customerPhone',
  'total',
  'currency',
  'notes',
  'createdAt',
] as const
const LIST_ITEM_KEYS = ['orderId', 'productName', 'variantName', 'quantity', 'unitPrice', 'subtotal'] as const
export type ListOrder = Pick<Order, (typeof LIST_ORDER_KEYS)[number]>
export type ListItem = Pick<OrderItem, (typeof LIST_ITEM_KEYS)[number]>
const LIST_ORDER_FIELDS = columns(orders, LIST_ORDER_KEYS)
const LIST_ITEM_FIELDS = columns(orderItems, LIST_ITEM_KEYS)

export interface OrderFilter {
  storeId?: string
  customerId?: string
  status?: OrderStatus
  createdSince?: number
  updatedSince?: number
}

function whereOf(f: OrderFilter): { sql: string; params: (string | number)[] } {
  const parts: string[] = []
  const params: (string | number)[] = []
  if (f.storeId !== undefined) parts.push('store_id = ?'), params.push(f.storeId)
  if (f.customerId !== undefined) parts.push('customer_id = ?'), params.push(f.customerId)
  if (f.status !== undefined) parts.push('status = ?'), params.push(f.status)
  if (f.createdSince !== undefined) parts.push('created_at >= ?'), params.push(f.createdSince)
  if (f.updatedSince !== undefined) parts.push('updated_at >= ?'), params.push(f.updatedSince)
  return { sql: parts.length ? parts.join(' AND ') : '1', params }
}

/**
 * One page of orders, newest first (ties by insertion order). A deep page walks an index that
 * covers (store_id[, status] | customer_id, created_at, rowid) in a subquery, so skipping
 * 100,000 rows of an offset reads index entries only, and the outer query reads the page's rows;
 * a first page reads its rows straight from the index walk (the subquery, its rowid list and
 * re-sort cost ~30 µs of a ~300 µs list). The SQL text depends only on which filters are
 * present and on the path, so bun:sqlite's statement cache reuses it.
 */
export function pageOfOrders(db: Db, f: OrderFilter, limit: number, offset: number): ListOrder[] {
  const w = whereOf(f)
  const sql =
    offset <= SHALLOW_OFFSET
      ? `SELECT ${LIST_ORDER_FIELDS} FROM orders WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`
      : `SELECT ${LIST_ORDER_FIELDS} FROM orders WHERE rowid IN (
           SELECT rowid FROM orders WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?
         ) ORDER BY created_at DESC, rowid DESC`
  return db.$client.query<ListOrder, (string | number)[]>(sql).all(...w.params, limit, offset)
}
/**
 * The ids of one page of orders (pageOfOrders' order and paging): the list's cached fragments
 * (orders/fragments.ts) need only these, read as arrays, not row objects.
 */
export function pageOfOrderIds(db: Db, f: OrderFilter, limit: number, offset: number): string[] {
  const w = whereOf(f)
  const sql =
    offset <= SHALLOW_OFFSET
      ? `SELECT id FROM orders WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`
      : `SELECT id FROM orders WHERE rowid IN (
           SELECT rowid FROM orders WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?
         ) ORDER BY created_at DESC, rowid DESC`
  return db.$client
    .query<[string], (string | number)[]>(sql)
    .values(...w.params, limit, offset)
    .map((r) => r[0] as string)
}

/**
 * The list form's rows of these orders, in no particular order.
 * The ids go in as one JSON array (a fixed statement text).
 */
export const listOrdersByIds = (client: Database, ids: string[]): ListOrder[] =>
  ids.length === 0
    ? []
    : client
        .query<ListOrder, [string]>(
          `SELECT ${LIST_ORDER_FIELDS} FROM orders WHERE id IN (SELECT value FROM json_each(?))`,
        )
        .all(JSON.stringify(ids))

/** Up to this offset, reading the skipped rows costs less than the covering subquery. */
const SHALLOW_OFFSET = 100

/** Orders of the store (optionally in one status) from the counters: one primary-key read. */
export function countOrders(db: Db, storeId: string, status?: OrderStatus): number {
  const q = status
    ? db.$client
        .query<{ n: number }, string[]>(
          'SELECT coalesce(sum(count), 0) AS n FROM order_counts WHERE store_id = ? AND status = ?',
        )
        .get(storeId, status)
    : db.$client
        .query<{ n: number }, string[]>('SELECT coalesce(sum(count), 0) AS n FROM order_counts WHERE store_id = ?')
        .get(storeId)
  return q!.n
}

/**
 * Orders matching a filter with a time bound, counted: the bound
 * narrows an indexed range, so this is bounded by the answer.
 */
export function countMatching(db: Db, f: OrderFilter): number {
  const w = whereOf(f)
  return db.$client
    .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM orders WHERE ${w.sql}`)
    .get(...w.params)!.n
}

export const orderById = (client: Database, id: string): Order | undefined =>
  client.query<Order, [string]>(`SELECT ${ORDER_FIELDS} FROM orders WHERE id = ?`).all(id)[0]

/**
 * The items of many orders in one query (order_items_order_idx), grouped by order. The ids go
 * in as one JSON array, so the statement text never changes and stays compiled.
 */
export function itemsOf(client: Database, orderIds: string[]): Map<string, OrderItem[]> {
  return itemRowsOf<OrderItem>(client, orderIds, ITEM_FIELDS)
}

/** itemsOf with the list form's columns only. */
export function listItemsOf(client: Database, orderIds: string[]): Map<string, ListItem[]> {
  return itemRowsOf<ListItem>(client, orderIds, LIST_ITEM_FIELDS)
}

function itemRowsOf<T extends { orderId: string }>(
  client: Database,
  orderIds: string[],
  fields: string,
): Map<string, T[]> {
  const out = new Map<string, T[]>()
  if (orderIds.length === 0) return out
  const rows = client
    .query<T, [string]>(
      `SELECT ${fields} FROM order_items WHERE order_id IN (SELECT value FROM json_each(?)) ` +
        'ORDER BY order_id, position',
    )
    .all(JSON.stringify(orderIds))
  for (const r of rows) {
    const list = out.get(r.orderId)
    if (list) list.push(r)
    else out.set(r.orderId, [r])
  }
  return out
}
