import { Elysia, t } from 'elysia'
import { access } from '../../plugins/access'
import { ErrorBody } from '../shared'
import type { CtxBase } from '../../kernel/context'
import type { Logger } from '../../lib/log'
import { applyBillingEvent, EndpointDisabled, parseEvent, verifySignature } from './events'

const InvoiceResult = t.Object({
  id: t.String(),
  storeId: t.String(),
  amount: t.Number(),
  currency: t.String(),
  status: t.String(),
  attempts: t.Integer(),
  maxAttempts: t.Integer(),
  nextRetryAt: t.Nullable(t.String()),
  dueAt: t.String(),
  paidAt: t.Nullable(t.String()),
  createdAt: t.String(),
  updatedAt: t.String(),
  store: t.Object({ id: t.String(), status: t.String(), suspendedReason: t.Nullable(t.String()) }),
  storeChange: t.Nullable(t.String()),
})

/** What the billing endpoint reaches: the operator ctx base (its settings hold the signing secret) and the log. */
export type BillingPort = CtxBase & { log: Logger }

/** `POST /api/billing/events`: no API key; HMAC-signed by the operator's billing system. */
export const billingRoutes = (port: BillingPort) =>
  new Elysia({ name: 'billing-events' }).use(access).post(
    '/api/billing/events',
    ({ request, body }) => {
      const secret = port.config.billingWebhookSecret
      if (!secret) throw new EndpointDisabled()
      // The signature covers the exact bytes: verified over the raw text, parsed after.
      verifySignature(secret, request.headers, body, port.clock.now(), port.config.billingToleranceSec)
      const data = applyBillingEvent({ ctx: port, input: parseEvent(body) })
      const { storeChange, store } = data.invoice
      if (storeChange)
        port.log.info(`store ${storeChange} by billing event`, {
          storeId: store.id,
          eventId: data.eventId,
          type: data.type,
        })
      return { data }
    },
    {
      // Authenticated by its signature, limited like any anonymous caller.
      access: { public: 'anonymous' },
      // The signature covers the exact bytes: take the body as text and parse it after verifying.
      parse: 'text',
      body: t.String({
        description: 'JSON event `{ id, type, storeId, invoiceId?, amount?, currency?, maxAttempts? }`',
      }),
      response: {
        200: t.Object({ data: t.Object({ eventId: t.String(), type: t.String(), invoice: InvoiceResult }) }),
        400: ErrorBody,
        401: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        429: ErrorBody,
        500: ErrorBody,
      },
      detail: {
        tags: ['Public'],
        summary: 'Billing events from the operator’s billing system',
        description:
          'No API key. Signed: `X-Billing-Timestamp: <unix seconds>` and `X-Billing-Signature: ' +
          'v1=<hex HMAC-SHA256 of "timestamp.rawBody" with BILLING_WEBHOOK_SECRET>`. ' +
          'Types `invoice.created` (needs `amount`, major units), `invoice.payment_failed`, ' +
          '`invoice.paid`, `invoice.refunded`, `invoice.charged_back`. ' +
          'Bad or missing signature, or a timestamp outside BILLING_TOLERANCE_SEC → 401; ' +
          'an event id seen before → 409 EVENT_REPLAYED; 404 when BILLING_WEBHOOK_SECRET is unset. ' +
          'A refund or chargeback suspends the store at once; a payment reinstates it.',
      },
    },
  )
