import { Elysia, t } from 'elysia'
import { access } from '../../plugins/access'
import { ErrorBody, publicErrors } from '../shared'
import { prepareOrder } from './checkout/prepare'
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from './idempotency'
import { OrderCreate, OrderCreated } from './model'
import { orderSourceOf } from './source'
import type { Config } from '../../config'
import type { CheckoutResult } from './checkout/place'
import type { PendingOrder } from './checkout/prepare'

/**
 * What the public checkout reaches: its two settings and the
 * group-commit batcher that places orders (src/checkout-batcher.ts).
 */
export interface CheckoutPort {
  config: Pick<Config, 'publicUrl' | 'orderMaxUnits'>
  checkout: { submit(order: PendingOrder): Promise<CheckoutResult> }
}

const DESCRIPTION = [
  'No API key; 10 requests per minute per client IP (every request counts).',
  'Checks: 429 → 400 body → 402 suspended store → 404 unknown, unpublished or maintenance store → 400 references',
  '(`details.field` e.g. `items[0].variantId`, `shippingOptionId`, `discountCode`; ' +
    '`details.reason` `not_found`, `inactive`, `expired`,',
  '`exhausted` (maxUses reached), `below_minimum` (items subtotal under minOrderAmount)).',
  'Each line names `variantId`, or `productId` for a product without active variants. Prices come from the catalog.',
  'The same phone with the same items within 5 minutes → 409 DUPLICATE_ORDER.',
  'Optional `Idempotency-Key` header (1–255 chars, per store, 24 h): ' +
    'a retry with the same body gets the first 201 again with',
  '`Idempotent-Replayed: true`; the same key with another body → 409 IDEMPOTENCY_KEY_REUSED.',
].join(' ')

export const publicOrderRoutes = (port: CheckoutPort) =>
  new Elysia({ name: 'orders-public' }).use(access).post(
    '/api/orders',
    async ({ body, request, set }) => {
      const key = parseIdempotencyKey(request.headers.get(IDEMPOTENCY_HEADER))
      const origin = port.config.publicUrl?.replace(/\/$/, '') ?? new URL(request.url).origin
      const result = await port.checkout.submit(
        prepareOrder(body, key, port.config.orderMaxUnits, origin, orderSourceOf(request)),
      )
      set.status = result.status
      if (result.replayed) set.headers['idempotent-replayed'] = 'true'
      return result.body
    },
    {
      access: { public: 'orders' },
      body: OrderCreate,
      headers: t.Object({ 'idempotency-key': t.Optional(t.String({ description: 'Optional; 1–255 characters' })) }),
      response: { 201: OrderCreated, ...publicErrors, 409: ErrorBody, 413: ErrorBody },
      detail: { tags: ['Public'], summary: 'Place an order (public checkout)', description: DESCRIPTION },
    },
  )
