/**
 * The checks of POST /api/orders that need no database (400s): one of variantId/productId per
 * line, a valid phone, a name; and the hashes the transaction compares (duplicate order,
 * Idempotency-Key replay).
 */
import { ValidationError } from '../../../lib/errors'
import { toE164 } from '../../../lib/phone'
import { dedupHash, type LineRef } from '../dedup'
import { requestHash } from '../idempotency'
import type { OrderCreate } from '../model'

/** An order whose body passed every check that needs no database. */
export interface PendingOrder {
  input: OrderCreate
  idempotencyKey: string | undefined
  phone: string
  refs: LineRef[]
  hash: string
  reqHash: string
}

function checkShape(input: OrderCreate): { phone: string; lines: LineRef[] } {
  const lines = input.items.map((it, i): LineRef => {
    if (it.variantId && it.productId) throw new ValidationError(`items[${i}].productId`, 'not_allowed', `items[${i}]: give either variantId or productId, not both`)
    if (!it.variantId && !it.productId) throw new ValidationError(`items[${i}].variantId`, 'required', `items[${i}] needs a variantId (or a productId for a product without variants)`)
    return { variantId: it.variantId ?? null, productId: it.variantId ? null : it.productId!, quantity: it.quantity }
  })
  if (!input.name.trim()) throw new ValidationError('name', 'required', "'name' must not be blank")
  const phone = toE164(input.phone)
  if (!phone) throw new ValidationError('phone', 'invalid_format', "'phone' must be a valid phone number in international form, e.g. +14155550100")
  return { phone, lines }
}

/** Shape, phone and Idempotency-Key checks (400), before any store look-up. */
export function prepareOrder(input: OrderCreate, idempotencyKey?: string): PendingOrder {
  const { phone, lines: refs } = checkShape(input)
  return { input, idempotencyKey, phone, refs, hash: dedupHash(phone, refs), reqHash: idempotencyKey === undefined ? '' : requestHash(input) }
}
