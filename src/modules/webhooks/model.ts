import { t } from 'elysia'
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../../db/schema'

export { WEBHOOK_EVENTS }
import { Id, Pagination, Timestamp } from '../shared'

const EventName = t.Union([t.Literal('order.created'), t.Literal('order.updated'), t.Literal('review.created')], {
  error: `events must be among ${WEBHOOK_EVENTS.join(', ')}`,
  description: 'An event type',
})

const DeliveryStatus = t.Union([
  t.Literal('pending'),
  t.Literal('sending'),
  t.Literal('succeeded'),
  t.Literal('failed'),
])

export const Webhook = t.Object(
  {
    id: Id,
    url: t.String(),
    events: t.Array(t.String()),
    isActive: t.Boolean(),
    disabledReason: t.Nullable(
      t.String({ description: 'Why the service disabled the endpoint (410 Gone, failing for days); null otherwise' }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Webhook' },
)

export const WebhookWithSecret = t.Object(
  {
    ...Webhook.properties,
    secret: t.String({ description: '`whsec_` + base64. Shown only in the create and rotate-secret responses' }),
  },
  { title: 'WebhookWithSecret' },
)

const Url = t.String({ minLength: 1, maxLength: 2048, description: 'Public https URL that receives POSTs' })

export const WebhookCreate = t.Object({
  url: Url,
  events: t.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length * 4 }),
  isActive: t.Optional(t.Boolean()),
})

export const WebhookUpdate = t.Partial(WebhookCreate)

export const WebhookListQuery = t.Object({ ...Pagination })

export const Delivery = t.Object(
  {
    id: t.String({ description: 'Also the `webhook-id` header, stable across retries' }),
    webhookId: Id,
    eventType: t.String(),
    status: DeliveryStatus,
    attempts: t.Integer(),
    lastResponseCode: t.Nullable(t.Integer()),
    lastLatencyMs: t.Nullable(t.Integer()),
    lastError: t.Nullable(t.String()),
    nextAttemptAt: t.Nullable(Timestamp),
    deliveredAt: t.Nullable(Timestamp),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WebhookDelivery' },
)

export const DeliveryListQuery = t.Object({
  ...Pagination,
  status: t.Optional(
    t.Union([t.Literal('pending'), t.Literal('sending'), t.Literal('succeeded'), t.Literal('failed')], {
      error: `status must be one of ${DELIVERY_STATUSES.join(', ')}`,
    }),
  ),
})

export const DeliveryParams = t.Object({ id: Id, deliveryId: t.String({ minLength: 1, maxLength: 80 }) })

export type WebhookCreate = typeof WebhookCreate.static
export type WebhookUpdate = typeof WebhookUpdate.static
export type WebhookListQuery = typeof WebhookListQuery.static
export type DeliveryListQuery = typeof DeliveryListQuery.static
