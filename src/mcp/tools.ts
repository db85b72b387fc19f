/**
 * The 34 assistant tools as data: each maps a flat input
 * (`{ id, status }`, `{ limit, offset }`, the resource's fields) to one HTTP request of the API.
 *
 * Input schemas are JSON Schema built from the API's own request schemas (`model.ts` of each
 * module, TypeBox = JSON Schema), so a tool accepts what the endpoint accepts. The API stays the
 * authority: it validates again and its 400 comes back as a tool error naming the field.
 */
import { t, type TSchema } from 'elysia'
import { Id } from '../modules/shared'
import { StoreUpdate } from '../modules/store-settings'
import { ProductCreate, ProductListQuery, ProductUpdate } from '../modules/products'
import { CategoryCreate, CategoryListQuery, CategoryUpdate } from '../modules/categories'
import { OrderCreate, OrderListQuery, StatusUpdate } from '../modules/orders'
import { DiscountCreate, DiscountListQuery, DiscountUpdate } from '../modules/discounts'
import { ReviewListQuery, ReviewModerate } from '../modules/reviews'
import { CustomerGetQuery, CustomerListQuery } from '../modules/customers'
import { StatsQuery } from '../modules/stats'
import { ShippingCreate, ShippingListQuery, ShippingUpdate } from '../modules/shipping'
import { CheckSlugQuery } from '../modules/public-catalog'
import { WebhookCreate, WebhookListQuery, WebhookUpdate } from '../modules/webhooks'
import type { Scope } from '../lib/scopes'
import type { PaidFeature } from '../modules/plans'
import { API_ACCESS } from '../http/api-routes'

type TObject = TSchema & { properties: Record<string, TSchema> }

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface JsonSchemaObject {
  type: 'object'
  properties: Record<string, object>
  required?: string[]
  [k: string]: unknown
}

export interface ToolAnnotations {
  title: string
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: false
}

export interface ToolDef {
  name: string
  description: string
  /** The key scope the call needs, as its route declares it; null for the public endpoints. */
  scope: Scope | null
  /** A paid-plan feature the call needs, as its route declares it. */
  feature?: PaidFeature
  method: HttpMethod
  /** API path; `:id` is filled from the input's `id`. */
  path: string
  /** Input keys sent as path parameters, query parameters, JSON body fields and headers. */
  params: string[]
  query: string[]
  body: string[]
  headers: Record<string, string>
  /** create_order: `storeId` defaults to the key's own store. */
  defaultStoreId?: boolean
  inputSchema: JsonSchemaObject
  annotations: ToolAnnotations
}

// ---------------------------------------------------------------------------------------------
// Request schemas: the API's own (one source), adapted only where a tool input differs.

/** The public checkout body, with `storeId` optional: the tool fills in the key's own store. */
const OrderCreateInput = t.Object({
  ...OrderCreate.properties,
  storeId: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      description: "Defaults to the API key's store (looked up with store:read)",
    }),
  ),
})
const IdempotencyKey = t.Object({
  idempotencyKey: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 255,
      description: 'Sent as Idempotency-Key: a retry with the same key returns the first order instead of a new one',
    }),
  ),
})

const IdOnly = t.Object({ id: Id })

// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>

/** Elysia's `t.Integer` also accepts a numeric string (query coercion): a tool input is JSON, so that branch goes. */
const isCoercionBranch = (s: Json) =>
  s.type === 'string' && (s.format === 'integer' || s.format === 'numeric' || s.format === 'boolean')

function normalize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalize)
  if (!node || typeof node !== 'object') return node
  const out: Json = {}
  for (const [k, v] of Object.entries(node as Json)) {
    // `error` is Elysia's message text and `nullable` OpenAPI 3.0's; neither is JSON Schema.
    if ((k === 'error' && typeof v === 'string') || k === 'nullable') continue
    out[k] = normalize(v)
  }
  if (Array.isArray(out.anyOf)) {
    const branches = (out.anyOf as Json[]).filter((b) => !isCoercionBranch(b))
    const { anyOf: _, ...rest } = out
    if (branches.length === 1) return { ...rest, ...branches[0] }
    if (branches.every((b) => b.type === 'string' && typeof b.const === 'string'))
      return { ...rest, type: 'string', enum: branches.map((b) => b.const) }
    return { ...rest, anyOf: branches }
  }
  return out
}

