import { and, count, eq, isNull, or, isNotNull, sql } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import type { Runner } from '../../db/client'
import { categories, discounts, orders, products, shippingOptions, stores, type Store } from '../../db/schema'
import { Conflict, NotFound, ValidationError, isUniqueViolation } from '../../lib/errors'
import { isCurrency } from '../../lib/money'
import { toE164 } from '../../lib/phone'
import { isSlug, SLUG_RULE } from '../../lib/slug'
import { canonicalZone } from '../../lib/zone'
import { PLACEHOLDER_NAMES, unknownPlaceholders } from '../../lib/whatsapp'
import { getStore as storeRow, storeView } from '../platform-stores'
import { write } from '../../kernel/write'
import { orderCount } from '../orders'
import type { StoreUpdate } from './model'

export function getStoreSettings({ ctx }: { ctx: Ctx }) {
  // Read fresh: the gate's cached row is fine for auth, but this is the record itself.
  const s = storeRow({ ctx, input: { id: ctx.store.id } })
  if (!s) throw new NotFound('Store')
  return settingsView(ctx, s)
}

/**
 * The store as its own key sees it: the record and what it holds. Products not deleted (an
 * index seek on the store's products), all categories (deleting one removes it; a covering
 * index), and orders from the `order_counts` counters (one row per status, drizzle/0009),
 * never a scan of the orders.
 */
function settingsView(ctx: Ctx, s: Store) {
  const n = (q: { get(): { n: number } | undefined }) => q.get()?.n ?? 0
  return {
    ...storeView(s),
    pendingOrderTtlHours: s.pendingOrderTtlHours,
    showStockCount: s.showStockCount,
    timezone: s.timezone,
    productCount: n(
      ctx.db
        .select({ n: count() })
        .from(products)
        .where(and(eq(products.storeId, s.id), isNull(products.deletedAt))),
    ),
    categoryCount: n(ctx.db.select({ n: count() }).from(categories).where(eq(categories.storeId, s.id))),
    orderCount: orderCount({ ctx }),
  }
}

/**
 * Whether the store holds amounts in minor units of its currency: live products, shipping
 * options, discounts that carry money (fixed value or a minimum order) and orders. Changing the
 * currency would silently re-scale those amounts (USD 10.00 is 1000 minor units, JPY 1000), so
 * the change is refused once any exist.
 */
function hasPricedRecords(tx: Runner, storeId: string): boolean {
  const exists = (q: { get(): unknown }) => q.get() !== undefined
  return (
    exists(
      tx
        .select({ one: sql`1` })
        .from(products)
        .where(and(eq(products.storeId, storeId), isNull(products.deletedAt)))
        .limit(1),
    ) ||
    exists(tx.select({ one: sql`1` }).from(orders).where(eq(orders.storeId, storeId)).limit(1)) ||
    exists(tx.select({ one: sql`1` }).from(shippingOptions).where(eq(shippingOptions.storeId, storeId)).limit(1)) ||
    exists(
      tx
        .select({ one: sql`1` })
        .from(discounts)
        .where(
          and(eq(discounts.storeId, storeId), or(eq(discounts.type, 'fixed'), isNotNull(discounts.minOrderAmount))),
        )
        .limit(1),
    )
  )
}

/** Partial update of the store's settings (`plan` and `status` are not settable here). */
export function updateStoreSettings({ ctx, input }: { ctx: Ctx; input: StoreUpdate }) {
  const set: Partial<typeof stores.$inferInsert> = {}
  if (input.name !== undefined) {
    const name = input.name.trim()
    if (!name) throw new ValidationError('name', 'required', "'name' must not be blank")
    set.name = name
  }
  if (input.slug !== undefined) {
    if (!isSlug(input.slug)) throw new ValidationError('slug', 'invalid_format', SLUG_RULE)
    set.slug = input.slug
  }
  if (input.description !== undefined) set.description = input.description
  if (input.whatsappNumber !== undefined) {
    if (input.whatsappNumber === null || input.whatsappNumber.trim() === '') set.whatsappNumber = null
    else {
      const e164 = toE164(input.whatsappNumber)
      if (!e164)
        throw new ValidationError(
          'whatsappNumber',
          'invalid_format',
          "'whatsappNumber' must be a valid phone number in international form, e.g. +14155550100",
        )
      set.whatsappNumber = e164
    }
  }
  let currency: string | undefined
  if (input.currency !== undefined) {
    currency = input.currency.toUpperCase()
    if (!isCurrency(currency))
      throw new ValidationError('currency', 'invalid_format', "'currency' must be an ISO 4217 code such as USD")
  }
  if (input.whatsappTemplate !== undefined) {
    if (input.whatsappTemplate !== null) {
      const bad = unknownPlaceholders(input.whatsappTemplate)
      if (bad.length) {
        throw new ValidationError(
          'whatsappTemplate',
          'invalid_format',
          `Unknown placeholders in 'whatsappTemplate': ${bad.join(', ')}. Known: ${PLACEHOLDER_NAMES.join(', ')}`,
          // `shortcodes` is the earlier name of the same list, kept for clients that read it.
          { placeholders: bad, shortcodes: bad },
        )
      }
    }
    set.whatsappTemplate = input.whatsappTemplate
  }
  if (input.language !== undefined) set.language = input.language
  if (input.isPublished !== undefined) set.isPublished = input.isPublished
  if (input.isMaintenance !== undefined) set.isMaintenance = input.isMaintenance
  if (input.pendingOrderTtlHours !== undefined) set.pendingOrderTtlHours = input.pendingOrderTtlHours
  if (input.showStockCount !== undefined) set.showStockCount = input.showStockCount
  if (input.timezone !== undefined) {
    const zone = canonicalZone(input.timezone.trim())
    if (!zone)
      throw new ValidationError(
        'timezone',
        'invalid_format',
        "'timezone' must be an IANA time zone name such as America/Bogota or UTC",
      )
    set.timezone = zone
  }

  try {
    const row = write(ctx, (tx) => {
      // read inside the transaction: it runs on the same connection
      const current = storeRow({ ctx, input: { id: ctx.store.id } })
      if (!current) throw new NotFound('Store')
      if (currency !== undefined && currency !== current.currency) {
        if (hasPricedRecords(tx, ctx.store.id)) {
          throw new Conflict(
            'CURRENCY_LOCKED',
            `The currency can't change from ${current.currency} once the store has products, ` +
              `shipping options, money discounts or orders: their amounts are stored in ${current.currency}`,
            {
              field: 'currency',
              currency: current.currency,
            },
          )
        }
        set.currency = currency
      }
      if (Object.keys(set).length === 0) return current
      return tx
        .update(stores)
        .set({ ...set, updatedAt: ctx.clock.now() })
        .where(eq(stores.id, ctx.store.id))
        .returning()
        .get()!
    })
    return settingsView(ctx, row)
  } catch (err) {
    if (isUniqueViolation(err))
      throw new Conflict('DUPLICATE_SLUG', `Slug '${input.slug}' is already taken`, { field: 'slug', slug: input.slug })
    throw err
  }
}
