import { sqliteTable, text, integer, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { id, timestamps, bool } from './columns'

export const PLANS = ['free', 'pro', 'lifetime'] as const
export type Plan = (typeof PLANS)[number]
export const STORE_STATUSES = ['active', 'suspended'] as const
export type StoreStatus = (typeof STORE_STATUSES)[number]
/** The storefront's words and the default WhatsApp template. */
export const LANGUAGES = ['es', 'en', 'pt'] as const
export type Language = (typeof LANGUAGES)[number]

export const stores = sqliteTable(
  'stores',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    whatsappNumber: text('whatsapp_number'),
    currency: text('currency').notNull().default('USD'),
    whatsappTemplate: text('whatsapp_template'),
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    isPublished: bool('is_published').notNull().default(true),
    isMaintenance: bool('is_maintenance').notNull().default(false),
    plan: text('plan', { enum: PLANS }).notNull().default('free'),
    status: text('status', { enum: STORE_STATUSES }).notNull().default('active'),
    /** unpaid | refund | chargeback | manual: why the store is suspended (null when active). */
    suspendedReason: text('suspended_reason'),
    suspendedAt: integer('suspended_at'),
    /** Last order number handed out; bumped inside the order transaction so numbers never collide. */
    orderSeq: integer('order_seq').notNull().default(0),
    /** A pending order older than this is cancelled and its stock put back; 0 = never. */
    pendingOrderTtlHours: integer('pending_order_ttl_hours').notNull().default(72),
    /** The public store read shows exact stock counts only when the store opts in; `inStock` always. */
    showStockCount: bool('show_stock_count').notNull().default(false),
    /** The store's clock (an IANA name): every date the seller and customers read, and the stats' days. */
    timezone: text('timezone').notNull().default('UTC'),
    ...timestamps,
  },
  (s) => [uniqueIndex('stores_slug_uq').on(s.slug)],
)

export type Store = typeof stores.$inferSelect