/** TypeBox → plain JSON Schema (TypeBox's symbols drop out in the JSON round trip). */
export function toJsonSchema(schema: TSchema): Json {
  return normalize(JSON.parse(JSON.stringify(schema))) as Json
}

function objectSchema(parts: (TObject | undefined)[]): JsonSchemaObject {
  const properties: Record<string, object> = {}
  const required: string[] = []
  for (const part of parts) {
    if (!part) continue
    const json = toJsonSchema(part) as { properties?: Record<string, unknown>; required?: string[] }
    Object.assign(properties, json.properties ?? {})
    for (const r of json.required ?? []) if (!required.includes(r)) required.push(r)
  }
  // A default on a required input (t.UnionEnum sets one) would only mislead.
  for (const r of required) delete (properties[r] as Json | undefined)?.default
  return { type: 'object', properties, ...(required.length ? { required } : {}) }
}

const keys = (o?: TObject) => (o ? Object.keys(o.properties) : [])

interface Spec {
  name: string
  summary: string
  method: HttpMethod
  path: string
  query?: TObject
  body?: TObject
  headers?: { schema: TObject; map: Record<string, string> }
  defaultStoreId?: boolean
  title: string
}

/** The access the tool's route declares: tools never restate a scope or a plan. */
function declared(method: string, path: string): { scope: Scope | null; feature?: PaidFeature } {
  const route = API_ACCESS.find((r) => r.method === method && r.path === path)
  if (!route) throw new Error(`MCP tool for ${method} ${path}: no such route`)
  if ('public' in route.access) return { scope: null }
  if (!('scope' in route.access)) throw new Error(`MCP tool for ${method} ${path}: the route declares no scope`)
  return { scope: route.access.scope, feature: route.access.feature }
}

function tool(s: Spec): ToolDef {
  const params = s.path.includes(':id') ? ['id'] : []
  const { scope, feature } = declared(s.method, s.path)
  const scopeText = scope ? `Requires scope ${scope}` : 'Public endpoint (no scope; limited per client IP)'
  const planText = feature ? '; needs a Pro or Lifetime plan (free plan → PLAN_REQUIRED)' : ''
  const readOnly = s.method === 'GET'
  return {
    name: s.name,
    description: `${s.summary} ${scopeText}${planText}. Calls ${s.method} ${s.path}.`,
    scope,
    feature,
    method: s.method,
    path: s.path,
    params,
    query: keys(s.query),
    body: keys(s.body),
    headers: s.headers?.map ?? {},
    defaultStoreId: s.defaultStoreId,
    inputSchema: objectSchema([params.length ? IdOnly : undefined, s.query, s.body, s.headers?.schema]),
    annotations: {
      title: s.title,
      readOnlyHint: readOnly,
      destructiveHint: s.method === 'DELETE',
      // HTTP semantics: repeating a GET, PUT or DELETE changes nothing more; a POST creates again.
      idempotentHint: s.method !== 'POST',
      openWorldHint: false,
    },
  }
}

const LIST = 'Returns { data: [...], total, limit, offset }; page with limit (1–100, default 50) and offset.'

