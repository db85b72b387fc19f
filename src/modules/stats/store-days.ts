/**
 * The dashboard's days for a store whose clock is not UTC's. The daily rollups (drizzle/0004)
 * are keyed by UTC day, which for such a store splits each of its days in two; its 30 days are
 * read from the rows instead, through the (store_id, created_at) indexes of orders and of the
 * raw visits (kept 35 days), one range per store day. A UTC store (or one whose clock matches
 * UTC over the whole window) keeps the rollups.
 */
import type { Database } from 'bun:sqlite'

export interface DayRange {
  start: number
  end: number
}

type DayRow = { i: number; orders: number; revenue: number; paid: number }

/** Orders, revenue and paid orders per range (cancelled left out of revenue and paid), by the range's index. */
export const ordersPerRange = (db: Database, storeId: string, ranges: DayRange[]) =>
  db
    .query<DayRow, [string, string]>(
      `SELECT CAST(d.key AS INTEGER) AS i, count(o.id) AS orders,
              coalesce(sum(CASE WHEN o.status <> 'cancelled' THEN o.total ELSE 0 END), 0) AS revenue,
              coalesce(sum(CASE WHEN o.status <> 'cancelled' THEN 1 ELSE 0 END), 0) AS paid
         FROM json_each(?2) d
         JOIN orders o ON o.store_id = ?1 AND o.created_at >= d.value ->> 0 AND o.created_at < d.value ->> 1
        GROUP BY d.key`,
    )
    .all(storeId, JSON.stringify(ranges.map((r) => [r.start, r.end])))

/** Raw catalog visits per range, by the range's index. */
export const visitsPerRange = (db: Database, storeId: string, ranges: DayRange[]) =>
  db
    .query<{ i: number; visits: number }, [string, string]>(
      `SELECT CAST(d.key AS INTEGER) AS i, coalesce(sum(v.count), 0) AS visits
         FROM json_each(?2) d
         JOIN catalog_visits v ON v.store_id = ?1 AND v.created_at >= d.value ->> 0 AND v.created_at < d.value ->> 1
        GROUP BY d.key`,
    )
    .all(storeId, JSON.stringify(ranges.map((r) => [r.start, r.end])))

/** The five products sold most in [from, to) by quantity then revenue (cancelled orders left out). */
export const topProductsIn = (db: Database, storeId: string, from: number, to: number) =>
  db
    .query<{ productId: string; name: string | null; quantity: number; revenue: number }, [string, number, number]>(
      `SELECT t.productId, p.name, t.quantity, t.revenue
         FROM (SELECT i.product_id AS productId, sum(i.quantity) AS quantity, sum(i.subtotal) AS revenue
                 FROM orders o JOIN order_items i ON i.order_id = o.id
                WHERE o.store_id = ?1 AND o.created_at >= ?2 AND o.created_at < ?3 AND o.status <> 'cancelled'
                GROUP BY i.product_id HAVING sum(i.quantity) > 0
                ORDER BY quantity DESC, revenue DESC LIMIT 5) t
         LEFT JOIN products p ON p.id = t.productId
        ORDER BY t.quantity DESC, t.revenue DESC`,
    )
    .all(storeId, from, to)
