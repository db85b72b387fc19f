/** The push queue's statements, compiled once per connection (checkout appends for every order). */
import type { Database } from 'bun:sqlite'
import { perConnection } from '../../../db/sql'

/** What a push announces; each kind has its own preference and the grant its reader's role needs. */
export type PushKind = 'order' | 'review' | 'low-stock' | 'webhook-disabled'

export interface OutboxRow {
  seq: number
  storeId: string
  kind: PushKind
  /** The order, review, product or webhook endpoint announced (by kind). */
  orderId: string
  detail: string | null
  createdAt: number
}

/** A device of a person of the store who wants this kind of push, with the person's role there. */
export interface Recipient {
  subscriptionId: string
  userId: string
  role: string
  /** The person's own choice of words, if any (else the store's). */
  language: string | null
}

export interface OrderFacts {
  id: string
  orderNumber: string
  total: number
  currency: string
  customerName: string
  items: number
  storeLanguage: string
}

export interface DueRow {
  seq: number
  subscriptionId: string
  userId: string
  storeId: string | null
  payload: string
  attempts: number
  expiresAt: number
  endpoint: string
  p256dh: string
  auth: string
  /** Whether the delivery may still go: its store is active and the person still has a role there that reads orders. */
  role: string | null
  storeStatus: string | null
  /** What the role must allow for the push to go (`insertDelivery`; alerts.ts decides it). */
  grant: string
}

/**
 * Whether the person (preferences `p`, maybe none) wants pushes
 * of kind ?2: new orders by default, the rest when chosen.
 */
const WANTS = `CASE ?2 WHEN 'order' THEN coalesce(p.new_orders, 1) WHEN 'review' THEN coalesce(p.reviews, 0)
  WHEN 'low-stock' THEN coalesce(p.low_stock, 0) WHEN 'webhook-disabled' THEN coalesce(p.webhook_disabled, 0) ELSE 0
  END = 1`

/** Some device of some person of store ?1 wants kind ?2: only then does the triggering write append a row. */
const WANTS_ANY = `SELECT 1 FROM memberships m
  JOIN push_subscriptions s ON s.user_id = m.user_id
  LEFT JOIN push_preferences p ON p.user_id = m.user_id
  WHERE m.store_id = ?1 AND ${WANTS} LIMIT 1`

/**
 * What a new order may append, in one look-up (every checkout makes it): whether some device of
 * some person of store ?1 wants new orders, and whether one wants low-stock alerts. Null columns
 * when no person of the store has a device. Subqueries, not joins: with a join and a bound
 * parameter, each run of the statement cost ~7 µs where this costs ~1–2 µs (docs/decisions/027).
 */
const ORDER_WANTS = `SELECT
    max(coalesce((SELECT new_orders FROM push_preferences p WHERE p.user_id = s.user_id), 1)) AS orders,
    max(coalesce((SELECT low_stock FROM push_preferences p WHERE p.user_id = s.user_id), 0)) AS lowStock
  FROM push_subscriptions s WHERE s.user_id IN (SELECT user_id FROM memberships WHERE store_id = ?1)`

