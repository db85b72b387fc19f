/**
 * The parts of the document that no route states: which schemas a client names, the response
 * headers every route sends, and the webhook events the service posts.
 */
import { ORDER_STATUSES } from '../db/schema'

/**
 * Objects a client refers to by name. Every schema with a `title`
 * becomes a component; tests/openapi/document.test.ts requires these ones to exist and to be
 * referenced. A new model joins by its `title` and one line here.
 */
export const NAMED_COMPONENTS = [
  'Store',
  'Product',
  'Variant',
  'ProductImage',
  'Category',
  'Order',
  'OrderItem',
  'Discount',
  'ShippingOption',
  'Review',
  'Customer',
  'Stats',
  'Webhook',
  'WebhookDelivery',
  'Error',
  'PaymentRequired',
  'PlanRequired',
] as const

const ref = (kind: 'schemas' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` })

export const HEADERS = {
  'X-Request-Id': {
    description: 'Identifies this request in the service log; quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current window of the limit this request counted against.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimit: {
    description: 'IETF RateLimit header: `"<policy>";r=<remaining>;t=<seconds until the window resets>`.',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy header: `"<policy>";q=<limit>;w=<window seconds>`.',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotent-Replayed': {
    description: 'Present when this response replays the order first created with the same `Idempotency-Key`.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'RateLimit', 'RateLimit-Policy'] as const

/** The headers of one response. */
export function responseHeaders(
  status: string,
  o: { rateLimited: boolean; idempotent: boolean },
): Record<string, unknown> {
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'X-Request-Id') }
  // A request without a valid key is refused before any limit counts it.
  if (o.rateLimited && status !== '401') for (const h of RATE_LIMIT_HEADERS) headers[h] = ref('headers', h)
  if (status === '429' || status === '503') headers['Retry-After'] = { ...ref('headers', 'Retry-After') }
  if (o.idempotent && /^2/.test(status)) headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed')
  return headers
}

/** Standard Webhooks headers on every delivery. */
const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'Delivery id; the same on every retry of one delivery (deduplicate on it).' },
  { name: 'webhook-timestamp', description: 'Unix seconds when this attempt was signed.' },
  {
    name: 'webhook-signature',
    description: '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint secret.',
  },
].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }))

function envelope(type: string, data: Record<string, unknown>) {
  return {
    type: 'object',
    required: ['type', 'event', 'timestamp', 'storeId', 'data'],
    properties: {
      type: { type: 'string', const: type },
      event: { type: 'string', const: type, description: 'Repeats `type`.' },
      timestamp: { type: 'string', format: 'date-time' },
      storeId: { type: 'string', description: 'The store the event belongs to.' },
      data,
    },
  }
}

const EVENTS: Record<string, { summary: string; data: Record<string, unknown> }> = {
  'order.created': { summary: 'An order was placed', data: ref('schemas', 'Order') },
  'order.updated': {
    summary: "An order's status changed",
    data: {
      type: 'object',
      required: ['id', 'orderNumber', 'previousStatus', 'newStatus', 'updatedAt'],
      properties: {
        id: { type: 'string' },
        orderNumber: { type: 'string' },
        previousStatus: { type: 'string', enum: [...ORDER_STATUSES] },
        newStatus: { type: 'string', enum: [...ORDER_STATUSES] },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    },
  },
  'review.created': { summary: 'A customer left a review (pending moderation)', data: ref('schemas', 'Review') },
}

/** The document's `webhooks` section: one POST per event, as the store's endpoint receives it. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([type, e]) => [
      type,
      {
        post: {
          operationId: `on${type
            .split('.')
            .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
            .join('')}`,
          summary: e.summary,
          description:
            'Sent to every active endpoint subscribed to this event, ' +
            'signed per Standard Webhooks. Answer 2xx within the timeout; ' +
            'anything else is retried with backoff (429/503 `Retry-After` is honoured).',
          tags: ['Webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: envelope(type, e.data) } } },
          responses: {
            '200': { description: 'Received (any 2xx)' },
            '400': { description: 'Refused; the delivery is retried' },
          },
        },
      },
    ]),
  )
}
