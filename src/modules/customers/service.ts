/**
 * Customers: one per (store, E.164 phone), created and kept current by the checkout
 * (orders/checkout/). Read-only through the API.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { customers, type Customer } from '../../db/schema'
import { toMajor } from '../../lib/money'
import { iso, isoOrNull } from '../../lib/time'
import { containsPattern, page, sinceFilters } from '../shared'
import { owned } from '../shared'
import { customerOrderFragments, customerOrders } from '../orders'
import type { Fragments } from '../../db/fragments'
import type { CachedBody, StoreCache } from '../../db/cache'
import { customerById } from './sql'
import type { CustomerGetQuery, CustomerListQuery } from './model'

export function customerView(c: Customer, currency: string) {
  return {
    id: c.id,
    name: c.name,
    phone: c.phone,
    address: c.address,
    ordersCount: c.ordersCount,
    totalSpent: toMajor(c.totalSpent, currency),
    firstOrderAt: isoOrNull(c.firstOrderAt),
    lastOrderAt: isoOrNull(c.lastOrderAt),
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  }
}

export function listCustomers({ ctx, input: q }: { ctx: Ctx; input: CustomerListQuery }) {
  const { limit, offset } = page(q)
  const where: SQL[] = [eq(customers.storeId, ctx.store.id), ...sinceFilters(q, customers)]
  if (q.q) {
    // A scan of the store's customers: fine for the sizes a store has; no index serves substrings.
    const p = containsPattern(q.q)
    where.push(sql`(lower(${customers.name}) LIKE ${p} ESCAPE '\\' OR ${customers.phone} LIKE ${p} ESCAPE '\\')`)
  }
  const cond = and(...where)
  const rows = ctx.db
    .select()
    .from(customers)
    .where(cond)
    .orderBy(desc(customers.createdAt), desc(sql`${customers}.rowid`))
    .limit(limit)
    .offset(offset)
    .all()
  const total = ctx.db.select({ n: sql<number>`count(*)` }).from(customers).where(cond).get()!.n
  return { data: rows.map((c) => customerView(c, ctx.store.currency)), total, limit, offset }
}

/** The store's customer: 404 when missing, 403 when another store's. */
export const ownCustomer = (ctx: Ctx, id: string): Customer => owned(ctx, customerById(ctx.db.$client, id), 'Customer')

/** The customer with one page of their orders (list form, newest first); ordersCount is the total. */
export function getCustomer({ ctx, input: { id, ...q } }: { ctx: Ctx; input: { id: string } & CustomerGetQuery }) {
  const c = ownCustomer(ctx, id)
  const page = { customerId: c.id, limit: q.ordersLimit ?? 50, offset: q.ordersOffset ?? 0 }
  return { ...customerView(c, ctx.store.currency), orders: customerOrders({ ctx, input: page }) }
}

/**
 * `JSON.stringify({ data: getCustomer(…) })`, the orders from their cached list forms
 * (orders/fragments.ts): the customer row and the page's ids are read, the orders' views reused.
 */
export function customerJson({
  ctx,
  input: { id, ...q },
  cache,
}: {
  ctx: Ctx
  input: { id: string } & CustomerGetQuery
  cache: Fragments
}): string {
  const c = ownCustomer(ctx, id)
  const page = { customerId: c.id, limit: q.ordersLimit ?? 50, offset: q.ordersOffset ?? 0 }
  const head = JSON.stringify(customerView(c, ctx.store.currency))
  return `{"data":${head.slice(0, -1)},"orders":[${customerOrderFragments({ ctx, input: page, cache }).join(',')}]}}`
}

/**
 * The customer detail's body, served from the store's cache under the request's `routeKey` until a
 * write to the store drops it (any checkout does, so a new order of theirs shows at once); a
 * missing or another store's customer throws before anything is kept (docs/decisions/029).
 */
export function customerBody({
  ctx,
  input,
  cache,
}: {
  ctx: Ctx
  input: { query: { id: string } & CustomerGetQuery; route: string }
  cache: StoreCache
}): CachedBody {
  return cache.body(ctx.store.id, input.route, () =>
    customerJson({ ctx, input: input.query, cache: cache.orderFragments }),
  )
}
