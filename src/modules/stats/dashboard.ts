/**
 * The panel dashboard's numbers: per UTC day for the last 30 days — orders, revenue
 * (cancelled left out, as the API's stats), visits — read from the daily rollups the triggers
 * keep (drizzle/0004), never a scan of orders; today / 7 / 30 days summed from them, with the
 * period's storefront orders counted from their own index for the conversion; the top
 * products of the 30 days; tracked stock at 5 or less; and the store's getting-started steps.
 */
import type { Ctx } from '../../kernel/context'
import { DAY_MS } from '../../lib/time'
import { LOW_STOCK } from '../products'
import { hasStep, lowStockOf, ordersPerDaySince, storefrontOrdersIn, topProductsSince, visitsPerDaySince } from './sql'

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
  /** Orders placed on the store's own pages (not over the API or by an assistant). */
  storefrontOrders: number
  /** Storefront orders ÷ storefront visits; null without visits. */
  conversion: number | null
}

export function dashboardNumbers({ ctx, input: { days = 30 } = {} }: { ctx: Ctx; input?: { days?: number } }) {
  const client = ctx.db.$client
  const storeId = ctx.store.id
  const today = Math.floor(ctx.clock.now() / DAY_MS)
  const first = today - days + 1
  const series: DayFigure[] = Array.from({ length: days }, (_, i) => ({
    day: first + i,
    orders: 0,
    revenue: 0,
    paidOrders: 0,
    visits: 0,
  }))
  for (const r of ordersPerDaySince(client, storeId, first)) {
    const d = series[r.day - first]
    if (d) Object.assign(d, { orders: r.orders, revenue: r.revenue, paidOrders: r.paid })
  }
  for (const r of visitsPerDaySince(client, storeId, first)) {
    const d = series[r.day - first]
    if (d) d.visits = r.visits
  }
  const periods: PeriodFigure[] = [1, 7, 30].map((n) => {
    const span = series.slice(-n)
    const storefrontOrders = storefrontOrdersIn(client, storeId, (today - n + 1) * DAY_MS, (today + 1) * DAY_MS)
    const orders = span.reduce((s, d) => s + d.orders, 0)
    const revenue = span.reduce((s, d) => s + d.revenue, 0)
    const paid = span.reduce((s, d) => s + d.paidOrders, 0)
    const visits = span.reduce((s, d) => s + d.visits, 0)
    return {
      days: n,
      orders,
      revenue,
      average: paid === 0 ? 0 : Math.round(revenue / paid),
      visits,
      storefrontOrders,
      conversion: visits === 0 ? null : storefrontOrders / visits,
    }
  })
  const top = topProductsSince(client, storeId, first)
  const lowStock = lowStockOf(client, storeId, LOW_STOCK)
  return { series, periods, top, lowStock }
}

/** The getting-started steps: which are done. */
export function readiness({ ctx }: { ctx: Ctx }) {
  const client = ctx.db.$client
  const one = (step: Parameters<typeof hasStep>[2]) => hasStep(client, ctx.store.id, step)
  return {
    whatsapp: !!ctx.store.whatsappNumber,
    product: one('product'),
    picture: one('picture'),
    shipping: one('shipping'),
    published: ctx.store.isPublished,
  }
}
