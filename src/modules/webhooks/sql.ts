/**
 * The delivery side's hot SQL, prepared once per connection. Raw bun:sqlite rather than Drizzle
 * because each delivery runs several of these on the request path's connection, and a Drizzle
 * statement costs a few µs more per call; the column lists and row types still come from the
 * schema (`columns`, db/sql.ts), so a renamed column breaks the build, not a query.
 */
import type { Database, Statement } from 'bun:sqlite'
import { getTableName, type Table } from 'drizzle-orm'
import { columns, perConnection } from '../../db/sql'
import { webhookDeliveries, webhookOutbox, webhooks, type WebhookEvent } from '../../db/schema'

type Row<T extends Table> = T['$inferSelect']
export type DeliveryRow = Row<typeof webhookDeliveries>
export type WebhookRow = Row<typeof webhooks>

const D = getTableName(webhookDeliveries)
const O = getTableName(webhookOutbox)
const W = getTableName(webhooks)

const CLAIMED = ['id', 'webhookId', 'payload'] as const
const SIGNING = ['id', 'storeId', 'url', 'secret', 'previousSecret', 'previousSecretExpiresAt'] as const
const ATTEMPT_STATE = ['attempts', 'status', 'lockedUntil'] as const

export type ClaimedRow = Pick<DeliveryRow, (typeof CLAIMED)[number]>
/** What a send needs of its endpoint: whose, where, and the (sealed) secrets to sign with. */
export type SigningRow = Pick<WebhookRow, (typeof SIGNING)[number]>
export type AttemptState = Pick<DeliveryRow, (typeof ATTEMPT_STATE)[number]>

function prepare(c: Database) {
  return {
    /** One endpoint's due rows, oldest first: a seek on deliveries_endpoint_due_idx, no sort. */
    duePending: c.prepare<Pick<DeliveryRow, 'id'>, [string, number, number]>(
      `SELECT id FROM ${D} WHERE status = 'pending' AND webhook_id = ?1 AND next_attempt_at <= ?2 ` +
        'ORDER BY next_attempt_at LIMIT ?3',
    ),
    /** Claims a crash (or a lost result) left behind, once their lock has expired. */
    dueExpired: c.prepare<Pick<DeliveryRow, 'id'>, [string, number, number]>(
      `SELECT id FROM ${D} WHERE status = 'sending' AND webhook_id = ?1 AND locked_until < ?2 LIMIT ?3`,
    ),
    /** Whose events are next in the outbox: a read of the integer key's first pages. */
    outboxHead: c.prepare<Pick<Row<typeof webhookOutbox>, 'webhookId'>, [number]>(
      `SELECT ${columns(webhookOutbox, ['webhookId'])} FROM ${O} ORDER BY seq LIMIT ?`,
    ),
    /** Every active endpoint with something due: the sweep's starting point. */
    dueEndpoints: c.prepare<Pick<WebhookRow, 'id'>, [number]>(
      `SELECT w.id FROM ${W} w WHERE w.is_active = 1 AND (
         EXISTS (SELECT 1 FROM ${D} d WHERE d.status = 'pending' AND d.webhook_id = w.id AND d.next_attempt_at <= ?1)
         OR EXISTS (SELECT 1 FROM ${D} d WHERE d.status = 'sending' AND d.webhook_id = w.id AND d.locked_until < ?1))`,
    ),
    /** Conditional: of all workers, exactly one moves a row to `sending`. */
    claim: c.prepare<ClaimedRow, [number, number, string]>(
      `UPDATE ${D} SET status = 'sending', locked_until = ?1, updated_at = ?2
       WHERE id = ?3
         AND ((status = 'pending' AND next_attempt_at <= ?2) OR (status = 'sending' AND locked_until < ?2))
         AND webhook_id IN (SELECT id FROM ${W} WHERE is_active = 1)
       RETURNING ${columns(webhookDeliveries, CLAIMED)}`,
    ),
    /** An endpoint that may be sent to (active), with what signing needs. */
    activeWebhook: c.prepare<SigningRow, [string]>(
      `SELECT ${columns(webhooks, SIGNING)} FROM ${W} WHERE id = ? AND is_active = 1`,
    ),
    failingSince: c.prepare<Pick<WebhookRow, 'failingSince'>, [string]>(
      `SELECT ${columns(webhooks, ['failingSince'])} FROM ${W} WHERE id = ?`,
    ),
    attemptState: c.prepare<AttemptState, [string]>(
      `SELECT ${columns(webhookDeliveries, ATTEMPT_STATE)} FROM ${D} WHERE id = ?`,
    ),
    succeeded: c.prepare<never, [number, number, number, number, string]>(
      `UPDATE ${D} SET status = 'succeeded', attempts = attempts + 1, attempts_total = attempts_total + 1,
      delivered_at = ?1, last_response_code = ?2,
         last_latency_ms = ?3, last_error = NULL, next_attempt_at = NULL, locked_until = NULL, updated_at = ?1
       WHERE id = ?5 AND status = 'sending' AND locked_until = ?4`,
    ),
    failed: c.prepare<never, [string, number | null, number | null, number | null, string, number, string, number]>(
      `UPDATE ${D} SET status = ?1, attempts = attempts + 1, attempts_total = attempts_total + 1,
      next_attempt_at = ?2, last_response_code = ?3,
         last_latency_ms = ?4, last_error = ?5, locked_until = NULL, updated_at = ?6
       WHERE id = ?7 AND status = 'sending' AND locked_until = ?8`,
    ),
    clearFailing: c.prepare<never, [string]>(
      `UPDATE ${W} SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL`,
    ),
    setFailing: c.prepare<never, [number, string]>(
      `UPDATE ${W} SET failing_since = ?1 WHERE id = ?2 AND failing_since IS NULL`,
    ),
    disable: c.prepare<never, [string, number, string]>(
      `UPDATE ${W} SET is_active = 0, disabled_reason = ?1, updated_at = ?2 WHERE id = ?3 AND is_active = 1`,
    ),
    failPending: c.prepare<never, [string, number, string]>(
      `UPDATE ${D} SET status = 'failed', next_attempt_at = NULL, last_error = ?1, updated_at = ?2 ` +
        `WHERE webhook_id = ?3 AND status = 'pending'`,
    ),
  } satisfies Record<string, Statement<any, any>>
}

