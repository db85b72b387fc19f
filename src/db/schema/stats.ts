/**
 * Daily rollups behind GET /api/v1/stats. They are kept current by SQLite triggers on `orders`,
 * `order_items` and `catalog_visits` (migration `stats-rollup-triggers`), so every write path —
 * the order service, the CLI, tests and benches inserting rows directly — updates them in the
 * same transaction as the row itself. `day` is the UTC day number: floor(created_at / 86 400 000).
 */
import { sqliteTable, text, integer, primaryKey } from 'drizzle-orm/sqlite-core'
import { stores } from './stores'
import { ORDER_STATUSES } from './commerce'

/** Orders created on `day` that are now in `status`, and the sum of their totals (minor units). */
export const orderStatsDaily = sqliteTable(
  'order_stats_daily',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    orders: integer('orders').notNull().default(0),
    revenue: integer('revenue').notNull().default(0),
  },
  (s) => [primaryKey({ columns: [s.storeId, s.day, s.status] })],
)

/** Items of the non-cancelled orders created on `day`, per product: quantity and Σ subtotal. */
export const productStatsDaily = sqliteTable(
  'product_stats_daily',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    productId: text('product_id').notNull(),
    quantity: integer('quantity').notNull().default(0),
    revenue: integer('revenue').notNull().default(0),
  },
  (s) => [primaryKey({ columns: [s.storeId, s.day, s.productId] })],
)

/** Catalog visits per day: the conversion rate's denominator. */
export const visitStatsDaily = sqliteTable(
  'visit_stats_daily',
  {
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    day: integer('day').notNull(),
    visits: integer('visits').notNull().default(0),
  },
  (s) => [primaryKey({ columns: [s.storeId, s.day] })],
)
