/** How an invoice, and the result of a billing operation, read at the API's edge. */
import type { invoices, Store } from '../../db/schema'
import { toMajor } from '../../lib/money'
import { iso, isoOrNull } from '../../lib/time'

export type Invoice = typeof invoices.$inferSelect

export function invoiceView(i: Invoice) {
  return {
    id: i.id,
    storeId: i.storeId,
    amount: toMajor(i.amount, i.currency),
    currency: i.currency,
    status: i.status,
    attempts: i.attempts,
    maxAttempts: i.maxAttempts,
    nextRetryAt: isoOrNull(i.nextRetryAt),
    dueAt: iso(i.dueAt),
    paidAt: isoOrNull(i.paidAt),
    createdAt: iso(i.createdAt),
    updatedAt: iso(i.updatedAt),
  }
}

export interface BillingResult {
  invoice: Invoice
  store: Store
  /** 'suspended' | 'reinstated' when this operation changed the store's status. */
  storeChange: 'suspended' | 'reinstated' | null
}

export const resultView = (r: BillingResult) => ({
  ...invoiceView(r.invoice),
  store: { id: r.store.id, status: r.store.status, suspendedReason: r.store.suspendedReason },
  storeChange: r.storeChange,
})
