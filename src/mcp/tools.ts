/**
 * The 34 assistant tools as data: each maps a flat input
 * (`{ id, status }`, `{ limit, offset }`, the resource's fields) to one HTTP request of the API.
 *
 * Input schemas are JSON Schema built from the API's own request schemas (`model.ts` of each
 * module, TypeBox = JSON Schema), so a tool accepts what the endpoint accepts. The API stays the
 * authority: it validates again and its 400 comes back as a tool error naming the field.
 */
import { OrderListQuery, StatusUpdate } from '../modules/orders'
import { DiscountCreate, DiscountListQuery, DiscountUpdate } from '../modules/discounts'
import { ReviewListQuery, ReviewModerate } from '../modules/reviews'
import { CustomerGetQuery, CustomerListQuery } from '../modules/customers'
import { StatsQuery } from '../modules/stats'
import { ShippingCreate, ShippingListQuery, ShippingUpdate } from '../modules/shipping'
import { CheckSlugQuery } from '../modules/public-catalog'
import { WebhookCreate, WebhookListQuery, WebhookUpdate } from '../modules/webhooks'
import { IdempotencyKey, LIST, OrderCreateInput, tool, type ToolDef } from './tool-def'
import { CATALOG_TOOLS } from './tools-catalog'

export { toJsonSchema, type HttpMethod, type JsonSchemaObject, type ToolAnnotations, type ToolDef } from './tool-def'

