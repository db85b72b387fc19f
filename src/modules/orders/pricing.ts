/**
 * Order money math, all in integer minor units: total = Σ line subtotals +
 * shipping − discount. A percentage discount applies to the items' subtotal only (not shipping),
 * rounded half up; a fixed discount never takes the items below zero.
 */
import type { DiscountType } from '../../db/schema'
import { percentOf } from '../../lib/money'

export function lineSubtotal(unitPrice: number, quantity: number): number {
  return unitPrice * quantity
}

/** `value`: hundredths of a percent for `percentage`, minor units for `fixed` (schema/commerce.ts). */
export function discountAmount(type: DiscountType, value: number, itemsSubtotal: number): number {
  const raw = type === 'percentage' ? percentOf(itemsSubtotal, value) : value
  return Math.max(0, Math.min(raw, itemsSubtotal))
}

/** minOrderAmount compares with the items' subtotal; an equal subtotal qualifies. */
export function meetsMinimum(itemsSubtotal: number, minOrderAmount: number | null): boolean {
  return minOrderAmount === null || itemsSubtotal >= minOrderAmount
}

export function orderTotal(itemsSubtotal: number, shipping: number, discount: number): number {
  return itemsSubtotal + shipping - discount
}
