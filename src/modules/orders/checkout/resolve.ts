/**
 * What a checkout's references name, read inside its transaction: the lines (prices and names
 * from the database only), the shipping option and the discount, each refused with 400 naming
 * the field at fault.
 */
import type { Database } from 'bun:sqlite'
import type { OrderItem, Store } from '../../../db/schema'
import { ValidationError } from '../../../lib/errors'
import { toMajor } from '../../../lib/money'
import type { LineRef } from '../dedup'
import { discountAmount, lineSubtotal, meetsMinimum } from '../pricing'
import type { StockLine } from '../stock'
import * as sql from '../sql/checkout'

/**
 * Prices and names from the database only; 400 naming the first bad line. `stock` receives each
 * line's stock as read in this transaction (null = untracked), for takeStock.
 */
export function resolveLines(
  db: Database,
  storeId: string,
  orderId: string,
  refs: LineRef[],
  stock: StockLine[],
): OrderItem[] {
  const vmap = new Map(
    sql
      .variantsByIds(
        db,
        refs.flatMap((r) => (r.variantId ? [r.variantId] : [])),
      )
      .map((v) => [v.id, v]),
  )
  const pmap = new Map(
    sql
      .productsByIds(
        db,
        refs.flatMap((r) => (r.productId ? [r.productId] : [])),
      )
      .map((p) => [p.id, p]),
  )
  return refs.map((r, i): OrderItem => {
    const at = r.at ?? i
    if (r.variantId) {
      const field = `items[${at}].variantId`
      const v = vmap.get(r.variantId)
      if (!v || v.storeId !== storeId || v.deletedAt !== null)
        throw new ValidationError(field, 'not_found', `${field} does not name a variant of this store`)
      if (!v.isActive || !v.productActive)
        throw new ValidationError(field, 'inactive', `${field} names a variant that is not available`)
      stock.push({ productId: v.productId, variantId: v.id, quantity: r.quantity, stock: v.stock, position: at })
      return line(orderId, i, v.productId, v.productName, v.id, v.name, v.price, r.quantity, v.stock !== null)
    }
    const field = `items[${at}].productId`
    const p = pmap.get(r.productId!)
    if (!p || p.storeId !== storeId || p.deletedAt !== null)
      throw new ValidationError(field, 'not_found', `${field} does not name a product of this store`)
    if (!p.isActive) throw new ValidationError(field, 'inactive', `${field} names a product that is not available`)
    if (p.hasVariants)
      throw new ValidationError(
        `items[${at}].variantId`,
        'required',
        `items[${at}]: this product has variants; name one with variantId`,
      )
    stock.push({ productId: p.id, variantId: null, quantity: r.quantity, stock: p.stock, position: at })
    return line(orderId, i, p.id, p.name, null, null, p.price, r.quantity, p.stock !== null)
  })
}

function line(
  orderId: string,
  i: number,
  productId: string,
  productName: string,
  variantId: string | null,
  variantName: string | null,
  unitPrice: number,
  quantity: number,
  stockTaken: boolean,
): OrderItem {
  const subtotal = lineSubtotal(unitPrice, quantity)
  if (!Number.isSafeInteger(subtotal)) throw new ValidationError(`items[${i}].quantity`, 'out_of_range')
  // Item ids are internal (never shown): the order id and the line's position keep them unique without another CUID.
  return {
    id: `${orderId}-${i}`,
    orderId,
    productId,
    productName,
    variantId,
    variantName,
    quantity,
    unitPrice,
    subtotal,
    position: i,
    stockTaken,
  }
}

export function resolveShipping(db: Database, storeId: string, id: string | null | undefined) {
  if (!id) return null
  const s = sql.shippingById(db, id)
  if (!s || s.storeId !== storeId)
    throw new ValidationError(
      'shippingOptionId',
      'not_found',
      'shippingOptionId does not name a shipping option of this store',
    )
  if (!s.isActive) throw new ValidationError('shippingOptionId', 'inactive', 'This shipping option is not available')
  return s
}

/**
 * The discount, if any, and what it takes off. Reasons: not_found, inactive, expired,
 * exhausted (usedCount reached maxUses), below_minimum (items' subtotal under minOrderAmount).
 */
export function resolveDiscount(
  db: Database,
  store: Store,
  code: string | null | undefined,
  itemsSubtotal: number,
  now: number,
) {
  if (code === null || code === undefined) return null
  const f = 'discountCode'
  const d = sql.discountByCode(db, store.id, code.trim().toUpperCase())
  if (!d) throw new ValidationError(f, 'not_found', 'Unknown discount code')
  if (!d.isActive) throw new ValidationError(f, 'inactive', 'This discount code is not active')
  if (d.expiresAt !== null && d.expiresAt <= now)
    throw new ValidationError(f, 'expired', 'This discount code has expired')
  if (d.maxUses !== null && d.usedCount >= d.maxUses)
    throw new ValidationError(f, 'exhausted', 'This discount code has reached its maximum number of uses')
  if (!meetsMinimum(itemsSubtotal, d.minOrderAmount)) {
    throw new ValidationError(
      f,
      'below_minimum',
      'The order does not reach the minimum amount for this discount code',
      {
        minOrderAmount: toMajor(d.minOrderAmount!, store.currency),
      },
    )
  }
  return { discount: d, amount: discountAmount(d.type, d.value, itemsSubtotal) }
}
