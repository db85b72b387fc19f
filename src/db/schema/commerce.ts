import { sql } from 'drizzle-orm'
import { sqliteTable, text, integer, uniqueIndex, index, primaryKey } from 'drizzle-orm/sqlite-core'
import { id, timestamps, bool } from './columns'
import { createId } from '../../lib/cuid'
import { stores } from './stores'
import { products, variants } from './catalog'

export const ORDER_STATUSES = ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/**
 * Where an order was placed: the store's own pages (`storefront`), the in-process assistant
 * tools (`mcp`), or any other client of `POST /api/orders` (`api`). Null for orders placed before
 * the source was recorded. Only storefront orders count in the dashboard's conversion (docs/panel.md).
 */
export const ORDER_SOURCES = ['storefront', 'api', 'mcp'] as const
export type OrderSource = (typeof ORDER_SOURCES)[number]

export const shippingOptions = sqliteTable(
  'shipping_options',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    description: text('description'),
    estimatedDays: integer('estimated_days'),
    isActive: bool('is_active').notNull().default(true),
    ...timestamps,
  },
  (s) => [index('shipping_store_created_idx').on(s.storeId, s.createdAt)],
)

export const DISCOUNT_TYPES = ['percentage', 'fixed'] as const
export type DiscountType = (typeof DISCOUNT_TYPES)[number]

export const discounts = sqliteTable(
  'discounts',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** Upper-cased code: uniqueness and look-ups are case-insensitive. */
    codeKey: text('code_key').notNull(),
    type: text('type', { enum: DISCOUNT_TYPES }).notNull(),
    /** percentage: hundredths of a percent (1250 = 12.5 %); fixed: minor units. */
    value: integer('value').notNull(),
    minOrderAmount: integer('min_order_amount'),
    maxUses: integer('max_uses'),
    usedCount: integer('used_count').notNull().default(0),
    expiresAt: integer('expires_at'),
    isActive: bool('is_active').notNull().default(true),
    ...timestamps,
  },
  (d) => [
    uniqueIndex('discounts_store_code_uq').on(d.storeId, d.codeKey),
    index('discounts_store_created_idx').on(d.storeId, d.createdAt),
  ],
)

export const customers = sqliteTable(
  'customers',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** E.164. */
    phone: text('phone').notNull(),
    address: text('address'),
    /** orders_count, total_spent, first/last_order_at follow the customer's orders by trigger (drizzle/0009). */
    ordersCount: integer('orders_count').notNull().default(0),
    totalSpent: integer('total_spent').notNull().default(0),
    firstOrderAt: integer('first_order_at'),
    lastOrderAt: integer('last_order_at'),
    ...timestamps,
  },
  (c) => [
    uniqueIndex('customers_store_phone_uq').on(c.storeId, c.phone),
    index('customers_store_created_idx').on(c.storeId, c.createdAt),
    index('customers_store_updated_idx').on(c.storeId, c.updatedAt),
  ],
)

