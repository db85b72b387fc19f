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
    'SELECT status AS k, COUNT(*) AS a, COALESCE(SUM(total), 0) AS b FROM orders WHERE store_id = ?1 AND created_at >= ?2 AND created_at < ?3 GROUP BY status',
  ),
  productsIn: db.query<FigureRow, Range>(
    `SELECT i.product_id AS k, SUM(i.quantity) AS a, SUM(i.subtotal) AS b
       FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.store_id = ?1 AND o.created_at >= ?2 AND o.created_at < ?3 AND o.status <> 'cancelled'
      GROUP BY i.product_id`,
  ),
  visitsIn: db.query<{ n: number }, Range>('SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?1 AND created_at >= ?2 AND created_at < ?3'),
  rolledVisitsOfDay: db.query<{ n: number }, [string, number]>('SELECT visits AS n FROM visit_stats_daily WHERE store_id = ?1 AND day = ?2'),
  statusDays: db.query<FigureRow, Range>(
    'SELECT status AS k, SUM(orders) AS a, SUM(revenue) AS b FROM order_stats_daily WHERE store_id = ?1 AND day >= ?2 AND day < ?3 GROUP BY status',
  ),
  productsDays: db.query<FigureRow, Range>(
    'SELECT product_id AS k, SUM(quantity) AS a, SUM(revenue) AS b FROM product_stats_daily WHERE store_id = ?1 AND day >= ?2 AND day < ?3 GROUP BY product_id',
  ),
  visitsDays: db.query<{ n: number }, Range>('SELECT COALESCE(SUM(visits), 0) AS n FROM visit_stats_daily WHERE store_id = ?1 AND day >= ?2 AND day < ?3'),
}))

/** Orders and Σ total per status, created in [from, to) — indexed by (store_id, created_at). */
export const ordersByStatusIn = (db: Database, ...r: Range) => statements(db).statusIn.all(...r)
/** Quantity and Σ subtotal per product over non-cancelled orders created in [from, to). */
export const productsIn = (db: Database, ...r: Range) => statements(db).productsIn.all(...r)
/** Raw catalog visits in [from, to). */
export const rawVisitsIn = (db: Database, ...r: Range) => statements(db).visitsIn.get(...r)!.n
/** A UTC day's rolled-up visits (0 when none). */
export const rolledVisitsOfDay = (db: Database, storeId: string, day: number) => statements(db).rolledVisitsOfDay.get(storeId, day)?.n ?? 0
/** The same figures from the rollups, for UTC days [fromDay, toDay). */
export const ordersByStatusOnDays = (db: Database, ...r: Range) => statements(db).statusDays.all(...r)
export const productsOnDays = (db: Database, ...r: Range) => statements(db).productsDays.all(...r)
export const visitsOnDays = (db: Database, ...r: Range) => statements(db).visitsDays.get(...r)!.n
