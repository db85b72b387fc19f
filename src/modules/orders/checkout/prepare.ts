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
import type { OrderSource } from '../../../db/schema'

/** An order whose body passed every check that needs no database. */
export interface PendingOrder {
  input: OrderCreate
  idempotencyKey: string | undefined
  phone: string
  refs: LineRef[]
  hash: string
  reqHash: string
  /** This service's origin as the customer reached it, for `statusUrl` (else PUBLIC_URL, else a path). */
  origin?: string
  /** Where it was placed: only storefront orders count in the dashboard's conversion. */
  source: OrderSource
}

/**
 * Lines naming the same variant (or product) become one line at the first one's place, so
 * `[{q:1},{q:1}]` is the same order as `[{q:2}]` for the duplicate check, the stock take and
 * the unit cap.
 */
function mergeLines(lines: LineRef[]): LineRef[] {
  const byItem = new Map<string, LineRef>()
  for (const l of lines) {
    const key = l.variantId ? `v:${l.variantId}` : `p:${l.productId}`
    const seen = byItem.get(key)
    if (seen) seen.quantity += l.quantity
    else byItem.set(key, { ...l })
  }
  return [...byItem.values()]
}

function checkShape(input: OrderCreate, maxUnits: number): { phone: string; lines: LineRef[] } {
  const lines = input.items.map((it, i): LineRef => {
    if (it.variantId && it.productId)
      throw new ValidationError(
        `items[${i}].productId`,
        'not_allowed',
        `items[${i}]: give either variantId or productId, not both`,
      )
    if (!it.variantId && !it.productId)
      throw new ValidationError(
        `items[${i}].variantId`,
        'required',
        `items[${i}] needs a variantId (or a productId for a product without variants)`,
      )
    return {
      variantId: it.variantId ?? null,
      productId: it.variantId ? null : it.productId!,
      quantity: it.quantity,
      at: i,
    }
  })
  const units = lines.reduce((n, l) => n + l.quantity, 0)
  if (units > maxUnits)
    throw new ValidationError(
      'items',
      'out_of_range',
      `An order may hold at most ${maxUnits} units in all; this one has ${units}`,
      { max: maxUnits },
    )
  if (!input.name.trim()) throw new ValidationError('name', 'required', "'name' must not be blank")
  const phone = toE164(input.phone)
  if (!phone)
    throw new ValidationError(
      'phone',
      'invalid_format',
      "'phone' must be a valid phone number in international form, e.g. +14155550100",
    )
  return { phone, lines: mergeLines(lines) }
}

/**
 * Shape, unit cap, phone and Idempotency-Key checks (400), before any store look-up.
 * `maxUnits` is ORDER_MAX_UNITS: one anonymous order can't take a shop's whole stock.
 */
export function prepareOrder(
  input: OrderCreate,
  idempotencyKey: string | undefined,
  maxUnits: number,
  origin?: string,
  source: OrderSource = 'api',
): PendingOrder {
  const { phone, lines: refs } = checkShape(input, maxUnits)
  const o: PendingOrder = {
    input,
    idempotencyKey,
    phone,
    refs,
    hash: dedupHash(phone, refs),
    reqHash: idempotencyKey === undefined ? '' : requestHash(input),
    source,
  }
  if (origin !== undefined) o.origin = origin
  return o
}
