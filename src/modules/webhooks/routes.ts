import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { data, Deleted, IdParams, list, withConflict, withNotFound, routeDoc } from '../shared'
import {
  Delivery,
  DeliveryListQuery,
  DeliveryParams,
  Webhook,
  WebhookCreate,
  WebhookListQuery,
  WebhookUpdate,
  WebhookWithSecret,
} from './model'
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  rotateSecret,
  updateWebhook,
} from './service'

const doc = routeDoc('Webhooks')
const read = { scope: 'webhooks:read', owns: 'webhooks' } as const
const write = { scope: 'webhooks:write', owns: 'webhooks' } as const

const URL_RULE =
  ' The URL must be https and resolve only to public addresses: loopback, private, link-local, CGNAT, ' +
  'unique-local and similar ranges are refused with 400 `details.reason: "private_address"`; ' +
  'a host that does not resolve gives `reason: "not_found"`; plain http gives `reason: ' +
  '"invalid_format"` (a server run with `WEBHOOK_ALLOW_PRIVATE=1`, for local testing, accepts both).'

export const webhookRoutes = new Elysia({ prefix: '/api/v1/webhooks' })
  .use(access)
  .get('', ({ ctx, query }) => listWebhooks({ ctx, input: query }), {
    access: { scope: 'webhooks:read' },
    query: WebhookListQuery,
    response: { 200: list(Webhook), ...withNotFound },
    detail: doc('List webhook endpoints, newest first'),
  })
  .get('/:id', ({ ctx, params }) => ({ data: getWebhook({ ctx, input: { id: params.id } }) }), {
    access: read,
    params: IdParams,
    response: { 200: data(Webhook), ...withNotFound },
    detail: doc('Get a webhook endpoint'),
  })
  .post(
    '',
    async ({ ctx, body, set }) => {
      set.status = 201
      return { data: await createWebhook({ ctx, input: body }) }
    },
    {
      access: { scope: 'webhooks:write' },
      body: WebhookCreate,
      response: { 201: data(WebhookWithSecret), ...withConflict },
      detail: doc(
        'Register a webhook endpoint',
        ` Events: \`order.created\`, \`order.updated\`, \`review.created\` (non-empty, ` +
          `no repeats). The answer carries the signing \`secret\` (\`whsec_…\`); ` +
          `it is never shown again. A store has at most \`WEBHOOK_MAX_PER_STORE\` (20) endpoints: beyond, ` +
          `409 \`LIMIT_REACHED\` with \`details.limit\`.${URL_RULE}`,
      ),
    },
  )
  .put(
    '/:id',
    async ({ ctx, params, body }) => ({ data: await updateWebhook({ ctx, input: { ...body, id: params.id } }) }),
    {
      access: write,
      params: IdParams,
      body: WebhookUpdate,
      response: { 200: data(Webhook), ...withNotFound },
      detail: doc(
        'Update a webhook endpoint (partial)',
        ` Setting \`isActive: true\` re-enables an endpoint the service disabled and clears ` +
          `\`disabledReason\`.${URL_RULE}`,
      ),
    },
  )
  .delete('/:id', ({ ctx, params }) => ({ data: deleteWebhook({ ctx, input: { id: params.id } }) }), {
    access: write,
    params: IdParams,
    response: { 200: Deleted, ...withNotFound },
    detail: doc('Delete a webhook endpoint and its delivery log'),
  })
  .post('/:id/rotate-secret', ({ ctx, params }) => ({ data: rotateSecret({ ctx, input: { id: params.id } }) }), {
    access: write,
    params: IdParams,
    response: { 200: data(WebhookWithSecret), ...withNotFound },
    detail: doc(
      'Rotate the signing secret',
      ' Returns the new secret (shown only here). The previous secret keeps signing for an overlap (24 h ' +
        'by default): `webhook-signature` then carries two space-separated `v1,` signatures.',
    ),
  })
  .get(
    '/:id/deliveries',
    ({ ctx, params, query }) => listDeliveries({ ctx, input: { ...query, webhookId: params.id } }),
    {
      access: read,
      params: IdParams,
      query: DeliveryListQuery,
      response: { 200: list(Delivery), ...withNotFound },
      detail: doc(
        'Delivery log of an endpoint, newest first',
        ' One row per event: status, attempts, last response code, latency and error, ' +
          'next attempt. Events not yet taken up by the dispatcher are listed as pending (attempts 0) ' +
          'under the id they will be sent with; reading never changes anything.',
      ),
    },
  )
  .post(
    '/:id/deliveries/:deliveryId/retry',
    ({ ctx, params, set }) => {
      set.status = 202
      return { data: retryDelivery({ ctx, input: { webhookId: params.id, deliveryId: params.deliveryId } }) }
    },
    {
      access: write,
      params: DeliveryParams,
      response: { 202: data(Delivery), ...withNotFound },
      detail: doc(
        'Replay a delivery',
        ' Sends the same body with the same `webhook-id` again, at once; ' +
          'the delivery starts over (attempts 0, the retry schedule applies again).',
      ),
    },
  )
