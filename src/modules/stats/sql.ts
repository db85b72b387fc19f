/**
 * The stats module's SQL (db/sql.ts): the same figures two ways — aggregates over the raw rows
 * for exact bounds, and over the daily rollup tables (kept by triggers, drizzle/0004) for whole
 * UTC days. Rows come back as `{ k, a, b }`: a key and two sums.
 */
import type { Database } from 'bun:sqlite'
import { perConnection } from '../../db/sql'

export type FigureRow = { k: string; a: number; b: number }
type Range = [storeId: string, from: number, to: number]

const statements = perConnection((db: Database) => ({
  statusIn: db.query<FigureRow, Range>(
    'SELECT status AS k, COUNT(*) AS a, COALESCE(SUM(total), 0) AS b FROM orders WHERE store_id = ?1 ' +
      'AND created_at >= ?2 AND created_at < ?3 GROUP BY status',
  ),
  productsIn: db.query<FigureRow, Range>(
    `SELECT i.product_id AS k, SUM(i.quantity) AS a, SUM(i.subtotal) AS b
       FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.store_id = ?1 AND o.created_at >= ?2 AND o.created_at < ?3 AND o.status <> 'cancelled'
      GROUP BY i.product_id`,
  ),
  visitsIn: db.query<{ n: number }, Range>(
    'SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?1 AND created_at >= ?2 ' +
      'AND created_at < ?3',
  ),
  rolledVisitsOfDay: db.query<{ n: number }, [string, number]>(
    'SELECT visits AS n FROM visit_stats_daily WHERE store_id = ?1 AND day = ?2',
  ),
  statusDays: db.query<FigureRow, Range>(
    'SELECT status AS k, SUM(orders) AS a, SUM(revenue) AS b FROM order_stats_daily WHERE store_id = ?1 ' +
      'AND day >= ?2 AND day < ?3 GROUP BY status',
  ),
  productsDays: db.query<FigureRow, Range>(
    'SELECT product_id AS k, SUM(quantity) AS a, SUM(revenue) AS b FROM product_stats_daily ' +
      'WHERE store_id = ?1 AND day >= ?2 AND day < ?3 GROUP BY product_id',
  ),
  storefrontOrdersIn: db.query<{ n: number }, Range>(
    "SELECT COUNT(*) AS n FROM orders WHERE store_id = ?1 AND source = 'storefront' AND created_at >= ?2 " +
      'AND created_at < ?3',
  ),
  visitsDays: db.query<{ n: number }, Range>(
    'SELECT COALESCE(SUM(visits), 0) AS n FROM visit_stats_daily WHERE store_id = ?1 AND day >= ?2 AND day < ?3',
  ),
}))

/** Orders and Σ total per status, created in [from, to) — indexed by (store_id, created_at). */
export const ordersByStatusIn = (db: Database, ...r: Range) => statements(db).statusIn.all(...r)
/** Quantity and Σ subtotal per product over non-cancelled orders created in [from, to). */
export const productsIn = (db: Database, ...r: Range) => statements(db).productsIn.all(...r)
/** Raw catalog visits in [from, to). */
export const rawVisitsIn = (db: Database, ...r: Range) => statements(db).visitsIn.get(...r)!.n
/** A UTC day's rolled-up visits (0 when none). */
export const rolledVisitsOfDay = (db: Database, storeId: string, day: number) =>
  statements(db).rolledVisitsOfDay.get(storeId, day)?.n ?? 0
/**
 * Orders placed on the store's own pages in [from, to): a range
 * of the partial index orders_store_storefront_created_idx.
 */
export const storefrontOrdersIn = (db: Database, ...r: Range) => statements(db).storefrontOrdersIn.get(...r)!.n
/** The same figures from the rollups, for UTC days [fromDay, toDay). */
export const ordersByStatusOnDays = (db: Database, ...r: Range) => statements(db).statusDays.all(...r)
export const productsOnDays = (db: Database, ...r: Range) => statements(db).productsDays.all(...r)
export const visitsOnDays = (db: Database, ...r: Range) => statements(db).visitsDays.get(...r)!.n

