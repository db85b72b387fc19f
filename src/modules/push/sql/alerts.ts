/**
 * The alerts' SQL: what a review, a low-stock item or a disabled endpoint push says (read at
 * fan-out), and which items an order took to the low-stock mark (read in the order's own transaction).
 */
import type { Database } from 'bun:sqlite'
import { perConnection } from '../../../db/sql'

export interface ReviewFacts {
  id: string
  customerName: string
  rating: number
  productName: string
  storeLanguage: string
}

export interface StockFacts {
  productId: string
  variantId: string | null
  productName: string
  variantName: string | null
  stock: number
  storeLanguage: string
}

export interface WebhookFacts {
  id: string
  url: string
  storeLanguage: string
}

/** A tracked item the order took to the mark or below it: its product, and its variant if it is one. */
export interface Crossing {
  productId: string
  variantId: string | null
}

export const alertStatements = perConnection((client: Database) => ({
  review: client.prepare<ReviewFacts, [string]>(
    `SELECT r.id, r.customer_name AS customerName, r.rating, p.name AS productName, st.language AS storeLanguage
     FROM reviews r JOIN products p ON p.id = r.product_id JOIN stores st ON st.id = r.store_id
     WHERE r.id = ? AND r.status = 'pending'`,
  ),
  stock: client.prepare<StockFacts, [string, string | null]>(
    `SELECT p.id AS productId, ?2 AS variantId, p.name AS productName, v.name AS variantName,
            CASE WHEN ?2 IS NULL THEN p.stock ELSE v.stock END AS stock, st.language AS storeLanguage
     FROM products p JOIN stores st ON st.id = p.store_id LEFT JOIN variants v ON v.id = ?2 AND v.product_id = p.id
     WHERE p.id = ?1 AND p.deleted_at IS NULL AND (?2 IS NULL OR v.id IS NOT NULL)`,
  ),
  webhook: client.prepare<WebhookFacts, [string]>(
    `SELECT w.id, w.url, st.language AS storeLanguage FROM webhooks w JOIN stores st ON st.id = w.store_id
     WHERE w.id = ? AND w.is_active = 0`,
  ),
  webhookStore: client.prepare<{ storeId: string }, [string]>('SELECT store_id AS storeId FROM webhooks WHERE id = ?'),
  /**
   * The tracked items order ?1 took whose stock now is at most ?2 but was above it before this
   * order (what it left plus what it took): each crosses the mark once, not on every later order.
   */
  crossings: client.prepare<Crossing, [string, number]>(
    `SELECT t.productId, t.variantId FROM (
       SELECT i.product_id AS productId, i.variant_id AS variantId, sum(i.quantity) AS taken
       FROM order_items i WHERE i.order_id = ?1 AND i.stock_taken = 1 GROUP BY i.product_id, i.variant_id
     ) t
     LEFT JOIN variants v ON v.id = t.variantId LEFT JOIN products p ON p.id = t.productId
     WHERE (CASE WHEN t.variantId IS NULL THEN p.stock ELSE v.stock END) <= ?2
       AND (CASE WHEN t.variantId IS NULL THEN p.stock ELSE v.stock END) + t.taken > ?2`,
  ),
}))