export const TOOLS: ToolDef[] = [
  tool({
    name: 'get_store',
    title: 'Get store settings',
    summary:
      'Get the store this API key belongs to: name, slug, WhatsApp number, currency, message template, description, language, published/maintenance flags, plan and status, and how many products, categories and orders it holds (productCount, categoryCount, orderCount).',
    method: 'GET',
    path: '/api/v1/store',
  }),
  tool({
    name: 'update_store',
    title: 'Update store settings',
    summary: 'Partially update store settings; only the fields given change. Duplicate slug → 409 DUPLICATE_SLUG.',
    method: 'PUT',
    path: '/api/v1/store',
    body: StoreUpdate,
  }),

  tool({
    name: 'list_products',
    title: 'List products',
    summary: `List products, newest first, each with its active variants, stock/inStock and images (by URL, in order). Only active products unless isActive is "false" or "all"; createdSince/updatedSince filter by ISO date. ${LIST}`,
    method: 'GET',
    path: '/api/v1/products',
    query: ProductListQuery,
  }),
  tool({
    name: 'get_product',
    title: 'Get a product',
    summary:
      'Get one product by id with its active variants, stock/inStock and images by URL (an inactive product is returned; a deleted one is NOT_FOUND).',
    method: 'GET',
    path: '/api/v1/products/:id',
  }),
  tool({
    name: 'create_product',
    title: 'Create a product',
    summary:
      'Create a product. name and price (major units) are required; slug derives from the name when absent (duplicate → 409 DUPLICATE_SLUG); variants [{ name, price, stock }] need a paid plan. stock (on the product without variants, or per variant) is a count of units or null = not tracked; the checkout refuses more than is left (409 OUT_OF_STOCK). Free plan: at most 10 products.',
    method: 'POST',
    path: '/api/v1/products',
    body: ProductCreate,
  }),
  tool({
    name: 'update_product',
    title: 'Update a product',
    summary:
      'Partially update a product by id (e.g. { id, stock: 12 } to restock; stock null stops tracking). A variants array updates variants that carry an id (a variant without stock keeps its count), creates those without and deactivates the rest.',
    method: 'PUT',
    path: '/api/v1/products/:id',
    body: ProductUpdate,
  }),
  tool({
    name: 'delete_product',
    title: 'Delete a product',
    summary: 'Soft-delete a product by id: it disappears from lists and GET, orders keep referring to it.',
    method: 'DELETE',
    path: '/api/v1/products/:id',
  }),

  tool({
    name: 'list_categories',
    title: 'List categories',
    summary: `List categories ordered by position; all of them unless isActive is "true" or "false". ${LIST}`,
    method: 'GET',
    path: '/api/v1/categories',
    query: CategoryListQuery,
  }),
  tool({
    name: 'create_category',
    title: 'Create a category',
    summary:
      'Create a category (name required; slug derives from it; duplicate slug → 409 DUPLICATE_SLUG). Free plan: at most 3 categories.',
    method: 'POST',
    path: '/api/v1/categories',
    body: CategoryCreate,
  }),
  tool({
    name: 'update_category',
    title: 'Update a category',
    summary: 'Partially update a category by id.',
    method: 'PUT',
    path: '/api/v1/categories/:id',
    body: CategoryUpdate,
  }),
  tool({
    name: 'delete_category',
    title: 'Delete a category',
    summary: 'Delete a category by id; its products keep existing with categoryId null.',
    method: 'DELETE',
    path: '/api/v1/categories/:id',
  }),

  tool({
    name: 'list_orders',
    title: 'List orders',
    summary: `List orders, newest first, optionally by status (pending, confirmed, shipped, delivered, cancelled) and createdSince/updatedSince. ${LIST}`,
    method: 'GET',
    path: '/api/v1/orders',
    query: OrderListQuery,
  }),
  tool({
    name: 'get_order',
    title: 'Get an order',
    summary:
      'Get one order by id in detail form: items with product/variant ids, customer address, shipping option, timestamps.',
    method: 'GET',
    path: '/api/v1/orders/:id',
  }),
  tool({
    name: 'update_order_status',
    title: 'Change an order status',
    summary:
      'Move an order to its next status: pending→confirmed→shipped→delivered, or cancelled from any state before delivered. Any other move → 409 INVALID_STATUS_TRANSITION with details { from, to }.',
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
      'Create a discount code (2–40 letters, digits, _ or -): type percentage (value in (0, 100]) or fixed (amount in major units), optional minOrderAmount, maxUses, expiresAt (ISO). Codes are unique per store, case-insensitive (409 DUPLICATE_CODE).',
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
    summary: `List customers (one per phone number) with ordersCount, totalSpent, firstOrderAt, lastOrderAt; q matches name or phone. ${LIST}`,
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
      'Aggregated analytics for a period (from inclusive, to exclusive, ISO dates; default all time): totalOrders, revenue, averageOrderValue, ordersByStatus, topProducts, visits, conversionRate.',
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
      'Create a shipping option: name and price (major units) required; description and estimatedDays (integer) optional.',
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
      'Register a public https URL (private addresses are refused; at most WEBHOOK_MAX_PER_STORE, default 20, per store) for events order.created, order.updated, review.created, delivered with Standard Webhooks signatures. Only this response carries the signing secret (whsec_…).',
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
      "Place an order through the public checkout (POST /api/orders), as a customer would. Each item names variantId, or productId for a product without variants, and a quantity; prices come from the catalog. Optional shippingOptionId, discountCode, notes, address. The same phone and items within 5 minutes → 409 DUPLICATE_ORDER. Returns { id, orderNumber, total, currency, whatsappUrl, statusUrl }. storeId defaults to the key's store, which needs store:read.",
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
