/**
 * Every resource's routes, one line each. A new resource is a copied module folder and a line
 * here; its routes declare their own access (plugins/access.ts).
 */
import { declaredRoutes } from './access'
import { billingRoutes } from '../modules/billing/routes'
import { categoryRoutes } from '../modules/categories/routes'
import { customerRoutes } from '../modules/customers/routes'
import { discountRoutes } from '../modules/discounts/routes'
import { imageRoutes } from '../modules/products/images/routes'
import { orderRoutes } from '../modules/orders/routes'
import { publicOrderRoutes } from '../modules/orders/public-routes'
import { productRoutes } from '../modules/products/routes'
import { publicCatalogRoutes } from '../modules/public-catalog/routes'
import { publicReviewRoutes, reviewRoutes } from '../modules/reviews/routes'
import { shippingRoutes } from '../modules/shipping/routes'
import { statsRoutes } from '../modules/stats/routes'
import { storeRoutes } from '../modules/store-settings/routes'
import { webhookRoutes } from '../modules/webhooks/routes'

export const ROUTES = [
  productRoutes,
  imageRoutes,
  categoryRoutes,
  webhookRoutes,
  publicReviewRoutes,
  reviewRoutes,
  statsRoutes,
  billingRoutes,
  storeRoutes,
  discountRoutes,
  shippingRoutes,
  publicCatalogRoutes,
  publicOrderRoutes,
  orderRoutes,
  customerRoutes,
]

/** The API's routes with their declared access (the MCP tools and the tests read it too). */
export const API_ACCESS = declaredRoutes(ROUTES.flatMap((r) => r.routes))
