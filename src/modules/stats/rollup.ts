/**
 * Stats figures for a time range, from two sources that must agree:
 * - `plainFigures`: aggregates over `orders`/`order_items`/`catalog_visits` (exact bounds);
 * - `rollupFigures`: the same figures from the daily rollup tables for whole UTC days.
 * The rollups are maintained by triggers (drizzle/0004_stats-rollup-triggers.sql), so no write
 * path has to remember them. `figuresFor` uses the rollup for the whole days inside [from, to)
 * and plain queries for the partial days at either edge, so bounds are exact to the millisecond
 * while all-time over a million orders reads a few thousand rollup rows.
 */
import type { Database } from 'bun:sqlite'
import { ORDER_STATUSES, type OrderStatus } from '../../db/schema'
import { DAY_MS } from '../../lib/time'
import * as sql from './sql'
import type { FigureRow } from './sql'

export interface ProductFigure {
  quantity: number
  revenue: number
}

export interface Figures {
  /** Orders and Σ total (minor units) per status. */
  byStatus: Record<OrderStatus, { orders: number; revenue: number }>
  /** Per product over non-cancelled orders: quantity and Σ subtotal (minor units). */
  products: Map<string, ProductFigure>
  visits: number
}

export function emptyFigures(): Figures {
  const byStatus = {} as Figures['byStatus']
  for (const s of ORDER_STATUSES) byStatus[s] = { orders: 0, revenue: 0 }
  return { byStatus, products: new Map(), visits: 0 }
}

export function addFigures(into: Figures, more: Figures): Figures {
  for (const s of ORDER_STATUSES) {
    into.byStatus[s].orders += more.byStatus[s].orders
    into.byStatus[s].revenue += more.byStatus[s].revenue
  }
  for (const [id, p] of more.products) {
    const cur = into.products.get(id)
    if (cur) {
      cur.quantity += p.quantity
      cur.revenue += p.revenue
    } else into.products.set(id, { ...p })
  }
  into.visits += more.visits
  return into
}

type Row = FigureRow

function collect(statusRows: Row[], productRows: Row[], visits: number): Figures {
  const f = emptyFigures()
  for (const r of statusRows) if (r.k in f.byStatus) f.byStatus[r.k as OrderStatus] = { orders: r.a, revenue: r.b }
  for (const r of productRows) if (r.a !== 0 || r.b !== 0) f.products.set(r.k, { quantity: r.a, revenue: r.b })
  f.visits = visits
  return f
}

/** Aggregates over the raw rows with created_at in [from, to). */
export function plainFigures(db: Database, storeId: string, from: number, to: number): Figures {
  return collect(
    sql.ordersByStatusIn(db, storeId, from, to),
    sql.productsIn(db, storeId, from, to),
    visitsIn(db, storeId, from, to),
  )
}

/**
 * Raw visits in [from, to), a partial day. A day whose raw rows were pruned (public-catalog/visits.ts
 * keeps VISIT_RAW_DAYS) has only its rollup left: its share is prorated by the time covered.
 */
function visitsIn(db: Database, storeId: string, from: number, to: number): number {
  const raw = sql.rawVisitsIn(db, storeId, from, to)
  if (raw > 0) return raw
  const day = Math.floor(from / DAY_MS)
  const rolled = sql.rolledVisitsOfDay(db, storeId, day)
  if (rolled === 0 || sql.rawVisitsIn(db, storeId, day * DAY_MS, (day + 1) * DAY_MS) > 0) return 0
  return Math.round((rolled * (Math.min(to, (day + 1) * DAY_MS) - from)) / DAY_MS)
}

/** The same figures from the rollups, for UTC days [fromDay, toDay). */
export function rollupFigures(db: Database, storeId: string, fromDay: number, toDay: number): Figures {
  return collect(
    sql.ordersByStatusOnDays(db, storeId, fromDay, toDay),
    sql.productsOnDays(db, storeId, fromDay, toDay),
    sql.visitsOnDays(db, storeId, fromDay, toDay),
  )
}

// Far enough to cover any epoch-ms timestamp, small enough to stay an exact integer.
const MIN_MS = -8.64e15
const MAX_MS = 8.64e15

/**
 * Figures for [from, to) (either may be null: unbounded). Whole UTC days come from the rollup,
 * the partial days at the edges from plain queries.
 */
export function figuresFor(db: Database, storeId: string, from: number | null, to: number | null): Figures {
  const lo = from ?? MIN_MS
  const hi = to ?? MAX_MS
  if (hi <= lo) return emptyFigures()
  const firstDay = Math.ceil(lo / DAY_MS)
  const endDay = Math.floor(hi / DAY_MS)
  if (endDay <= firstDay) return plainFigures(db, storeId, lo, hi)
  const f = rollupFigures(db, storeId, firstDay, endDay)
  if (lo < firstDay * DAY_MS) addFigures(f, plainFigures(db, storeId, lo, firstDay * DAY_MS))
  if (endDay * DAY_MS < hi) addFigures(f, plainFigures(db, storeId, endDay * DAY_MS, hi))
  return f
}
