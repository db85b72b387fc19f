/**
 * The panel dashboard's numbers (issue 20): per UTC day for the last 30 days — orders, revenue
 * (cancelled left out, as the API's stats), visits — read from the daily rollups the triggers
 * keep (drizzle/0004), never a scan of orders; today / 7 / 30 days summed from them; the top
 * products of the 30 days; tracked stock at 5 or less; and the store's getting-started steps.
 */
import type { Ctx } from '../../kernel/context'
import { DAY_MS } from '../../lib/time'

export interface DayFigure {
  /** UTC day number (epoch ms ÷ 86 400 000). */
  day: number
  orders: number
  /** Minor units; cancelled orders left out. */
  revenue: number
  paidOrders: number
  visits: number
}

export interface PeriodFigure {
  days: number
  orders: number
  revenue: number
  /** Minor units per non-cancelled order; 0 without one. */
  average: number
  visits: number
  /** Orders ÷ visits; null without visits. */
  conversion: number | null
}

export const LOW_STOCK = 5

export function dashboardNumbers({ ctx, input: { days = 30 } = {} }: { ctx: Ctx; input?: { days?: number } }) {
  const client = ctx.db.$client
  const storeId = ctx.store.id
  const today = Math.floor(ctx.clock.now() / DAY_MS)
  const first = today - days + 1
  const series: DayFigure[] = Array.from({ length: days }, (_, i) => ({ day: first + i, orders: 0, revenue: 0, paidOrders: 0, visits: 0 }))
  for (const r of client
    .query<{ day: number; orders: number; revenue: number; paid: number }, [string, number]>(
      `SELECT day, sum(orders) AS orders, sum(CASE WHEN status <> 'cancelled' THEN revenue ELSE 0 END) AS revenue,
              sum(CASE WHEN status <> 'cancelled' THEN orders ELSE 0 END) AS paid
         FROM order_stats_daily WHERE store_id = ? AND day >= ? GROUP BY day`,
    )
    .all(storeId, first)) {
    const d = series[r.day - first]
    if (d) Object.assign(d, { orders: r.orders, revenue: r.revenue, paidOrders: r.paid })
  }
  for (const r of client.query<{ day: number; visits: number }, [string, number]>('SELECT day, visits FROM visit_stats_daily WHERE store_id = ? AND day >= ?').all(storeId, first)) {
    const d = series[r.day - first]
    if (d) d.visits = r.visits
  }
  const periods: PeriodFigure[] = [1, 7, 30].map((n) => {
    const span = series.slice(-n)
    const orders = span.reduce((s, d) => s + d.orders, 0)
    const revenue = span.reduce((s, d) => s + d.revenue, 0)
    const paid = span.reduce((s, d) => s + d.paidOrders, 0)
    const visits = span.reduce((s, d) => s + d.visits, 0)
    return { days: n, orders, revenue, average: paid === 0 ? 0 : Math.round(revenue / paid), visits, conversion: visits === 0 ? null : orders / visits }
  })
  const top = client
    .query<{ productId: string; name: string | null; quantity: number; revenue: number }, [string, number]>(
      `SELECT s.product_id AS productId, p.name, sum(s.quantity) AS quantity, sum(s.revenue) AS revenue
         FROM product_stats_daily s LEFT JOIN products p ON p.id = s.product_id
        WHERE s.store_id = ? AND s.day >= ? GROUP BY s.product_id HAVING sum(s.quantity) > 0 ORDER BY quantity DESC, revenue DESC LIMIT 5`,
    )
    .all(storeId, first)
  const lowStock = client
    .query<{ productId: string; name: string; variant: string | null; stock: number }, [string, number, string, number]>(
      `SELECT id AS productId, name, NULL AS variant, stock FROM products WHERE store_id = ? AND deleted_at IS NULL AND stock IS NOT NULL AND stock <= ?
       UNION ALL
       SELECT p.id, p.name, v.name, v.stock FROM variants v JOIN products p ON p.id = v.product_id
        WHERE p.store_id = ? AND p.deleted_at IS NULL AND v.is_active = 1 AND v.stock IS NOT NULL AND v.stock <= ?
       ORDER BY stock, name LIMIT 10`,
    )
    .all(storeId, LOW_STOCK, storeId, LOW_STOCK)
  return { series, periods, top, lowStock }
}

/** The getting-started steps: which are done. */
export function readiness({ ctx }: { ctx: Ctx }) {
  const client = ctx.db.$client
  const id = ctx.store.id
  const one = (sql: string) => client.query<{ n: number }, [string]>(sql).get(id)!.n > 0
  return {
    whatsapp: !!ctx.store.whatsappNumber,
    product: one('SELECT count(*) AS n FROM (SELECT 1 FROM products WHERE store_id = ? AND deleted_at IS NULL AND is_active = 1 LIMIT 1)'),
    picture: one('SELECT count(*) AS n FROM (SELECT 1 FROM product_images i JOIN products p ON p.id = i.product_id WHERE p.store_id = ? AND p.deleted_at IS NULL LIMIT 1)'),
    shipping: one('SELECT count(*) AS n FROM (SELECT 1 FROM shipping_options WHERE store_id = ? AND is_active = 1 LIMIT 1)'),
    published: ctx.store.isPublished,
  }
}
