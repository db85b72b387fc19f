/**
 * The orders API: list, get, status change. Lists page through (store_id, created_at) indexes
 * with a covering rowid scan and read the full rows of the page only, so a deep offset over a
 * million orders skips index entries instead of table rows; `total` comes from the
 * `order_counts` counters kept by the writes (see schema/commerce.ts).
 */
import { and, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../context'
import type { Db } from '../../db/client'
import { orderCounts, orders, type Order, type OrderStatus } from '../../db/schema'
import { NotFound, OtherStore } from '../../lib/errors'
import { iso } from '../../lib/time'
import { enqueueEvent } from '../webhooks/outbox'
import { page, sinceFilters } from '../shared/query'
import { write } from '../shared/write'
import type { OrderListQuery } from './model'
import { assertTransition, InvalidTransition } from './status'
import { itemsOf, listViews, orderDetailView } from './views'

const rowid = sql<number>`${orders}.rowid`

/**
 * Rows matching `cond`, newest first (ties by insertion order), one page. Step one walks an
 * index that covers (store_id[, status], created_at, rowid) — no table reads for skipped rows.
 */
export function pageOfOrders(db: Db, cond: SQL | undefined, limit: number, offset: number): Order[] {
  const rids = db.select({ rid: rowid }).from(orders).where(cond).orderBy(desc(orders.createdAt), desc(rowid)).limit(limit).offset(offset).all().map((r) => r.rid)
  if (rids.length === 0) return []
  const rows = db.select({ ...getTableColumns(orders), rid: rowid }).from(orders).where(inArray(rowid, rids)).all()
  const byRid = new Map(rows.map(({ rid, ...o }) => [rid, o as Order]))
  return rids.map((r) => byRid.get(r)!).filter(Boolean)
}

/** Orders of the store (optionally in one status) from the counters: one primary-key read. */
export function countOrders(db: Db, storeId: string, status?: OrderStatus): number {
  const where = status ? and(eq(orderCounts.storeId, storeId), eq(orderCounts.status, status)) : eq(orderCounts.storeId, storeId)
  return db.select({ n: sql<number>`coalesce(sum(${orderCounts.count}), 0)` }).from(orderCounts).where(where).get()!.n
}

export function listOrders(ctx: Ctx, q: OrderListQuery) {
  const { limit, offset } = page(q)
  const since = sinceFilters(q, orders)
  const where: SQL[] = [eq(orders.storeId, ctx.store.id), ...since]
  if (q.status) where.push(eq(orders.status, q.status))
  const cond = and(...where)
  const rows = pageOfOrders(ctx.db, cond, limit, offset)
  // Time filters can't use the counters; they narrow the range, so counting it is bounded by the answer.
  const total = since.length ? ctx.db.select({ n: sql<number>`count(*)` }).from(orders).where(cond).get()!.n : countOrders(ctx.db, ctx.store.id, q.status)
  return { data: listViews(ctx.db, rows), total, limit, offset }
}

/** The store's order: 404 when missing, 403 when another store's. */
export function ownOrder(ctx: Ctx, id: string, db: Db = ctx.db): Order {
  const row = db.select().from(orders).where(eq(orders.id, id)).get()
  if (!row) throw new NotFound('Order')
  if (row.storeId !== ctx.store.id) throw new OtherStore('order')
  return row
}

export function getOrder(ctx: Ctx, id: string) {
  const o = ownOrder(ctx, id)
  return orderDetailView(o, itemsOf(ctx.db, [id]).get(id) ?? [])
}

function bumpCount(tx: Db, storeId: string, status: OrderStatus, by: number): void {
  tx.insert(orderCounts)
    .values({ storeId, status, count: by })
    .onConflictDoUpdate({ target: [orderCounts.storeId, orderCounts.status], set: { count: sql`${orderCounts.count} + ${by}` } })
    .run()
}

/**
 * A status move (spec 3.1) as a compare-and-set inside BEGIN IMMEDIATE: of several identical
 * concurrent moves exactly one changes the row; the others see the new status and get 409.
 * The `order.updated` outbox row commits with the change.
 */
export function updateOrderStatus(ctx: Ctx, id: string, to: OrderStatus) {
  let outbox = 0
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
    bumpCount(tx, ctx.store.id, o.status, -1)
    bumpCount(tx, ctx.store.id, to, 1)
    outbox = enqueueEvent(tx, ctx.store.id, 'order.updated', { id, orderNumber: o.orderNumber, previousStatus: o.status, newStatus: to, updatedAt: iso(now) }, now)
    return { ...o, status: to, updatedAt: now }
  })
  if (outbox > 0) ctx.onOutbox(ctx.store.id)
  return orderDetailView(order, itemsOf(ctx.db, [id]).get(id) ?? [])
}
