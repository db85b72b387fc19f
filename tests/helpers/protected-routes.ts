/**
 * Every authenticated route, one line each. tests/protected-routes.test.ts drives the 401, 402,
 * 403 (scope, other store, plan) and 429 cases from this table, and fails if a registered
 * /api/v1 route is missing from it: a new route joins by adding its line here.
 *
 * `own` creates a record of the given store and returns its id; the other-store case uses it.
 */
import type { Deps } from '../../src/context'
import { createProduct } from '../../src/modules/products/service'
import { createCategory } from '../../src/modules/categories/service'
import { ctxFor } from '../../src/context'
import { getStore } from '../../src/modules/stores/service'
import { uniq } from './factories'
import { createWebhook } from '../../src/modules/webhooks/service'
import { makeReview } from './review-factories'
import { makeDiscount, makeShipping } from './store-factories'
import { makeCustomer, makeOrder } from './orders'

export interface ProtectedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Route path as registered, with `:id`-style params. */
  path: string
  scope: string
  /** A valid body, so the negative cases are about auth only. */
  body?: unknown
  feature?: 'advancedAnalytics' | 'reviewModeration'
  own?: (deps: Deps, storeId: string) => string | Promise<string>
}

const ctx = (deps: Deps, storeId: string) => ctxFor(deps, getStore(deps.db, storeId)!)
const product = (deps: Deps, storeId: string) => createProduct(ctx(deps, storeId), { name: uniq('Product'), price: 10 }).id
const category = (deps: Deps, storeId: string) => createCategory(ctx(deps, storeId), { name: uniq('Category') }).id
const webhook = async (deps: Deps, storeId: string) => (await createWebhook(ctx(deps, storeId), { url: 'https://93.184.216.34/hook', events: ['order.created'] })).id

export const PROTECTED_ROUTES: ProtectedRoute[] = [
  { method: 'GET', path: '/api/v1/reviews', scope: 'reviews:read' },
  { method: 'PUT', path: '/api/v1/reviews/:id', scope: 'reviews:write', body: { status: 'approved' }, feature: 'reviewModeration', own: (deps, storeId) => makeReview(deps, storeId).id },
  { method: 'PUT', path: '/api/v1/reviews/:id/moderate', scope: 'reviews:write', body: { status: 'rejected' }, feature: 'reviewModeration', own: (deps, storeId) => makeReview(deps, storeId).id },
  { method: 'DELETE', path: '/api/v1/reviews/:id', scope: 'reviews:write', feature: 'reviewModeration', own: (deps, storeId) => makeReview(deps, storeId).id },
  { method: 'GET', path: '/api/v1/stats', scope: 'stats:read', feature: 'advancedAnalytics' },
  { method: 'GET', path: '/api/v1/products', scope: 'products:read' },
  { method: 'GET', path: '/api/v1/products/:id', scope: 'products:read', own: product },
  { method: 'POST', path: '/api/v1/products', scope: 'products:write', body: { name: 'Mug', price: 5 } },
  { method: 'PUT', path: '/api/v1/products/:id', scope: 'products:write', body: { name: 'Mug 2' }, own: product },
  { method: 'DELETE', path: '/api/v1/products/:id', scope: 'products:write', own: product },
  // The upload's real body is multipart (tests/images.test.ts); every case here fails before it is read.
  { method: 'POST', path: '/api/v1/products/:id/images', scope: 'products:write', body: { file: 'x' }, own: product },
  { method: 'PUT', path: '/api/v1/products/:id/images/:imageId', scope: 'products:write', body: { position: 0 }, own: product },
  { method: 'DELETE', path: '/api/v1/products/:id/images/:imageId', scope: 'products:write', own: product },
  { method: 'GET', path: '/api/v1/categories', scope: 'categories:read' },
  { method: 'POST', path: '/api/v1/categories', scope: 'categories:write', body: { name: 'Cups' } },
  { method: 'PUT', path: '/api/v1/categories/:id', scope: 'categories:write', body: { name: 'Cups 2' }, own: category },
  { method: 'DELETE', path: '/api/v1/categories/:id', scope: 'categories:write', own: category },
  { method: 'GET', path: '/api/v1/store', scope: 'store:read' },
  { method: 'PUT', path: '/api/v1/store', scope: 'store:write', body: { description: 'Hello' } },
  { method: 'GET', path: '/api/v1/discounts', scope: 'discounts:read' },
  { method: 'GET', path: '/api/v1/discounts/:id', scope: 'discounts:read', own: (deps, storeId) => makeDiscount(deps, storeId).id },
  { method: 'POST', path: '/api/v1/discounts', scope: 'discounts:write', body: { code: 'SAVE10', type: 'percentage', value: 10 } },
  { method: 'PUT', path: '/api/v1/discounts/:id', scope: 'discounts:write', body: { value: 15 }, own: (deps, storeId) => makeDiscount(deps, storeId).id },
  { method: 'DELETE', path: '/api/v1/discounts/:id', scope: 'discounts:write', own: (deps, storeId) => makeDiscount(deps, storeId).id },
  { method: 'GET', path: '/api/v1/shipping', scope: 'shipping:read' },
  { method: 'GET', path: '/api/v1/shipping/:id', scope: 'shipping:read', own: (deps, storeId) => makeShipping(deps, storeId).id },
  { method: 'POST', path: '/api/v1/shipping', scope: 'shipping:write', body: { name: 'Courier', price: 5 } },
  { method: 'PUT', path: '/api/v1/shipping/:id', scope: 'shipping:write', body: { price: 6 }, own: (deps, storeId) => makeShipping(deps, storeId).id },
  { method: 'DELETE', path: '/api/v1/shipping/:id', scope: 'shipping:write', own: (deps, storeId) => makeShipping(deps, storeId).id },
  { method: 'GET', path: '/api/v1/orders', scope: 'orders:read' },
  { method: 'GET', path: '/api/v1/orders/:id', scope: 'orders:read', own: makeOrder },
  { method: 'PUT', path: '/api/v1/orders/:id/status', scope: 'orders:write', body: { status: 'confirmed' }, own: makeOrder },
  { method: 'PUT', path: '/api/v1/orders/:id', scope: 'orders:write', body: { status: 'confirmed' }, own: makeOrder },
  { method: 'GET', path: '/api/v1/customers', scope: 'customers:read' },
  { method: 'GET', path: '/api/v1/customers/:id', scope: 'customers:read', own: makeCustomer },
  { method: 'GET', path: '/api/v1/webhooks', scope: 'webhooks:read' },
  { method: 'GET', path: '/api/v1/webhooks/:id', scope: 'webhooks:read', own: webhook },
  { method: 'POST', path: '/api/v1/webhooks', scope: 'webhooks:write', body: { url: 'https://93.184.216.34/hook', events: ['order.created'] } },
  { method: 'PUT', path: '/api/v1/webhooks/:id', scope: 'webhooks:write', body: { isActive: false }, own: webhook },
  { method: 'DELETE', path: '/api/v1/webhooks/:id', scope: 'webhooks:write', own: webhook },
  { method: 'POST', path: '/api/v1/webhooks/:id/rotate-secret', scope: 'webhooks:write', own: webhook },
  { method: 'GET', path: '/api/v1/webhooks/:id/deliveries', scope: 'webhooks:read', own: webhook },
  { method: 'POST', path: '/api/v1/webhooks/:id/deliveries/:deliveryId/retry', scope: 'webhooks:write', own: webhook },
]