export const TOOLS: ToolDef[] = [
  ...CATALOG_TOOLS,
  tool({
    name: 'list_orders',
    title: 'List orders',
    summary:
      'List orders, newest first, optionally by status (pending, confirmed, shipped, delivered, ' +
      `cancelled) and createdSince/updatedSince. ${LIST}`,
    method: 'GET',
    path: '/api/v1/orders',
    query: OrderListQuery,
  }),
  tool({
    name: 'get_order',
    title: 'Get an order',
    summary:
      'Get one order by id in detail form: items with product/variant ids, customer address, ' +
      'shipping option, timestamps.',
    method: 'GET',
    path: '/api/v1/orders/:id',
  }),
  tool({
    name: 'update_order_status',
    title: 'Change an order status',
    summary:
      'Move an order to its next status: pending→confirmed→shipped→delivered, ' +
      'or cancelled from any state before delivered. Any other move → 409 INVALID_STATUS_TRANSITION with ' +
      'details { from, to }.',
    method: 'PUT',
    path: '/api/v1/orders/:id/status',
    body: StatusUpdate,
  }),

  tool({
    name: 'list_discounts',
    title: 'List discounts',
    summary: `List discount codes, newest first; all of them unless isActive is "true" or "false". ${LIST}`,
    method: 'GET',
    path: '/api/v1/discounts',
    query: DiscountListQuery,
  }),
  tool({
    name: 'create_discount',
    title: 'Create a discount',
    summary:
      'Create a discount code (2–40 letters, digits, _ or -): type percentage (value in (0, ' +
      '100]) or fixed (amount in major units), optional minOrderAmount, maxUses, ' +
      'expiresAt (ISO). Codes are unique per store, case-insensitive (409 DUPLICATE_CODE).',
    method: 'POST',
    path: '/api/v1/discounts',
    body: DiscountCreate,
  }),
  tool({
    name: 'update_discount',
    title: 'Update a discount',
    summary: 'Partially update a discount by id.',
    method: 'PUT',
    path: '/api/v1/discounts/:id',
    body: DiscountUpdate,
  }),
  tool({
    name: 'delete_discount',
    title: 'Delete a discount',
    summary: 'Delete a discount by id.',
    method: 'DELETE',
    path: '/api/v1/discounts/:id',
  }),

  tool({
    name: 'list_reviews',
    title: 'List reviews',
    summary: `List product reviews, optionally by status (pending, approved, rejected) and productId. ${LIST}`,
    method: 'GET',
    path: '/api/v1/reviews',
    query: ReviewListQuery,
  }),
  tool({
    name: 'moderate_review',
    title: 'Approve or reject a review',
    summary: 'Set a review to approved or rejected (a review cannot go back to pending).',
    method: 'PUT',
    path: '/api/v1/reviews/:id',
    body: ReviewModerate,
  }),
  tool({
    name: 'delete_review',
    title: 'Delete a review',
    summary: 'Delete a review by id.',
    method: 'DELETE',
    path: '/api/v1/reviews/:id',
  }),

  tool({
    name: 'list_customers',
    title: 'List customers',
    summary:
      'List customers (one per phone number) with ordersCount, totalSpent, firstOrderAt, lastOrderAt; ' +
      `q matches name or phone. ${LIST}`,
    method: 'GET',
    path: '/api/v1/customers',
    query: CustomerListQuery,
  }),
  tool({
    name: 'get_customer',
    title: 'Get a customer',
    summary: 'Get one customer by id with their order history (one page: ordersLimit, ordersOffset).',
    method: 'GET',
    path: '/api/v1/customers/:id',
    query: CustomerGetQuery,
  }),

  tool({
    name: 'get_stats',
    title: 'Get store statistics',
    summary:
      'Aggregated analytics for a period (from inclusive, to exclusive, ISO dates; default all time): ' +
      'totalOrders, revenue, averageOrderValue, ordersByStatus, topProducts, visits, conversionRate.',
    method: 'GET',
    path: '/api/v1/stats',
    query: StatsQuery,
  }),

  tool({
    name: 'list_shipping_options',
    title: 'List shipping options',
    summary: `List shipping options; all of them unless isActive is "true" or "false". ${LIST}`,
    method: 'GET',
    path: '/api/v1/shipping',
    query: ShippingListQuery,
  }),
  tool({
    name: 'create_shipping_option',
    title: 'Create a shipping option',
    summary:
      'Create a shipping option: name and price (major units) required; ' +
      'description and estimatedDays (integer) optional.',
    method: 'POST',
    path: '/api/v1/shipping',
    body: ShippingCreate,
  }),
  tool({
    name: 'update_shipping_option',
    title: 'Update a shipping option',
    summary: 'Partially update a shipping option by id (orders keep their snapshot of name and price).',
    method: 'PUT',
    path: '/api/v1/shipping/:id',
    body: ShippingUpdate,
  }),
  tool({
    name: 'delete_shipping_option',
    title: 'Delete a shipping option',
    summary: 'Delete a shipping option by id.',
    method: 'DELETE',
    path: '/api/v1/shipping/:id',
  }),

  tool({
    name: 'list_webhooks',
    title: 'List webhook endpoints',
    summary: `List webhook endpoints (the signing secret is shown only at creation). ${LIST}`,
    method: 'GET',
    path: '/api/v1/webhooks',
    query: WebhookListQuery,
  }),
  tool({
    name: 'create_webhook',
    title: 'Create a webhook endpoint',
    summary:
      'Register a public https URL (private addresses are refused; at most WEBHOOK_MAX_PER_STORE, ' +
      'default 20, per store) for events order.created, order.updated, review.created, ' +
      'delivered with Standard Webhooks signatures. Only this response carries the signing secret ' +
      '(whsec_…).',
    method: 'POST',
    path: '/api/v1/webhooks',
    body: WebhookCreate,
  }),
  tool({
    name: 'update_webhook',
    title: 'Update a webhook endpoint',
    summary: 'Partially update a webhook endpoint by id (url, events, isActive).',
    method: 'PUT',
    path: '/api/v1/webhooks/:id',
    body: WebhookUpdate,
  }),
  tool({
    name: 'delete_webhook',
    title: 'Delete a webhook endpoint',
    summary: 'Delete a webhook endpoint by id.',
    method: 'DELETE',
    path: '/api/v1/webhooks/:id',
  }),

  tool({
    name: 'create_order',
    title: 'Place an order',
    summary:
      'Place an order through the public checkout (POST /api/orders), ' +
      'as a customer would. Each item names variantId, or productId for a product without variants, ' +
      'and a quantity; prices come from the catalog. Optional shippingOptionId, discountCode, notes, ' +
      'address. The same phone and items within 5 minutes → 409 DUPLICATE_ORDER. Returns { id, ' +
      "orderNumber, total, currency, whatsappUrl, statusUrl }. storeId defaults to the key's store, " +
      'which needs store:read.',
    method: 'POST',
    path: '/api/orders',
    body: OrderCreateInput,
    headers: { schema: IdempotencyKey, map: { idempotencyKey: 'idempotency-key' } },
    defaultStoreId: true,
  }),
  tool({
    name: 'check_slug',
    title: 'Check a store slug',
    summary: 'Check whether a store slug (3–50 of a-z, 0-9, inner hyphens) is still available: { slug, available }.',
    method: 'GET',
    path: '/api/check-slug',
    query: CheckSlugQuery,
  }),
]

export const TOOLS_BY_NAME = new Map(TOOLS.map((d) => [d.name, d]))
