/**
 * Invoices with card retries, and the suspension they drive:
 * a failed charge schedules the next retry; an invoice still unpaid after its last retry
 * suspends the store (jobs/billing.ts); a refund or chargeback suspends at once; a recorded
 * payment reinstates. Each operation has a `…Tx` form that runs inside a caller's transaction
 * (the billing-events endpoint records the event id in the same one) and a plain form that
 * runs it in its own write transaction (kernel/write.ts: the store's cached rows drop after commit).
 */
import { and, asc, desc, eq, lte, isNull, or, gte } from 'drizzle-orm'
import { createId } from '../../lib/cuid'
import type { OperatorCtx } from '../../kernel/context'
import type { Runner } from '../../db/client'
import { transaction } from '../../kernel/write'
import { invoices, stores, type Store } from '../../db/schema'
import { recordActivityTx } from '../people'
import { Conflict, NotFound, ValidationError } from '../../lib/errors'
import { isCurrency, toMinor } from '../../lib/money'
import { DAY_MS } from '../../lib/time'
import type { SuspendReason } from '../platform-stores'

import { type BillingResult, type Invoice, invoiceView, resultView } from './views'

export { type BillingResult, type Invoice, invoiceView, resultView }

/** Delay after the n-th failed charge before the next attempt (Stripe-like: 3, 5, 7 days, then weekly). */
export const RETRY_DELAYS_MS = [3 * DAY_MS, 5 * DAY_MS, 7 * DAY_MS]
export const retryDelay = (failures: number) => RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1]!

/** Suspensions that a payment lifts; a `manual` one is the operator's and stays until store:reinstate. */
const BILLING_REASONS = new Set(['unpaid', 'refund', 'chargeback'])

export interface OpenInvoiceInput {
  storeId: string
  /** Major units of `currency`. */
  amount: number
  currency?: string
  maxAttempts?: number
  dueAt?: number
  /** The billing system's own id, so its later events can name the invoice. */
  id?: string
}

function storeRow(tx: Runner, storeId: string): Store {
  const s = tx.select().from(stores).where(eq(stores.id, storeId)).get()
  if (!s) throw new NotFound('Store')
  return s
}

function invoiceRow(tx: Runner, id: string, storeId?: string): Invoice {
  const i = tx.select().from(invoices).where(eq(invoices.id, id)).get()
  if (!i || (storeId !== undefined && i.storeId !== storeId)) throw new NotFound('Invoice')
  return i
}

function badState(i: Invoice, to: string): Conflict {
  return new Conflict('INVALID_INVOICE_STATE', `Invoice is ${i.status}; it can't become ${to}`, { from: i.status, to })
}

function setStore(tx: Runner, storeId: string, now: number, suspend: SuspendReason | null): Store {
  const set = suspend
    ? { status: 'suspended' as const, suspendedReason: suspend, suspendedAt: now, updatedAt: now }
    : { status: 'active' as const, suspendedReason: null, suspendedAt: null, updatedAt: now }
  return tx.update(stores).set(set).where(eq(stores.id, storeId)).returning().get()!
}

/** A step inside the caller's transaction: its runner and its time. */
export type TxStep = { db: Runner; now: number }
/** Which invoice: its id, and the store it must belong to when the caller knows it. */
export type InvoiceRef = { invoiceId: string; storeId?: string }

