/**
 * Every test factory, in one file and one money unit: prices, amounts and fixed discounts are
 * integer minor units (1000 = 10.00), as inside the service; a factory that goes through a
 * service's API-shaped input converts at that call. Each call makes unique data (names, slugs,
 * codes, phones), so tests never collide.
 *
 * Two kinds: `make…` go through the module's verb (its rules and caps apply); `add…` insert the
 * row directly, so order tests don't depend on plan caps or on other modules' validation.
 */
import { createId } from '@paralleldrive/cuid2'
import type { Deps } from '../../src/deps'
import { ctxFor } from '../../src/kernel/context'
import {
  discounts,
  products,
  reviews,
  shippingOptions,
  variants,
  type DiscountType,
  type Plan,
  type ReviewStatus,
} from '../../src/db/schema'
import { commitOrders } from '../../src/checkout-batcher'
import type { CheckoutResult } from '../../src/modules/orders/checkout/place'
import { prepareOrder } from '../../src/modules/orders/checkout/prepare'
import type { OrderCreate } from '../../src/modules/orders/model'
import { createKey } from '../../src/modules/keys/service'
import { createStore, getStore, type CreateStoreInput } from '../../src/modules/platform-stores/service'
import { createProduct } from '../../src/modules/products/service'
import { createDiscount } from '../../src/modules/discounts/service'
import { createShipping } from '../../src/modules/shipping/service'
import type { DiscountCreate } from '../../src/modules/discounts/model'
import type { ShippingCreate } from '../../src/modules/shipping/model'

let n = 0
export const uniq = (p = 'x') => `${p}-${Date.now().toString(36)}-${(++n).toString(36)}`
export const uniqCode = () =>
  uniq('CODE')
    .replace(/[^A-Za-z0-9_-]/g, '')
    .slice(-30)
/** Minor units to the API's major units (2 decimals: the factories' stores are USD). */
const major = (minor: number) => minor / 100
const storeCtx = (deps: Deps, storeId: string) =>
  ctxFor(deps, getStore({ ctx: { db: deps.db }, input: { id: storeId } })!)

// ── Stores and keys ───────────────────────────────────────────────────────────────
export function makeStore(deps: Deps, input: Partial<CreateStoreInput> & { plan?: Plan } = {}) {
  const name = input.name ?? uniq('Shop')
  return createStore({
    ctx: deps,
    input: {
      name,
      slug: input.slug ?? uniq('shop').toLowerCase(),
      plan: input.plan ?? 'pro',
      currency: input.currency ?? 'USD',
      whatsapp: input.whatsapp ?? '+14155550100',
      ...input,
    },
  })
}

export function makeKey(
  deps: Deps,
  storeId: string,
  scopes: string[] = ['all'],
  extra: { expiresAt?: number | null } = {},
) {
  return createKey({ ctx: deps, input: { storeId, scopes, ...extra } }).key
}

/** A store with an all-scopes key: the usual starting point. */
export function makeShop(deps: Deps, input: Partial<CreateStoreInput> & { plan?: Plan } = {}) {
  const store = makeStore(deps, input)
  return { store, key: makeKey(deps, store.id) }
}

// ── Catalog, discounts and shipping through their verbs ───────────────────────────

export function makeProduct(
  deps: Deps,
  storeId: string,
  input: { name?: string; price?: number; isActive?: boolean } = {},
) {
  return createProduct({
    ctx: storeCtx(deps, storeId),
    input: { name: input.name ?? uniq('Product'), price: major(input.price ?? 1000), isActive: input.isActive },
  })
}

/** `value`: a percent for `percentage`, minor units for `fixed`; `minOrderAmount` in minor units. */
export function makeDiscount(deps: Deps, storeId: string, input: Partial<DiscountCreate> = {}) {
  const type = input.type ?? 'percentage'
  const value = input.value ?? 10
  const money = {
    value: type === 'fixed' ? major(value) : value,
    ...(input.minOrderAmount != null ? { minOrderAmount: major(input.minOrderAmount) } : {}),
  }
  return createDiscount({ ctx: storeCtx(deps, storeId), input: { code: uniqCode(), ...input, type, ...money } })
}

/** `price` in minor units. */
export function makeShipping(deps: Deps, storeId: string, input: Partial<ShippingCreate> = {}) {
  return createShipping({
    ctx: storeCtx(deps, storeId),
    input: { name: uniq('Courier'), estimatedDays: 3, ...input, price: major(input.price ?? 450) },
  })
}

