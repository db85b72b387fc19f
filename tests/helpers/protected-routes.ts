/**
 * Every key-authenticated route, read from the routes' own `access` declarations (src/http/api-routes.ts).
 * tests/http/protected-routes.test.ts drives the 401, 402, 403 (scope, other store, plan) and 429
 * cases from this table, and fails if a registered /api/v1 route is missing from it.
 *
 * What a declaration can't say lives here, by route: a valid body (so the negative cases are
 * about auth only) and `own`, which creates a record of the given store and returns its id
 * (the other-store case uses it).
 */
import type { Deps } from '../../src/deps'
import { ctxFor } from '../../src/kernel/context'
import type { PaidFeature } from '../../src/modules/plans/features'
import { createProduct } from '../../src/modules/products/service'
import { createCategory } from '../../src/modules/categories/service'
import { getStore } from '../../src/modules/platform-stores/service'
import { createWebhook } from '../../src/modules/webhooks/service'
import { getTableName } from 'drizzle-orm'
import { API_ACCESS } from '../../src/http/api-routes'
import { OWNED_TABLES } from '../../src/http/access'
import { uniq } from './factories'
import { makeReview } from './factories'
import { makeDiscount, makeShipping } from './factories'
import { makeCustomer, makeOrder } from './factories'

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Route path as registered, with `:id`-style params. */
  path: string
  scope: string
  /** A valid body, so the negative cases are about auth only. */
  body?: unknown
  feature?: PaidFeature
  own?: (deps: Deps, storeId: string) => string | Promise<string>
}

type Own = NonNullable<ProtectedRoute['own']>
const ctx = (deps: Deps, storeId: string) => ctxFor(deps, getStore({ ctx: { db: deps.db }, input: { id: storeId } })!)
const product: Own = (deps, storeId) =>
  createProduct({ ctx: ctx(deps, storeId), input: { name: uniq('Product'), price: 10 } }).id
const category: Own = (deps, storeId) =>
  createCategory({ ctx: ctx(deps, storeId), input: { name: uniq('Category') } }).id
const webhook: Own = async (deps, storeId) =>
  (
    await createWebhook({
      ctx: ctx(deps, storeId),
      input: { url: 'https://93.184.216.34/hook', events: ['order.created'] },
    })
  ).id
const review: Own = (deps, storeId) => makeReview(deps, storeId).id
const discount: Own = (deps, storeId) => makeDiscount(deps, storeId).id
const shipping: Own = (deps, storeId) => makeShipping(deps, storeId).id

/** A record of each owned table, made for a store. */
const OWN: Record<string, Own> = {
  products: product,
  categories: category,
  webhooks: webhook,
  reviews: review,
  discounts: discount,
  shipping_options: shipping,
  orders: makeOrder,
  customers: makeCustomer,
}

const BODIES: Record<string, unknown> = {
  'PUT /api/v1/reviews/:id': { status: 'approved' },
  'PUT /api/v1/reviews/:id/moderate': { status: 'rejected' },
  'POST /api/v1/products': { name: 'Mug', price: 5 },
  'PUT /api/v1/products/:id': { name: 'Mug 2' },
  // The upload's real body is multipart (tests/products/images.test.ts); every case here fails before it is read.
  'POST /api/v1/products/:id/images': { file: 'x' },
  'PUT /api/v1/products/:id/images/:imageId': { position: 0 },
  'POST /api/v1/categories': { name: 'Cups' },
  'PUT /api/v1/categories/:id': { name: 'Cups 2' },
  'PUT /api/v1/store': { description: 'Hello' },
  'POST /api/v1/discounts': { code: 'SAVE10', type: 'percentage', value: 10 },
  'PUT /api/v1/discounts/:id': { value: 15 },
  'POST /api/v1/shipping': { name: 'Courier', price: 5 },
  'PUT /api/v1/shipping/:id': { price: 6 },
  'PUT /api/v1/orders/:id/status': { status: 'confirmed' },
  'PUT /api/v1/orders/:id': { status: 'confirmed' },
  'POST /api/v1/webhooks': { url: 'https://93.184.216.34/hook', events: ['order.created'] },
  'PUT /api/v1/webhooks/:id': { isActive: false },
}

export const PROTECTED_ROUTES: ProtectedRoute[] = API_ACCESS.flatMap((r): ProtectedRoute[] => {
  if (!('scope' in r.access)) return []
  const name = `${r.method} ${r.path}`
  const route: ProtectedRoute = { method: r.method as ProtectedRoute['method'], path: r.path, scope: r.access.scope }
  if (BODIES[name] !== undefined) route.body = BODIES[name]
  if (r.access.feature) route.feature = r.access.feature
  if (r.access.owns) route.own = OWN[getTableName(OWNED_TABLES[r.access.owns])]
  return [route]
})
