import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core'
import { id, timestamps, bool } from './columns'
import { stores } from './stores'

export const WEBHOOK_EVENTS = ['order.created', 'order.updated', 'review.created'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const webhooks = sqliteTable(
  'webhooks',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** JSON array of event names. */
    events: text('events').notNull(),
    isActive: bool('is_active').notNull().default(true),
    /** Signing secret, encrypted at rest with the key from config (see lib/secret-box). */
    secret: text('secret').notNull(),
    /** Previous secret during a rotation overlap; both sign until it expires. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: integer('previous_secret_expires_at'),
    disabledReason: text('disabled_reason'),
    /** Start of the current run of failures; cleared by any success. */
    failingSince: integer('failing_since'),
    ...timestamps,
  },
  (w) => [index('webhooks_store_idx').on(w.storeId)],
)

export const DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

/**
 * The outbox: one row per (event, endpoint), appended in the transaction that causes the event.
 * Append-only on purpose: the integer key is the only index, so a checkout's insert touches the
 * table's last page and nothing else. The dispatcher moves rows into `webhook_deliveries` (the
 * delivery log, with a random CUID key and three indexes: several scattered pages per row)
 * before sending them, so that cost is paid by delivery, not by checkout (webhooks/outbox.ts).
 */
export const webhookOutbox = sqliteTable('webhook_outbox', {
  seq: integer('seq').primaryKey(),
  webhookId: text('webhook_id')
    .notNull()
    .references(() => webhooks.id, { onDelete: 'cascade' }),
  storeId: text('store_id')
    .notNull()
    .references(() => stores.id, { onDelete: 'cascade' }),
  eventType: text('event_type').notNull(),
  /** The exact JSON body that will be sent; null when it is rendered from `subjectId` at the move. */
  payload: text('payload'),
  /**
   * For `order.created`: the order, rendered as it was created when the event is moved (an
   * order's only later changes are its status and updatedAt), so checkout writes ~60 bytes
   * here instead of the ~1 KB body and skips building it.
   */
  subjectId: text('subject_id'),
  createdAt: integer('created_at').notNull(),
})

/** The delivery log: one row per (event, endpoint), moved here from the outbox before its first attempt. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    /** Also the Standard Webhooks `webhook-id`: stable across retries. */
    id: text('id').primaryKey(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    /** The exact JSON body sent (signed bytes). */
    payload: text('payload').notNull(),
    status: text('status', { enum: DELIVERY_STATUSES }).notNull().default('pending'),
    /** Attempts since the delivery (re)started: the retry schedule's step. A manual retry sets it back to 0. */
    attempts: integer('attempts').notNull().default(0),
    /** Every attempt ever made, manual retries included: what the delivery log shows. */
    attemptsTotal: integer('attempts_total').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at'),
    /** A worker's claim: the row is not picked again until this passes (crash recovery). */
    lockedUntil: integer('locked_until'),
    lastResponseCode: integer('last_response_code'),
    lastLatencyMs: integer('last_latency_ms'),
    lastError: text('last_error'),
    deliveredAt: integer('delivered_at'),
    ...timestamps,
  },
  (d) => [
    /** The dispatcher's hot query: one endpoint's due rows, oldest first, without a sort. */
    index('deliveries_endpoint_due_idx').on(d.status, d.webhookId, d.nextAttemptAt),
    index('deliveries_webhook_created_idx').on(d.webhookId, d.createdAt),
    /** The log filtered by status (`?status=failed`), newest first, without reading the rest of the log. */
    index('deliveries_webhook_status_created_idx').on(d.webhookId, d.status, d.createdAt),
  ],
)

export const INVOICE_STATUSES = ['open', 'paid', 'refunded', 'charged_back', 'void'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const invoices = sqliteTable(
  'invoices',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('USD'),
    status: text('status', { enum: INVOICE_STATUSES }).notNull().default('open'),
    /** Card charge attempts made so far, and how many the billing system makes at most. */
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(4),
    nextRetryAt: integer('next_retry_at'),
    dueAt: integer('due_at').notNull(),
    paidAt: integer('paid_at'),
    ...timestamps,
  },
  (i) => [
    index('invoices_store_idx').on(i.storeId, i.createdAt),
    index('invoices_status_idx').on(i.status, i.nextRetryAt),
  ],
)

/** Billing events already applied, by the billing system's event id: a replay is refused. */
export const billingEvents = sqliteTable('billing_events', {
  id: text('id').primaryKey(),
  storeId: text('store_id').notNull(),
  type: text('type').notNull(),
  receivedAt: integer('received_at').notNull(),
})

/** Rate-limit windows, written behind from memory so windows survive a restart. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
})