/** A review row of the store (a new product unless one is given). */
export function makeReview(
  deps: Deps,
  storeId: string,
  input: {
    productId?: string
    status?: ReviewStatus
    rating?: number
    customerName?: string
    comment?: string | null
    createdAt?: number
  } = {},
) {
  const productId = input.productId ?? makeProduct(deps, storeId).id
  const at = input.createdAt ?? deps.clock.now()
  return deps.db
    .insert(reviews)
    .values({
      storeId,
      productId,
      customerName: input.customerName ?? uniq('Ana'),
      rating: input.rating ?? 5,
      comment: input.comment === undefined ? 'Great' : input.comment,
      status: input.status ?? 'pending',
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get()
}

// ── Catalog rows inserted directly, and orders ────────────────────────────────────

let phoneN = Math.floor(Math.random() * 7_000_000)
/** A distinct valid US number per call (+1 415 2xx–8xx xxxx), unique within a test process. */
export const uniqPhone = () => `+1415${2_000_000 + (++phoneN % 7_000_000)}`

export function addProduct(
  deps: Deps,
  storeId: string,
  o: { price?: number; isActive?: boolean; deletedAt?: number | null; name?: string } = {},
) {
  const now = deps.clock.now()
  const name = o.name ?? uniq('Product')
  return deps.db
    .insert(products)
    .values({
      storeId,
      name,
      slug: uniq('p').toLowerCase(),
      price: o.price ?? 1000,
      isActive: o.isActive ?? true,
      deletedAt: o.deletedAt ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
}

export function addVariant(
  deps: Deps,
  productId: string,
  o: { price?: number; isActive?: boolean; name?: string } = {},
) {
  const now = deps.clock.now()
  return deps.db
    .insert(variants)
    .values({
      productId,
      name: o.name ?? uniq('Size'),
      price: o.price ?? 1200,
      isActive: o.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
}

export function addShipping(
  deps: Deps,
  storeId: string,
  o: { price?: number; isActive?: boolean; name?: string } = {},
) {
  const now = deps.clock.now()
  return deps.db
    .insert(shippingOptions)
    .values({
      storeId,
      name: o.name ?? uniq('Courier'),
      price: o.price ?? 500,
      isActive: o.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
}

/** `value`: hundredths of a percent for percentage, minor units for fixed. */
export function addDiscount(
  deps: Deps,
  storeId: string,
  o: {
    type?: DiscountType
    value?: number
    code?: string
    minOrderAmount?: number | null
    maxUses?: number | null
    usedCount?: number
    expiresAt?: number | null
    isActive?: boolean
  } = {},
) {
  const now = deps.clock.now()
  const code =
    o.code ??
    uniq('SAVE')
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase()
  return deps.db
    .insert(discounts)
    .values({
      id: createId(),
      storeId,
      code,
      codeKey: code.toUpperCase(),
      type: o.type ?? 'percentage',
      value: o.value ?? 1000,
      minOrderAmount: o.minOrderAmount ?? null,
      maxUses: o.maxUses ?? null,
      usedCount: o.usedCount ?? 0,
      expiresAt: o.expiresAt ?? null,
      isActive: o.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
}

/** A product with one variant (12.00), a product without variants (10.00) and a 5.00 shipping option. */
export function makeCatalog(deps: Deps, storeId: string) {
  const shirt = addProduct(deps, storeId, { price: 1000, name: 'Shirt' })
  const large = addVariant(deps, shirt.id, { price: 1200, name: 'Large' })
  const mug = addProduct(deps, storeId, { price: 1000, name: 'Mug' })
  const courier = addShipping(deps, storeId, { price: 500, name: 'Courier' })
  return { shirt, large, mug, courier }
}

/** A valid checkout body for the catalog: 2 x Large shirt + 1 mug. */
export function orderBody(
  storeId: string,
  cat: ReturnType<typeof makeCatalog>,
  extra: Partial<OrderCreate> = {},
): OrderCreate {
  return {
    storeId,
    name: 'Ana Pérez',
    phone: uniqPhone(),
    address: 'Calle 1, Lima',
    items: [
      { variantId: cat.large.id, quantity: 2 },
      { productId: cat.mug.id, quantity: 1 },
    ],
    ...extra,
  }
}

/** An order of the store, placed through the checkout service; returns its id. */
export function makeOrder(deps: Deps, storeId: string, extra: Partial<OrderCreate> = {}): string {
  const cat = makeCatalog(deps, storeId)
  return placeOrder(deps, orderBody(storeId, cat, extra)).body.id
}

/** The customer behind a fresh order; returns the customer's id. */
export function makeCustomer(deps: Deps, storeId: string): string {
  const id = makeOrder(deps, storeId)
  return deps.db.$client
    .query<{ customer_id: string }, [string]>('SELECT customer_id FROM orders WHERE id = ?')
    .get(id)!.customer_id
}

/** One order, synchronously, in its own transaction (POST /api/orders batches them instead). */
export function placeOrder(deps: Deps, input: OrderCreate, idempotencyKey?: string): CheckoutResult {
  const { outcomes, effects } = commitOrders(deps, [prepareOrder(input, idempotencyKey, deps.config.orderMaxUnits)])
  effects.committed()
  effects.durable()
  const outcome = outcomes[0]!
  if (!outcome.ok) throw outcome.error
  return outcome.value
}
