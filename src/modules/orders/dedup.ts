/**
 * Duplicate detection: same store, same E.164 phone and the same multiset of
 * (variant or product, quantity) within 5 minutes. Lines are sorted into a canonical form so
 * their order in the body doesn't matter; the hash goes into `orders.dedup_hash`, compared
 * among the customer's (store, phone) orders of the window (sql/checkout.ts).
 */
import { createHash } from 'node:crypto'

export const DEDUP_WINDOW_MS = 5 * 60_000

export interface LineRef {
  variantId?: string | null
  productId?: string | null
  quantity: number
  /** The line's index in the request body, for error fields after lines are merged. */
  at?: number
}

/** `v:<variantId>:<qty>` / `p:<productId>:<qty>`, sorted: equal multisets give equal lists. */
export function canonicalLines(lines: readonly LineRef[]): string[] {
  return lines.map((l) => (l.variantId ? `v:${l.variantId}:${l.quantity}` : `p:${l.productId}:${l.quantity}`)).sort()
}

export function dedupHash(phoneE164: string, lines: readonly LineRef[]): string {
  return createHash('sha256')
    .update(`${phoneE164}\n${canonicalLines(lines).join('\n')}`)
    .digest('hex')
}
