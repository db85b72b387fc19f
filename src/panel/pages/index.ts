/**
 * The catalog pages of the panel: products, categories, discounts, shipping, reviews,
 * settings, API keys, webhooks. routes.ts
 * registers these definitions with their `access` beside the shell's own routes.
 */
import type { PageRoute } from './kit'
import type { PanelEnv } from '../env'
import { productPages } from './products/routes'
import { settingsPages } from './settings'
import { keyPages } from './keys'
import { webhookPages } from './webhooks'
import { reviewPages } from './reviews'
import { categoryPages } from './categories'
import { discountPages } from './discounts/routes'
import { shippingPages } from './shipping'
import { bulkPages } from './bulk/routes'
import { csvPages } from './csv/routes'

export type { PageRoute } from './kit'

export function catalogPages(kit: PanelEnv): PageRoute[] {
  return [
    ...productPages(kit),
    ...settingsPages(kit),
    ...keyPages(kit),
    ...webhookPages(kit),
    ...reviewPages(kit),
    ...categoryPages(kit),
    ...discountPages(kit),
    ...shippingPages(kit),
    ...bulkPages(kit),
    ...csvPages(kit),
  ]
}
