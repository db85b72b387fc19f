/**
 * The dashboard's first figures (orders, revenue, active products) for today and the last 7 and
 * 30 days. A read over the orders index (store_id, created_at); the dashboard issue replaces it
 * with the full page (chart, top products, checklist).
 */
import type { Ctx } from '../kernel/context'
import { toMajor } from '../lib/money'
import { DAY_MS } from '../lib/time'

export interface Figures {
  since: number
  orders: number
  /** Major units, cancelled orders left out (as the API's stats). */
  revenue: number
}

export function dashboardFigures(ctx: Ctx): { periods: Figures[]; activeProducts: number } {
  const now = ctx.clock.now()
  const startOfDay = now - (now % DAY_MS)
  const client = ctx.db.$client
  const q = client.query<{ n: number; revenue: number | null }, [string, number]>(
    "SELECT count(*) AS n, sum(CASE WHEN status <> 'cancelled' THEN total ELSE 0 END) AS revenue FROM orders WHERE store_id = ? AND created_at >= ?",
  )
  const periods = [startOfDay, now - 7 * DAY_MS, now - 30 * DAY_MS].map((since) => {
    const r = q.get(ctx.store.id, since)!
    return { since, orders: r.n, revenue: toMajor(r.revenue ?? 0, ctx.store.currency) }
  })
  const activeProducts = client.query<{ n: number }, [string]>('SELECT count(*) AS n FROM products WHERE store_id = ? AND deleted_at IS NULL AND is_active = 1').get(ctx.store.id)!.n
  return { periods, activeProducts }
}
