/** Discount and shipping-option factories (unique data per call), for tests and the protected-routes table. */
import { ctxFor } from '../../src/kernel/context'
import type { Deps } from '../../src/deps'
import { getStore } from '../../src/modules/platform-stores/service'
import { createDiscount } from '../../src/modules/discounts/service'
import { createShipping } from '../../src/modules/shipping/service'
import type { DiscountCreate } from '../../src/modules/discounts/model'
import type { ShippingCreate } from '../../src/modules/shipping/model'
import { uniq } from './factories'

const ctx = (deps: Deps, storeId: string) => ctxFor(deps, getStore(deps.db, storeId)!)

export const uniqCode = () => uniq('CODE').replace(/[^A-Za-z0-9_-]/g, '').slice(-30)

export function makeDiscount(deps: Deps, storeId: string, input: Partial<DiscountCreate> = {}) {
  return createDiscount({ ctx: ctx(deps, storeId), input: { code: uniqCode(), type: 'percentage', value: 10, ...input } })
}

export function makeShipping(deps: Deps, storeId: string, input: Partial<ShippingCreate> = {}) {
  return createShipping({ ctx: ctx(deps, storeId), input: { name: uniq('Courier'), price: 4.5, estimatedDays: 3, ...input } })
}
