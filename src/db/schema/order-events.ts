/**
 * The orders inbox's own rows. `order_events` is a commit-ordered log of what
 * happened to each order — its creation and every status move — written by triggers on `orders`
 * (drizzle/0014) in the writer's own transaction, so every write path (checkout, API, MCP, the
 * CLI, the expiry job, another process) lands in it without remembering to. Its AUTOINCREMENT id
 * is the live inbox's cursor (`Last-Event-ID`) and the order page's status history.
 * `order_opened` marks an order opened by one person (the inbox's "new" marker is per person,
 * drizzle/0018);
 * `order_notes` are the team's internal notes on an order (drizzle/0015).
 */
import { sqliteTable, text, integer, index, primaryKey } from 'drizzle-orm/sqlite-core'
import { ORDER_STATUSES, orders } from './commerce'
import { stores } from './stores'
import { users } from './people'

export const orderEvents = sqliteTable(
  'order_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull(),
    /**
     * The order's rowid, set by the triggers: the order's events are found by it (orders' rowids
     * grow with each order, so a new order's event lands on the index's last page; an index on
     * the random order id cost each order a WAL page of its own, decision 012). Readers match
     * `order_id` too, so a rowid reused after an order is deleted never lends its events.
     * Null only for events of orders deleted before drizzle/0021.
     */
    orderRowid: integer('order_rowid'),
    /** The status the order has from this event on (its first one at creation). */
    status: text('status', { enum: ORDER_STATUSES }).notNull(),
    /** The previous status; null for the creation. */
    previous: text('previous', { enum: ORDER_STATUSES }),
    at: integer('at').notNull(),
  },
  (e) => [
    index('order_events_store_id_idx').on(e.storeId, e.id),
    index('order_events_order_rowid_idx').on(e.orderRowid, e.id),
  ],
)

/**
 * Who opened which order. An order is new to a person from when they are a member of its store
 * until they open it, and for at most NEW_FOR_MS after it was placed (modules/orders/seen.ts):
 * a row is only needed inside that window, so rows of older orders are pruned and the table
 * holds at most (people × orders of the window) rows. `order_created_at` is the order's own
 * creation time, copied so pruning reads this table's index alone.
 */
export const orderOpened = sqliteTable(
  'order_opened',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    storeId: text('store_id').notNull(),
    orderCreatedAt: integer('order_created_at').notNull(),
  },
  (o) => [
    primaryKey({ columns: [o.orderId, o.userId] }),
    index('order_opened_user_created_idx').on(o.userId, o.orderCreatedAt),
  ],
)

/** Internal notes on an order: only the store's team reads them (the panel; not in the API's order). */
export const orderNotes = sqliteTable(
  'order_notes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** `user:<id>` of the person who wrote it. */
    author: text('author').notNull(),
    body: text('body').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (n) => [index('order_notes_order_idx').on(n.orderId, n.id)],
)

export type OrderEvent = typeof orderEvents.$inferSelect
export type OrderNote = typeof orderNotes.$inferSelect
