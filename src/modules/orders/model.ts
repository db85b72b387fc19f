import { t } from 'elysia'
import { ORDER_STATUSES } from '../../db/schema'
import { Id, Pagination, Since, Timestamp } from '../shared'

const STATUS_TEXT = `status must be one of ${ORDER_STATUSES.join(', ')}`
// Not t.UnionEnum: it sets `default` to the first value, so a missing status would read as 'pending'.
export const OrderStatus = t.Union(
  [t.Literal('pending'), t.Literal('confirmed'), t.Literal('shipped'), t.Literal('delivered'), t.Literal('cancelled')],
  { error: STATUS_TEXT, description: ORDER_STATUSES.join(' | ') },
)
export type OrderStatus = (typeof ORDER_STATUSES)[number]

export const MAX_QUANTITY = 10_000

// ---- Public checkout ----

const OrderLineInput = t.Object({
  variantId: t.Optional(Id),
  productId: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      description: 'Only for a product without active variants; give exactly one of variantId / productId',
    }),
  ),
  quantity: t.Integer({ minimum: 1, maximum: MAX_QUANTITY }),
})

export const OrderCreate = t.Object({
  storeId: Id,
  name: t.String({ minLength: 1, maxLength: 200 }),
  phone: t.String({ minLength: 1, maxLength: 40, description: 'Any valid international number; stored as E.164' }),
  address: t.Optional(t.Nullable(t.String({ maxLength: 1000 }))),
  items: t.Array(OrderLineInput, { minItems: 1, maxItems: 100 }),
  notes: t.Optional(t.Nullable(t.String({ maxLength: 2000 }))),
  shippingOptionId: t.Optional(t.Nullable(Id)),
  discountCode: t.Optional(t.Nullable(t.String({ minLength: 1, maxLength: 64 }))),
})

export const OrderCreated = t.Object(
  {
    id: Id,
    orderNumber: t.String({ description: 'ORD- and six digits' }),
    total: t.Number({ description: 'Items + shipping − discount, in major units of `currency`' }),
    currency: t.String({ description: 'ISO 4217' }),
    whatsappUrl: t.Nullable(
      t.String({
        description:
          'https://wa.me link with the rendered store template and the status page link; ' +
          'null when the store has no WhatsApp number',
      }),
    ),
    statusUrl: t.String({
      description:
        "The customer's order status page (/s/:slug/orders/<token>): lines, total and status timeline; " +
        'the token is 256 random bits, not the order id',
    }),
  },
  { title: 'OrderCreated' },
)

// ---- Views ----

export const OrderItemListForm = t.Object(
  {
    productName: t.String(),
    variantName: t.Nullable(t.String()),
    quantity: t.Integer(),
    unitPrice: t.Number(),
    subtotal: t.Number(),
  },
  { title: 'OrderItemListForm' },
)

export const OrderItem = t.Object(
  {
    productId: t.String(),
    productName: t.String(),
    variantId: t.Nullable(t.String()),
    variantName: t.Nullable(t.String()),
    quantity: t.Integer(),
    unitPrice: t.Number(),
    subtotal: t.Number(),
  },
  { title: 'OrderItem' },
)

/** List form: omits customerAddress, shippingOption, updatedAt and item ids. */
export const OrderListForm = t.Object(
  {
    id: Id,
    orderNumber: t.String(),
    status: OrderStatus,
    customerName: t.String(),
    customerPhone: t.String({ description: 'E.164' }),
    items: t.Array(OrderItemListForm),
    total: t.Number(),
    currency: t.String({ description: 'ISO 4217 (addition to the spec)' }),
    notes: t.Nullable(t.String()),
    createdAt: Timestamp,
  },
  { title: 'OrderListForm' },
)

export const Order = t.Object(
  {
    id: Id,
    orderNumber: t.String(),
    status: OrderStatus,
    customerId: t.Nullable(t.String()),
    customerName: t.String(),
    customerPhone: t.String({ description: 'E.164' }),
    customerAddress: t.Nullable(t.String()),
    items: t.Array(OrderItem),
    subtotal: t.Number({ description: "Items' subtotal, before shipping and discount" }),
    shippingOption: t.Nullable(t.Object({ name: t.String(), price: t.Number() })),
    discount: t.Nullable(t.Object({ code: t.String(), amount: t.Number() })),
    total: t.Number(),
    currency: t.String(),
    notes: t.Nullable(t.String()),
    tracking: t.Nullable(
      t.Object(
        {
          number: t.Nullable(t.String()),
          url: t.Nullable(t.String({ description: 'https: link to the carrier’s tracking page' })),
        },
        { description: 'What the seller gave when marking the order shipped; null when nothing was given' },
      ),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Order' },
)

export const OrderListQuery = t.Object({
  ...Pagination,
  ...Since,
  status: t.Optional(OrderStatus),
})

export const MAX_TRACKING_NUMBER = 100
export const MAX_TRACKING_URL = 2000

export const StatusUpdate = t.Object({
  status: OrderStatus,
  trackingNumber: t.Optional(
    t.String({
      minLength: 1,
      maxLength: MAX_TRACKING_NUMBER,
      description: 'Only with status "shipped" (400 otherwise): the carrier’s tracking number',
    }),
  ),
  trackingUrl: t.Optional(
    t.String({
      minLength: 1,
      maxLength: MAX_TRACKING_URL,
      description: 'Only with status "shipped" (400 otherwise): an https: link to follow the parcel',
    }),
  ),
})

export type OrderCreate = typeof OrderCreate.static
export type OrderListQuery = typeof OrderListQuery.static
export type StatusUpdate = typeof StatusUpdate.static