export const pushStatements = perConnection((client: Database) => ({
  anyRecipient: client.prepare<{ 1: number }, [string, PushKind]>(WANTS_ANY),
  orderWants: client.prepare<{ orders: number | null; lowStock: number | null }, [string]>(ORDER_WANTS),
  append: client.prepare<never, [string, PushKind, string, string | null, number]>(
    'INSERT INTO push_outbox (store_id, kind, order_id, detail, created_at) VALUES (?1, ?2, ?3, ?4, ?5)',
  ),
  oldest: client.prepare<OutboxRow, [number]>(
    `SELECT seq, store_id AS storeId, kind, order_id AS orderId, detail, created_at AS createdAt
     FROM push_outbox ORDER BY seq LIMIT ?`,
  ),
  deleteOutboxUpTo: client.prepare<never, [number]>('DELETE FROM push_outbox WHERE seq <= ?'),
  recipients: client.prepare<Recipient, [string, PushKind]>(
    `SELECT s.id AS subscriptionId, s.user_id AS userId, m.role AS role, u.language FROM memberships m
     JOIN push_subscriptions s ON s.user_id = m.user_id JOIN users u ON u.id = m.user_id
     LEFT JOIN push_preferences p ON p.user_id = m.user_id
     WHERE m.store_id = ?1 AND ${WANTS}
     ORDER BY s.user_id, s.created_at`,
  ),
  insertDelivery: client.prepare<never, [string, string, string | null, string, number, number, string]>(
    `INSERT INTO push_deliveries (subscription_id, user_id, store_id, payload, next_attempt_at, expires_at,
    created_at, "grant")
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?5, ?7)`,
  ),
  /**
   * Due rows, fairly: each person's first waiting push before anyone's second, and within a
   * person, each device's before that device's next (the window's rank). With the store's status
   * and the person's role there now, so a suspended store or a removed person gets nothing.
   */
  due: client.prepare<DueRow, [number, number]>(
    `WITH ready AS (
       SELECT d.*, row_number() OVER (PARTITION BY d.user_id ORDER BY d.seq) AS personRank,
              row_number() OVER (PARTITION BY d.subscription_id ORDER BY d.seq) AS deviceRank
       FROM push_deliveries d
       WHERE d.next_attempt_at <= ?1 AND (d.locked_until IS NULL OR d.locked_until <= ?1)
     )
     SELECT r.seq, r.subscription_id AS subscriptionId, r.user_id AS userId, r.store_id AS storeId, r.payload,
            r.attempts, r.expires_at AS expiresAt, r."grant", s.endpoint, s.p256dh, s.auth, m.role,
            st.status AS storeStatus
     FROM ready r JOIN push_subscriptions s ON s.id = r.subscription_id
     LEFT JOIN memberships m ON m.store_id = r.store_id AND m.user_id = r.user_id
     LEFT JOIN stores st ON st.id = r.store_id
     ORDER BY r.deviceRank, r.personRank, r.seq LIMIT ?2`,
  ),
  /** Whether a pump has anything to do: an outbox row, or a delivery due by ?1. */
  anyWork: client.prepare<{ 1: number }, [number]>(
    'SELECT 1 FROM push_outbox UNION ALL SELECT 1 FROM push_deliveries WHERE next_attempt_at <= ?1 LIMIT 1',
  ),
  lock: client.prepare<never, [number, number]>('UPDATE push_deliveries SET locked_until = ?2 WHERE seq = ?1'),
  done: client.prepare<never, [number]>('DELETE FROM push_deliveries WHERE seq = ?'),
  retry: client.prepare<never, [number, number]>(
    'UPDATE push_deliveries SET attempts = attempts + 1, next_attempt_at = ?2, locked_until = NULL WHERE seq = ?1',
  ),
  dropSubscription: client.prepare<never, [string]>('DELETE FROM push_subscriptions WHERE id = ?'),
  nextDue: client.prepare<{ at: number | null }, []>(
    'SELECT min(max(next_attempt_at, coalesce(locked_until, 0))) AS at FROM push_deliveries',
  ),
  order: client.prepare<OrderFacts, [string]>(
    `SELECT o.id, o.order_number AS orderNumber, o.total, o.currency, o.customer_name AS customerName,
            (SELECT coalesce(sum(quantity), 0) FROM order_items WHERE order_id = o.id) AS items,
            st.language AS storeLanguage
     FROM orders o JOIN stores st ON st.id = o.store_id WHERE o.id = ?`,
  ),
  devicesOfPerson: client.prepare<{ id: string }, [string]>('SELECT id FROM push_subscriptions WHERE user_id = ?'),
  firstOwnerEmail: client.prepare<{ email: string }, []>(
    `SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.role = 'owner' ` +
      'ORDER BY m.created_at LIMIT 1',
  ),
}))
