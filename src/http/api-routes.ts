/**
 * Every resource's routes, one line each. A new resource is a copied module folder and a line
 * here; its routes declare their own access (plugins/access.ts). Routes that reach more than
 * their `ctx` take their module's narrow port; `ApiPorts` is what the composition root binds.
 */
import { declaredRoutes } from './access'
import { billingRoutes, type BillingPort } from '../modules/billing/routes'
import { categoryRoutes } from '../modules/categories/routes'
import { customerReads, customerRoutes, type CustomerRoutesPort } from '../modules/customers/routes'
import { discountRoutes } from '../modules/discounts/routes'
import { imageRoutes, type ImageRoutesPort } from '../modules/products/images/routes'
import { orderReads, orderRoutes, type OrderRoutesPort } from '../modules/orders/routes'
import { publicOrderRoutes, type CheckoutPort } from '../modules/orders/public-routes'
import { productReads, productRoutes, type ProductRoutesPort } from '../modules/products/routes'
import { publicCatalogReads, publicCatalogRoutes, type PublicCatalogPort } from '../modules/public-catalog/routes'
import { publicReviewRoutes, reviewRoutes } from '../modules/reviews/routes'
import { shippingRoutes } from '../modules/shipping/routes'
import { statsRoutes } from '../modules/stats/routes'
import { storeRoutes } from '../modules/store-settings/routes'
import { webhookRoutes } from '../modules/webhooks/routes'
import type { CtxBase } from '../kernel/context'
import { PreRouted } from './pre-routed'

/** The ports the API's route factories take; the composition root's Deps satisfies all of them. */
export type ApiPorts = ProductRoutesPort &
  OrderRoutesPort &
  CustomerRoutesPort &
  ImageRoutesPort &
  CheckoutPort &
  PublicCatalogPort &
  BillingPort &
  CtxBase

export function apiRoutes(ports: ApiPorts) {
  return [
    productRoutes(ports),
    imageRoutes(ports),
    categoryRoutes,
    webhookRoutes,
    publicReviewRoutes(ports),
    reviewRoutes,
    statsRoutes,
    billingRoutes(ports),
    storeRoutes,
    discountRoutes,
    shippingRoutes,
    publicCatalogRoutes(ports),
    publicOrderRoutes(ports),
    orderRoutes(ports),
    customerRoutes(ports),
  ]
}

/** The GETs the pipeline answers before routing when it can (http/pre-routed.ts). */
export const preRouted = (ports: ApiPorts) =>
  new PreRouted([...productReads, ...orderReads, ...customerReads, ...publicCatalogReads(ports)])

/**
 * Routes built only to read their declarations: a port is reached in handlers, never while the
 * routes are built, so none is bound here and any use fails loudly.
 */
const UNBOUND = new Proxy({} as ApiPorts, {
  get(_, name) {
    throw new Error(`port ${String(name)} used outside a running app`)
  },
})

/** The API's routes with their declared access (the MCP tools and the tests read it too). */
export const API_ACCESS = declaredRoutes(apiRoutes(UNBOUND).flatMap((r) => r.routes))
