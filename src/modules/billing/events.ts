/**
 * The signed billing-events endpoint for the operator's billing system. Authentication is an
 * HMAC-SHA256 over `${timestamp}.${rawBody}` with BILLING_WEBHOOK_SECRET, sent as
 * `X-Billing-Signature: v1=<hex>` (several comma-separated `v1=` values are accepted, for secret
 * rotation) with `X-Billing-Timestamp: <unix seconds>` within BILLING_TOLERANCE_SEC of now.
 * Each event id is applied once: the id is recorded in the transaction that applies the event,
 * and a replay is refused with 409 EVENT_REPLAYED.
 */
import { createHmac, timingSafeEqual } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import type { Runner } from '../../db/client'
import { transaction } from '../../kernel/write'
import { billingEvents } from '../../db/schema'
import { AppError, Conflict, NotFound, Unauthorized, ValidationError } from '../../lib/errors'
import {
  openInvoiceTx,
  recordChargebackTx,
  recordFailedChargeTx,
  recordPaymentTx,
  recordRefundTx,
  resultView,
  type BillingResult,
} from './service'

export const BILLING_EVENT_TYPES = [
  'invoice.created',
  'invoice.payment_failed',
  'invoice.paid',
  'invoice.refunded',
  'invoice.charged_back',
] as const
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number]

export interface BillingEvent {
  id: string
  type: BillingEventType
  storeId: string
  invoiceId?: string
  amount?: number
  currency?: string
  maxAttempts?: number
}

export class EndpointDisabled extends AppError {
  constructor() {
    super('NOT_FOUND', 'Endpoint not found')
  }
}

export function sign(secret: string, timestamp: string | number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')
}

/** Checks the timestamp window and the signature in constant time; throws 401 otherwise. */
export function verifySignature(
  secret: string,
  headers: Headers,
  rawBody: string,
  nowMs: number,
  toleranceSec: number,
): void {
  const ts = headers.get('x-billing-timestamp') ?? ''
  const header = headers.get('x-billing-signature') ?? ''
  if (!/^\d{1,12}$/.test(ts)) throw new Unauthorized('Missing or malformed X-Billing-Timestamp')
  if (Math.abs(nowMs / 1000 - Number(ts)) > toleranceSec)
    throw new Unauthorized('X-Billing-Timestamp is outside the allowed window')
  const expected = Buffer.from(sign(secret, ts, rawBody), 'hex')
  const candidates = header
    .split(/[,\s]+/)
    .filter((p) => p.startsWith('v1='))
    .map((p) => p.slice(3))
  let ok = false
  for (const c of candidates) {
    if (!/^[0-9a-fA-F]{64}$/.test(c)) continue
    // No early exit: every candidate is compared.
    ok = timingSafeEqual(Buffer.from(c, 'hex'), expected) || ok
  }
  if (!ok) throw new Unauthorized('Invalid X-Billing-Signature')
}

const str = (v: unknown, field: string, max: number, required: boolean): string | undefined => {
  if (v === undefined || v === null) {
    if (required) throw new ValidationError(field, 'required')
    return undefined
  }
  if (typeof v !== 'string') throw new ValidationError(field, 'invalid_type')
  if (v.length < 1 || v.length > max) throw new ValidationError(field, 'out_of_range')
  return v
}

export function parseEvent(rawBody: string): BillingEvent {
  let body: unknown
  try {
    body = JSON.parse(rawBody)
  } catch {
    throw new ValidationError('body', 'invalid_json', 'Request body is not valid JSON')
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ValidationError('body', 'invalid_type')
  const b = body as Record<string, unknown>
  const id = str(b.id, 'id', 255, true)!
  const type = str(b.type, 'type', 64, true)!
  if (!(BILLING_EVENT_TYPES as readonly string[]).includes(type))
    throw new ValidationError('type', 'invalid_format', `type must be one of ${BILLING_EVENT_TYPES.join(', ')}`)
  const storeId = str(b.storeId, 'storeId', 64, true)!
  const invoiceId = str(b.invoiceId, 'invoiceId', 255, type !== 'invoice.created')
  const currency = str(b.currency, 'currency', 3, false)
  let amount: number | undefined
  if (b.amount !== undefined && b.amount !== null) {
    if (typeof b.amount !== 'number' || !Number.isFinite(b.amount)) throw new ValidationError('amount', 'invalid_type')
    amount = b.amount
  }
  if (type === 'invoice.created' && amount === undefined) throw new ValidationError('amount', 'required')
  let maxAttempts: number | undefined
  if (b.maxAttempts !== undefined && b.maxAttempts !== null) {
    if (typeof b.maxAttempts !== 'number' || !Number.isInteger(b.maxAttempts))
      throw new ValidationError('maxAttempts', 'invalid_type')
    maxAttempts = b.maxAttempts
  }
  return { id, type: type as BillingEventType, storeId, invoiceId, amount, currency, maxAttempts }
}

function apply(tx: Runner, now: number, e: BillingEvent): BillingResult {
  switch (e.type) {
    case 'invoice.created':
      return openInvoiceTx({
        ctx: { db: tx, now },
        input: {
          storeId: e.storeId,
          id: e.invoiceId,
          amount: e.amount!,
          currency: e.currency,
          maxAttempts: e.maxAttempts,
        },
      })
    case 'invoice.payment_failed':
      return recordFailedChargeTx({ ctx: { db: tx, now }, input: { invoiceId: e.invoiceId!, storeId: e.storeId } })
    case 'invoice.paid':
      return recordPaymentTx({ ctx: { db: tx, now }, input: { invoiceId: e.invoiceId!, storeId: e.storeId } })
    case 'invoice.refunded':
      return recordRefundTx({ ctx: { db: tx, now }, input: { invoiceId: e.invoiceId!, storeId: e.storeId } })
    case 'invoice.charged_back':
      return recordChargebackTx({ ctx: { db: tx, now }, input: { invoiceId: e.invoiceId!, storeId: e.storeId } })
  }
}

/**
 * Applies one verified, parsed event (the route verifies the signature over the raw bytes and
 * parses them: HTTP stays at the route); the event id and its effect commit together.
 */
export function applyBillingEvent({ ctx, input: event }: { ctx: Pick<Ctx, 'db' | 'clock'>; input: BillingEvent }) {
  const now = ctx.clock.now()
  const result = transaction(
    ctx.db,
    (tx) => {
      if (tx.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, event.id)).get()) {
        throw new Conflict('EVENT_REPLAYED', `Event '${event.id}' was already applied`, { eventId: event.id })
      }
      const r = apply(tx, now, event)
      if (r.store.id !== event.storeId) throw new NotFound('Invoice')
      tx.insert(billingEvents).values({ id: event.id, storeId: event.storeId, type: event.type, receivedAt: now }).run()
      return r
    },
    (r) => [r.store.id],
  )
  return { eventId: event.id, type: event.type, invoice: resultView(result) }
}