export const orders = sqliteTable(
  'orders',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    orderNumber: text('order_number').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    customerName: text('customer_name').notNull(),
    customerPhone: text('customer_phone').notNull(),
    customerAddress: text('customer_address'),
    notes: text('notes'),
    currency: text('currency').notNull(),
    itemsSubtotal: integer('items_subtotal').notNull(),
    shippingOptionId: text('shipping_option_id').references(() => shippingOptions.id, { onDelete: 'set null' }),
    /** Snapshot: deleting or editing the option later leaves the order as it was. */
    shippingName: text('shipping_name'),
    shippingPrice: integer('shipping_price'),
    discountId: text('discount_id').references(() => discounts.id, { onDelete: 'set null' }),
    discountCode: text('discount_code'),
    discountAmount: integer('discount_amount').notNull().default(0),
    total: integer('total').notNull(),
    /** Hash of (E.164 phone, sorted lines): equal hashes within 5 minutes are duplicates. */
    dedupHash: text('dedup_hash').notNull(),
    /**
     * The customer's status page (`/s/:slug/orders/<token>`): 256 random bits, not the id, made by
     * the checkout. Null for orders placed before status
     * pages existed (drizzle/0016). A column, not a table of its own (decision 012).
     */
    statusToken: text('status_token'),
    source: text('source', { enum: ORDER_SOURCES }),
    /** Set by the move to `shipped` (both optional); null before and when the seller gave none. */
    trackingNumber: text('tracking_number'),
    /** An `https:` link to the carrier's tracking page. */
    trackingUrl: text('tracking_url'),
    ...timestamps,
  },
  (o) => [
    // The dashboard counts a period's storefront orders from this index alone (a range count;
    // `source` is a column too so the count never reads the table).
    index('orders_store_storefront_created_idx')
      .on(o.storeId, o.createdAt, o.source)
      .where(sql`${o.source} = 'storefront'`),
    uniqueIndex('orders_status_token_uq').on(o.statusToken),
    uniqueIndex('orders_store_number_uq').on(o.storeId, o.orderNumber),
    index('orders_store_created_idx').on(o.storeId, o.createdAt),
    index('orders_store_status_created_idx').on(o.storeId, o.status, o.createdAt),
    index('orders_store_updated_idx').on(o.storeId, o.updatedAt),
    // Also the duplicate-order check's (orders/sql/checkout.ts recentDuplicate): a dedup index
    // of its own was a random page of the WAL per order (drizzle/0018, decision 010).
    index('orders_customer_created_idx').on(o.customerId, o.createdAt),
  ],
)

/**
 * Orders per (store, status), kept exact by triggers on `orders` (drizzle/0009) in the writer's transaction,
 * so a list's `total` for a store with millions of orders is one primary-key read, not COUNT(*).
 */
export const orderCounts = sqliteTable(
  'order_counts',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (c) => [primaryKey({ columns: [c.storeId, c.status] })],
)

/**
 * An order's lines. Rows are read by order (order_items_order_idx) and by product, never by id:
 * the id is not indexed. Checkout makes it `<order id>-<position>`, unique because the order id
 * is; a unique index on it cost each order a WAL page at a random place (decision 012).
 */
export const orderItems = sqliteTable(
  'order_items',
  {
    id: text('id')
      .notNull()
      .$defaultFn(() => createId()),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    variantId: text('variant_id').references(() => variants.id),
    productName: text('product_name').notNull(),
    variantName: text('variant_name'),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
    subtotal: integer('subtotal').notNull(),
    position: integer('position').notNull().default(0),
    /**
     * Whether checkout took `quantity` units from stock (the item
     * was tracked then): cancelling puts exactly those back.
     */
    stockTaken: integer('stock_taken', { mode: 'boolean' }).notNull().default(false),
  },
  (i) => [index('order_items_order_idx').on(i.orderId, i.position), index('order_items_product_idx').on(i.productId)],
)

/** Idempotency-Key records for POST /api/orders, kept 24 h. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: text('response_body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (k) => [primaryKey({ columns: [k.storeId, k.key] }), index('idempotency_created_idx').on(k.createdAt)],
)

export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const
export type ReviewStatus = (typeof REVIEW_STATUSES)[number]

export const reviews = sqliteTable(
  'reviews',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    customerName: text('customer_name').notNull(),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    status: text('status', { enum: REVIEW_STATUSES }).notNull().default('pending'),
    ...timestamps,
  },
  (r) => [
    index('reviews_store_created_idx').on(r.storeId, r.createdAt),
    index('reviews_store_status_idx').on(r.storeId, r.status, r.createdAt),
    index('reviews_product_status_idx').on(r.productId, r.status),
  ],
)

/**
 * Storefront catalog reads, the denominator of the conversion rate: `count` reads of the store
 * within the second starting at `created_at` (the visit counter writes one row per store and
 * second it saw; a row written directly counts one).
 */
export const catalogVisits = sqliteTable(
  'catalog_visits',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    count: integer('count').notNull().default(1),
  },
  (v) => [index('catalog_visits_store_created_idx').on(v.storeId, v.createdAt)],
)

export type ShippingOption = typeof shippingOptions.$inferSelect
export type Discount = typeof discounts.$inferSelect
export type Customer = typeof customers.$inferSelect
export type Order = typeof orders.$inferSelect
export type OrderItem = typeof orderItems.$inferSelect
export type OrderCount = typeof orderCounts.$inferSelect
export type Review = typeof reviews.$inferSelect