export function openInvoiceTx({
  ctx: { db: tx, now },
  input,
}: {
  ctx: TxStep
  input: OpenInvoiceInput
}): BillingResult {
  const store = storeRow(tx, input.storeId)
  const currency = (input.currency ?? 'USD').toUpperCase()
  if (!isCurrency(currency))
    throw new ValidationError('currency', 'invalid_format', 'currency must be an ISO 4217 code')
  if (!Number.isFinite(input.amount) || input.amount <= 0)
    throw new ValidationError('amount', 'out_of_range', 'amount must be a positive number')
  const maxAttempts = input.maxAttempts ?? 4
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 20)
    throw new ValidationError('maxAttempts', 'out_of_range', 'maxAttempts must be an integer 1–20')
  if (input.id !== undefined && tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.id, input.id)).get()) {
    throw new Conflict('DUPLICATE_INVOICE', `Invoice '${input.id}' already exists`, { field: 'invoiceId' })
  }
  const invoice = tx
    .insert(invoices)
    .values({
      id: input.id ?? createId(),
      storeId: store.id,
      amount: toMinor(input.amount, currency, 'amount'),
      currency,
      status: 'open',
      attempts: 0,
      maxAttempts,
      nextRetryAt: null,
      dueAt: input.dueAt ?? now,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
  return { invoice, store, storeChange: null }
}

/**
 * A failed card charge: attempts + 1. Before the last attempt the next retry is scheduled; after
 * it `nextRetryAt` is null and the invoice is overdue: the billing sweep suspends the store.
 */
export function recordFailedChargeTx({
  ctx: { db: tx, now },
  input: { invoiceId, storeId },
}: {
  ctx: TxStep
  input: InvoiceRef
}): BillingResult {
  const i = invoiceRow(tx, invoiceId, storeId)
  if (i.status !== 'open') throw badState(i, 'failed')
  const attempts = i.attempts + 1
  const nextRetryAt = attempts < i.maxAttempts ? now + retryDelay(attempts) : null
  const invoice = tx
    .update(invoices)
    .set({ attempts, nextRetryAt, updatedAt: now })
    .where(eq(invoices.id, i.id))
    .returning()
    .get()!
  return { invoice, store: storeRow(tx, i.storeId), storeChange: null }
}

/**
 * The invoice is paid. A store suspended for billing (unpaid, refund, chargeback) is active
 * again unless another of its invoices is still overdue; a `manual` suspension stays.
 */
export function recordPaymentTx({
  ctx: { db: tx, now },
  input: { invoiceId, storeId },
}: {
  ctx: TxStep
  input: InvoiceRef
}): BillingResult {
  const i = invoiceRow(tx, invoiceId, storeId)
  if (i.status !== 'open') throw badState(i, 'paid')
  const invoice = tx
    .update(invoices)
    .set({ status: 'paid', paidAt: now, nextRetryAt: null, updatedAt: now })
    .where(eq(invoices.id, i.id))
    .returning()
    .get()!
  let store = storeRow(tx, i.storeId)
  let storeChange: BillingResult['storeChange'] = null
  if (
    store.status === 'suspended' &&
    BILLING_REASONS.has(store.suspendedReason ?? '') &&
    overdue({ ctx: { db: tx, now }, input: { storeId: store.id } }).length === 0
  ) {
    store = setStore(tx, store.id, now, null)
    storeChange = 'reinstated'
  }
  return { invoice, store, storeChange }
}

function reverseTx(
  tx: Runner,
  now: number,
  invoiceId: string,
  to: 'refunded' | 'charged_back',
  storeId?: string,
): BillingResult {
  const i = invoiceRow(tx, invoiceId, storeId)
  // A chargeback can follow a refund dispute; nothing else reverses twice.
  const allowed = to === 'refunded' ? i.status === 'paid' : i.status === 'paid' || i.status === 'refunded'
  if (!allowed) throw badState(i, to)
  const invoice = tx
    .update(invoices)
    .set({ status: to, updatedAt: now })
    .where(eq(invoices.id, i.id))
    .returning()
    .get()!
  let store = storeRow(tx, i.storeId)
  let storeChange: BillingResult['storeChange'] = null
  const reason: SuspendReason = to === 'refunded' ? 'refund' : 'chargeback'
  if (store.status !== 'suspended' || store.suspendedReason !== 'manual') {
    storeChange = store.status === 'suspended' ? null : 'suspended'
    store = setStore(tx, store.id, now, reason)
  }
  return { invoice, store, storeChange }
}

/** A full refund suspends the store at once. */
export const recordRefundTx = ({ ctx, input }: { ctx: TxStep; input: InvoiceRef }) =>
  reverseTx(ctx.db, ctx.now, input.invoiceId, 'refunded', input.storeId)
/** A chargeback suspends the store at once. */
export const recordChargebackTx = ({ ctx, input }: { ctx: TxStep; input: InvoiceRef }) =>
  reverseTx(ctx.db, ctx.now, input.invoiceId, 'charged_back', input.storeId)

/** Open invoices of a store (or of all stores) still unpaid after their last retry. */
export function overdue({
  ctx: { db: tx, now },
  input: { storeId } = {},
}: {
  ctx: TxStep
  input?: { storeId?: string }
}): Invoice[] {
  return tx
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'open'),
        gte(invoices.attempts, invoices.maxAttempts),
        or(isNull(invoices.nextRetryAt), lte(invoices.nextRetryAt, now)),
        storeId === undefined ? undefined : eq(invoices.storeId, storeId),
      ),
    )
    .all()
}

/** Suspends (reason `unpaid`) every active store with an overdue invoice. Returns their ids. */
export function suspendOverdueTx({ ctx: { db: tx, now } }: { ctx: TxStep }): string[] {
  const storeIds = [...new Set(overdue({ ctx: { db: tx, now } }).map((i) => i.storeId))]
  const suspended: string[] = []
  for (const id of storeIds) {
    const s = storeRow(tx, id)
    if (s.status !== 'active') continue
    setStore(tx, id, now, 'unpaid')
    suspended.push(id)
  }
  return suspended
}

/**
 * A `…Tx` operation in its own write transaction; with an operator actor (the CLI) its activity
 * line is written in that transaction.
 */
function run<I>(verb: string, fn: (step: { ctx: TxStep; input: I }) => BillingResult) {
  return ({ ctx, input }: { ctx: OperatorCtx; input: I }): BillingResult =>
    transaction(
      ctx.db,
      (tx) => {
        const now = ctx.clock.now()
        const r = fn({ ctx: { db: tx, now }, input })
        if (ctx.actor)
          recordActivityTx(tx, now, {
            storeId: r.store.id,
            actor: ctx.actor,
            verb,
            recordType: 'invoice',
            recordId: r.invoice.id,
          })
        return r
      },
      (r) => [r.store.id],
    )
}

export const openInvoice = run('create', openInvoiceTx)
export const recordFailedCharge = run('record failed charge', recordFailedChargeTx)
export const recordPayment = run('record payment', recordPaymentTx)
export const recordRefund = run('refund', recordRefundTx)
export const recordChargeback = run('record chargeback', recordChargebackTx)

export function listInvoices({
  ctx: { db },
  input: { storeId },
}: {
  ctx: { db: Runner }
  input: { storeId: string }
}): Invoice[] {
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.storeId, storeId))
    .orderBy(desc(invoices.createdAt), asc(invoices.id))
    .all()
}
