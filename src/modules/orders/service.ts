/** The orders API: list, get, status change. The list's SQL is in sql/. */
import { and, eq } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { orders, type Order, type OrderStatus } from '../../db/schema'
import { iso } from '../../lib/time'
import { isoParam, page } from '../shared'
import { owned } from '../shared'
import { write } from '../../kernel/write'
import type { OrderListQuery } from './model'
import { assertTransition, InvalidTransition } from './status'
import { trackingOf } from './tracking'
import { restoreStock } from './stock'
import { countMatching, countOrders, itemsOf, orderById, pageOfOrderIds, pageOfOrders, type OrderFilter } from './sql'
import type { Fragments } from '../../db/fragments'
import type { CachedBody, StoreCache } from '../../db/cache'
import { orderFragments } from './fragments'
import { listViews, orderDetailView } from './views'

export function listOrders({ ctx, input: q }: { ctx: Ctx; input: OrderListQuery }) {
  const { limit, offset } = page(q)
  const f = orderFilter(ctx, q)
  return { data: listViews(ctx.db, pageOfOrders(ctx.db, f, limit, offset)), total: totalOf(ctx, f), limit, offset }
}

/**
 * `JSON.stringify(listOrders(…))`, from the page's ids, the count and the orders' cached list
 * forms (fragments.ts): after a checkout only the new order's form is built.
 */
export function listOrdersJson({
  ctx,
  input: q,
  cache,
}: {
  ctx: Ctx
  input: OrderListQuery
  cache: Fragments
}): string {
  const { limit, offset } = page(q)
  const f = orderFilter(ctx, q)
  const data = orderFragments(ctx.db.$client, ctx.store.id, pageOfOrderIds(ctx.db, f, limit, offset), cache)
  return `{"data":[${data.join(',')}],"total":${totalOf(ctx, f)},"limit":${limit},"offset":${offset}}`
}

/**
 * The order list's body, served from the store's cache until a write to the store drops it
 * (any checkout, status move, note or other write does: db/cache.ts); built again, it reuses the
 * orders' list forms. `input.route` is the request's `routeKey` (db/cache.ts): a hit is served by
 * the pipeline before routing. Kept, it saves the page's two statements (docs/decisions/029).
 */
export function orderListBody({
  ctx,
  input,
  cache,
}: {
  ctx: Ctx
  input: { query: OrderListQuery; route: string }
  cache: StoreCache
}): CachedBody {
  return cache.body(ctx.store.id, input.route, () =>
    listOrdersJson({ ctx, input: input.query, cache: cache.orderFragments }),
  )
}

const orderFilter = (ctx: Ctx, q: OrderListQuery): OrderFilter => ({
  storeId: ctx.store.id,
  status: q.status,
  createdSince: isoParam(q.createdSince, 'createdSince'),
  updatedSince: isoParam(q.updatedSince, 'updatedSince'),
})

// Time filters can't use the counters; they narrow an indexed range, so counting it is bounded by the answer.
const totalOf = (ctx: Ctx, f: OrderFilter): number =>
  f.createdSince === undefined && f.updatedSince === undefined
    ? countOrders(ctx.db, ctx.store.id, f.status)
    : countMatching(ctx.db, f)

/**
 * The store's order: 404 when missing, 403 when another store's. A raw statement on the ctx's
 * connection (inside its write transaction when one is open there): Drizzle built and compiled
 * the 22-column select on every call, about half of the panel's order page (docs/decisions/029).
 */
export const ownOrder = (ctx: Ctx, id: string): Order => owned(ctx, orderById(ctx.db.$client, id), 'Order')

export function getOrder({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  const o = ownOrder(ctx, id)
  return orderDetailView(o, itemsOf(ctx.db.$client, [id]).get(id) ?? [])
}

/**
 * A status move as a compare-and-set inside BEGIN IMMEDIATE: of several identical
 * concurrent moves exactly one changes the row; the others see the new status and get 409.
 * The `order.updated` outbox row commits with the change, and so does a cancellation's stock.
 */
export function updateOrderStatus({
  ctx,
  input: { id, status: to, trackingNumber, trackingUrl },
}: {
  ctx: Ctx
  input: { id: string; status: OrderStatus; trackingNumber?: string; trackingUrl?: string }
}) {
  const tracking = trackingOf(to, trackingNumber, trackingUrl)
  const order = write(ctx, (tx, fx) => {
    const o = ownOrder(ctx, id)
    assertTransition(o.status, to)
    const now = ctx.clock.now()
    const res = tx
      .update(orders)
      .set({ status: to, updatedAt: now, ...tracking })
      .where(and(eq(orders.id, id), eq(orders.status, o.status)))
      .returning({ id: orders.id })
      .all()
    if (res.length !== 1) throw new InvalidTransition(o.status, to)
    fx.ordersChanged([id])
    fx.catalogStockOnly() // a cancellation's stock is all it changes of the catalog
    // A status move changes no product; a cancellation puts stock back (restoreStock names them).
    if (to === 'cancelled') restoreStock(ctx.db.$client, fx, id)
    else fx.productsChanged([])
    fx.emit('order.updated', {
      id,
      orderNumber: o.orderNumber,
      previousStatus: o.status,
      newStatus: to,
      updatedAt: iso(now),
    })
    return { ...o, status: to, updatedAt: now, ...tracking }
  })
  return orderDetailView(order, itemsOf(ctx.db.$client, [id]).get(id) ?? [])
}