export type DeliveryStatements = ReturnType<typeof prepare>

/** The statements of `client`, compiled on first use (one set per connection). */
export const deliveryStatements = perConnection(prepare)

// ── The delivery log's retention (retention.ts).

export const endpointIds = (client: Database): string[] =>
  client
    .query<{ id: string }, []>('SELECT id FROM webhooks')
    .all()
    .map((r) => r.id)

/**
 * Deletes up to `batch` finished deliveries of one endpoint and status created at or before the
 * cutoff, through the (webhook_id, status, created_at) index, in an IMMEDIATE transaction: one
 * that reads before it writes, as a deferred transaction, fails at once with SQLITE_BUSY if
 * another connection (the admin CLI) wrote in between; this one waits.
 */
export function deleteFinishedDeliveries(
  client: Database,
  webhookId: string,
  status: 'succeeded' | 'failed',
  cutoff: number,
  batch: number,
): number {
  const del = client.query<never, [string, string, number, number]>(
    `DELETE FROM webhook_deliveries WHERE rowid IN (
       SELECT rowid FROM webhook_deliveries WHERE webhook_id = ?1 AND status = ?2 AND created_at <= ?3 LIMIT ?4)`,
  )
  return client.transaction(() => del.run(webhookId, status, cutoff, batch).changes).immediate()
}

// ── The transactional outbox (outbox.ts).

interface OutboxStatements {
  anySubscriber: Statement<{ id: string }, [string, WebhookEvent]>
  append: Statement<never, [string, WebhookEvent, string | null, string | null, number]>
  oldest: Statement<OutboxRow, [number]>
  insertDelivery: Statement<never, [string, string, string, string, string, number, string, number | null]>
  deleteUpTo: Statement<never, [number]>
}
export interface OutboxRow {
  seq: number
  webhookId: string
  storeId: string
  eventType: WebhookEvent
  payload: string | null
  subjectId: string | null
  createdAt: number
}
/**
 * The active endpoints of store ?1 subscribed to event ?2. `?2 IN (SELECT … json_each)`, not
 * `EXISTS (… WHERE value = ?2)`: the same rows, but the EXISTS form cost ~10 µs a run even with
 * no endpoint at all, the IN form ~2 µs, and checkout runs it for every order (decision 010).
 */
const SUBSCRIBED = 'store_id = ?1 AND is_active = 1 AND ?2 IN (SELECT value FROM json_each(events))'

/** The outbox's statements (outbox.ts), compiled once per connection: the checkout appends for every order. */
export const outboxStatements = perConnection(
  (client: Database): OutboxStatements => ({
    anySubscriber: client.prepare(`SELECT id FROM webhooks WHERE ${SUBSCRIBED} LIMIT 1`),
    // Picks the subscribed endpoints and appends their rows in one statement: checkout runs it
    // for every order, with or without endpoints.
    append: client.prepare(
      `INSERT INTO webhook_outbox (webhook_id, store_id, event_type, payload, subject_id, created_at)
       SELECT id, store_id, ?2, ?3, ?4, ?5 FROM webhooks WHERE ${SUBSCRIBED}`,
    ),
    oldest: client.prepare(
      `SELECT seq, webhook_id AS webhookId, store_id AS storeId, event_type AS eventType, payload,
      subject_id AS subjectId, created_at AS createdAt
       FROM webhook_outbox ORDER BY seq LIMIT ?`,
    ),
    // The event's time is the delivery's creation time and its first attempt's due time.
    insertDelivery: client.prepare(
      `INSERT INTO webhook_deliveries (id, webhook_id, store_id, event_type, payload, status, locked_until,
      next_attempt_at, created_at, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?7, ?8, ?6, ?6, ?6)`,
    ),
    deleteUpTo: client.prepare('DELETE FROM webhook_outbox WHERE seq <= ?'),
  }),
)
