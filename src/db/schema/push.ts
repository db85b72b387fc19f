/**
 * Web Push to the sellers' devices (modules/push): each person's subscriptions (one per browser
 * that turned notifications on), what the person wants to be told about, and the durable queue
 * pushes go out from. Like the webhook outbox, a new order appends to `push_outbox` (integer key,
 * a few bytes) in its own transaction; the push dispatcher turns each row into one delivery per
 * device later, in its own.
 */
import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core'
import { id, bool } from './columns'
import { users } from './people'
import { stores } from './stores'

export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The push service's URL for this browser (a capability only together with the VAPID key). */
    endpoint: text('endpoint').notNull(),
    /** The browser's P-256 public key (base64url): public by design. */
    p256dh: text('p256dh').notNull(),
    /** The 16-byte auth secret (base64url), sealed with the secret box (aad = endpoint). */
    auth: text('auth').notNull(),
    /** The browser's User-Agent when it subscribed: "Chrome on Android" in the device list. */
    userAgent: text('user_agent'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (s) => [
    uniqueIndex('push_subscriptions_endpoint_uq').on(s.endpoint),
    index('push_subscriptions_user_idx').on(s.userId),
  ],
)

/** What a person wants pushed; no row: the defaults (new orders only). */
export const pushPreferences = sqliteTable('push_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  newOrders: bool('new_orders').notNull().default(true),
  reviews: bool('reviews').notNull().default(false),
  lowStock: bool('low_stock').notNull().default(false),
  webhookDisabled: bool('webhook_disabled').notNull().default(false),
  updatedAt: integer('updated_at').notNull(),
})

/**
 * Appended in the triggering transaction: what to announce. The dispatcher fans it out and deletes it.
 * `kind` says what `orderId` names: `order` an order, `review` a review waiting for moderation,
 * `low-stock` a product (`detail`: its variant, if the item is one), `webhook-disabled` an endpoint.
 */
export const pushOutbox = sqliteTable('push_outbox', {
  seq: integer('seq').primaryKey(),
  storeId: text('store_id')
    .notNull()
    .references(() => stores.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull().default('order'),
  orderId: text('order_id').notNull(),
  detail: text('detail'),
  createdAt: integer('created_at').notNull(),
})

/** One push to one device, until it is accepted, refused for good, or 24 hours old. */
export const pushDeliveries = sqliteTable(
  'push_deliveries',
  {
    seq: integer('seq').primaryKey(),
    subscriptionId: text('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** The store whose event it announces (checked again before each send); null: a test notification. */
    storeId: text('store_id').references(() => stores.id, { onDelete: 'cascade' }),
    /** What the person's role must still allow when it is sent (a new order: reading orders). */
    grant: text('grant').notNull().default('orders:read'),
    /** The JSON the service worker shows: title, body, url, tag. */
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    /** Given up after this (the push's TTL): a day-old "new order" is news no more. */
    expiresAt: integer('expires_at').notNull(),
    /** Set while a send is in flight; an expired lock (a crash) makes the row due again. */
    lockedUntil: integer('locked_until'),
    createdAt: integer('created_at').notNull(),
  },
  (d) => [index('push_deliveries_due_idx').on(d.nextAttemptAt)],
)
