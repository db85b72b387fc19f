/**
 * The orders API: list, get, status change. Lists page through (store_id, created_at) indexes
 * with a covering rowid scan and read the full rows of the page only, so a deep offset over a
 * million orders skips index entries instead of table rows; `total` comes from the
 * `order_counts` counters, kept by triggers on `orders` (drizzle/0007). The list path uses
 * bun:sqlite's cached statements: Drizzle's per-call query building and compiling cost more
 * than the queries themselves.
 */
import { and, eq } from 'drizzle-orm'
import type { Ctx } from '../../context'
import { selectList, type Db, type Runner } from '../../db/client'
import { orders, type Order, type OrderStatus } from '../../db/schema'
import { iso } from '../../lib/time'
import { isoParam, page } from '../shared/query'
import { owned } from '../shared/owned'
import { write } from '../../db/write'
import type { OrderListQuery } from './model'
import { assertTransition, InvalidTransition } from './status'
import { itemsOf, listViews, orderDetailView } from './views'

export const ORDER_FIELDS = selectList(orders)

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
 * One page of orders, newest first (ties by insertion order). The inner query walks an index
 * that covers (store_id[, status] | customer_id, created_at, rowid): skipping 100,000 rows of
 * an offset reads index entries only; the outer one reads the 50 rows of the page. The SQL
 * text depends only on which filters are present, so bun:sqlite's statement cache reuses it.
 */
export function pageOfOrders(db: Db, f: OrderFilter, limit: number, offset: number): Order[] {
  const w = whereOf(f)
  return db.$client
    .query<Order, (string | number)[]>(
      `SELECT ${ORDER_FIELDS} FROM orders WHERE rowid IN (
         SELECT rowid FROM orders WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?
       ) ORDER BY created_at DESC, rowid DESC`,
    )
    .all(...w.params, limit, offset)
}

/** Orders of the store (optionally in one status) from the counters: one primary-key read. */
export function countOrders(db: Db, storeId: string, status?: OrderStatus): number {
  const q = status
    ? db.$client.query<{ n: number }, string[]>('SELECT coalesce(sum(count), 0) AS n FROM order_counts WHERE store_id = ? AND status = ?').get(storeId, status)
    : db.$client.query<{ n: number }, string[]>('SELECT coalesce(sum(count), 0) AS n FROM order_counts WHERE store_id = ?').get(storeId)
  return q!.n
}

export function listOrders(ctx: Ctx, q: OrderListQuery) {
  const { limit, offset } = page(q)
  const f: OrderFilter = {
    storeId: ctx.store.id,
    status: q.status,
    createdSince: isoParam(q.createdSince, 'createdSince'),
    updatedSince: isoParam(q.updatedSince, 'updatedSince'),
  }
  const rows = pageOfOrders(ctx.db, f, limit, offset)
  // Time filters can't use the counters; they narrow an indexed range, so counting it is bounded by the answer.
  let total: number
  if (f.createdSince === undefined && f.updatedSince === undefined) total = countOrders(ctx.db, ctx.store.id, q.status)
  else {
    const w = whereOf(f)
    total = ctx.db.$client.query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM orders WHERE ${w.sql}`).get(...w.params)!.n
  }
  return { data: listViews(ctx.db, rows), total, limit, offset }
}

/** The store's order: 404 when missing, 403 when another store's. */
export const ownOrder = (ctx: Ctx, id: string, db: Runner = ctx.db): Order => owned(ctx, db.select().from(orders).where(eq(orders.id, id)).get(), 'Order')

export function getOrder(ctx: Ctx, id: string) {
  const o = ownOrder(ctx, id)
  return orderDetailView(o, itemsOf(ctx.db.$client, [id]).get(id) ?? [])
}

/**
 * A status move (spec 3.1) as a compare-and-set inside BEGIN IMMEDIATE: of several identical
 * concurrent moves exactly one changes the row; the others see the new status and get 409.
 * The `order.updated` outbox row commits with the change.
 */
export function updateOrderStatus(ctx: Ctx, id: string, to: OrderStatus) {
  const order = write(ctx, (tx) => {
    const o = ownOrder(ctx, id, tx)
    assertTransition(o.status, to)
    const now = ctx.clock.now()
    const res = tx
      .update(orders)
      .set({ status: to, updatedAt: now })
      .where(and(eq(orders.id, id), eq(orders.status, o.status)))
      .returning({ id: orders.id })
      .all()
    if (res.length !== 1) throw new InvalidTransition(o.status, to)
    ctx.emit('order.updated', { id, orderNumber: o.orderNumber, previousStatus: o.status, newStatus: to, updatedAt: iso(now) })
    return { ...o, status: to, updatedAt: now }
  })
  return orderDetailView(order, itemsOf(ctx.db.$client, [id]).get(id) ?? [])
}