// ── The panel dashboard (dashboard.ts): 30 days from the rollups, top products, low stock, readiness.

/** Orders, revenue and paid orders per UTC day since `firstDay` (cancelled left out of revenue and paid). */
export const ordersPerDaySince = (db: Database, storeId: string, firstDay: number) =>
  db
    .query<{ day: number; orders: number; revenue: number; paid: number }, [string, number]>(
      `SELECT day, sum(orders) AS orders, sum(CASE WHEN status <> 'cancelled' THEN revenue ELSE 0 END) AS revenue,
              sum(CASE WHEN status <> 'cancelled' THEN orders ELSE 0 END) AS paid
         FROM order_stats_daily WHERE store_id = ? AND day >= ? GROUP BY day`,
    )
    .all(storeId, firstDay)

export const visitsPerDaySince = (db: Database, storeId: string, firstDay: number) =>
  db
    .query<{ day: number; visits: number }, [string, number]>(
      'SELECT day, visits FROM visit_stats_daily WHERE store_id = ? AND day >= ?',
    )
    .all(storeId, firstDay)

/** The five products sold most since `firstDay`, by quantity then revenue. */
export const topProductsSince = (db: Database, storeId: string, firstDay: number) =>
  db
    .query<{ productId: string; name: string | null; quantity: number; revenue: number }, [string, number]>(
      // Ranked first, named after: the name is looked up for the five kept, not for every day's row.
      `SELECT t.productId, p.name, t.quantity, t.revenue
         FROM (SELECT product_id AS productId, sum(quantity) AS quantity, sum(revenue) AS revenue
                 FROM product_stats_daily WHERE store_id = ? AND day >= ? GROUP BY product_id HAVING sum(quantity) > 0
                ORDER BY quantity DESC, revenue DESC LIMIT 5) t
         LEFT JOIN products p ON p.id = t.productId
        ORDER BY t.quantity DESC, t.revenue DESC`,
    )
    .all(storeId, firstDay)

/** Up to ten tracked products or active variants with `atMost` units or fewer, fewest first. */
export const lowStockOf = (db: Database, storeId: string, atMost: number) =>
  db
    .query<
      { productId: string; name: string; variant: string | null; stock: number },
      [string, number, string, number]
    >(
      `SELECT id AS productId, name, NULL AS variant, stock FROM products WHERE store_id = ? AND deleted_at IS NULL
      AND stock IS NOT NULL AND stock <= ?
       UNION ALL
       SELECT p.id, p.name, v.name, v.stock FROM variants v JOIN products p ON p.id = v.product_id
        WHERE p.store_id = ? AND p.deleted_at IS NULL AND v.is_active = 1 AND v.stock IS NOT NULL AND v.stock <= ?
       ORDER BY stock, name LIMIT 10`,
    )
    .all(storeId, atMost, storeId, atMost)

const STEP_SQL = {
  product:
    'SELECT count(*) AS n FROM (SELECT 1 FROM products WHERE store_id = ? AND deleted_at IS NULL ' +
    'AND is_active = 1 LIMIT 1)',
  picture:
    'SELECT count(*) AS n FROM (SELECT 1 FROM product_images i JOIN products p ON p.id = i.product_id ' +
    'WHERE p.store_id = ? AND p.deleted_at IS NULL LIMIT 1)',
  shipping: 'SELECT count(*) AS n FROM (SELECT 1 FROM shipping_options WHERE store_id = ? AND is_active = 1 LIMIT 1)',
} as const

/** Whether the store has an active product, a picture, an active shipping option. */
export const hasStep = (db: Database, storeId: string, step: keyof typeof STEP_SQL): boolean =>
  db.query<{ n: number }, [string]>(STEP_SQL[step]).get(storeId)!.n > 0

// ── The dashboard's days for a store off UTC (decision 024): one index range per store day.

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
