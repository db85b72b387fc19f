/**
 * The panel dashboard's numbers: per store day (on the store's clock) for the last 30 days —
 * orders, revenue (cancelled left out, as the API's stats), visits — read from the daily rollups
 * the triggers keep (drizzle/0004) when the store's days are UTC's, never a scan of orders, and
 * otherwise from the rows' own indexes, one range per store day (decision 024); today / 7 / 30 days summed from them,
 * with the period's storefront orders counted from their own index for the conversion; the top products of the 30 days;
 * tracked stock at 5 or less; and the store's getting-started steps.
 */
import type { Ctx } from '../../kernel/context'
import { DAY_MS } from '../../lib/time'
import { storeDays } from '../../lib/zone'
import { LOW_STOCK } from '../products'
import {
  hasStep,
  lowStockOf,
  ordersPerDaySince,
  ordersPerRange,
  topProductsIn,
  visitsPerRange,
  storefrontOrdersIn,
  topProductsSince,
  visitsPerDaySince,
} from './sql'

export interface DayFigure {
  /** The store's local date as a day number: `day × 86 400 000` formatted in UTC names it. */
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
  // The store's days: a day is the store's, on its own clock.
  const ranges = storeDays(ctx.clock.now(), ctx.store.timezone, days)
  const first = ranges[0]!.day
  const series: DayFigure[] = ranges.map((r) => ({ day: r.day, orders: 0, revenue: 0, paidOrders: 0, visits: 0 }))
  const onUtcDays = ranges.every((r) => r.start === r.day * DAY_MS && r.end === (r.day + 1) * DAY_MS)
  if (onUtcDays) {
    for (const r of ordersPerDaySince(client, storeId, first)) {
      const d = series[r.day - first]
      if (d) Object.assign(d, { orders: r.orders, revenue: r.revenue, paidOrders: r.paid })
    }
    for (const r of visitsPerDaySince(client, storeId, first)) {
      const d = series[r.day - first]
      if (d) d.visits = r.visits
    }
  } else {
    for (const r of ordersPerRange(client, storeId, ranges)) {
      const d = series[r.i]
      if (d) Object.assign(d, { orders: r.orders, revenue: r.revenue, paidOrders: r.paid })
    }
    for (const r of visitsPerRange(client, storeId, ranges)) {
      const d = series[r.i]
      if (d) d.visits = r.visits
    }
  }
  const end = ranges.at(-1)!.end
  const periods: PeriodFigure[] = [1, 7, 30].map((n) => {
    const span = series.slice(-n)
    const storefrontOrders = storefrontOrdersIn(client, storeId, ranges[ranges.length - n]!.start, end)
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
  const top = onUtcDays
    ? topProductsSince(client, storeId, first)
    : topProductsIn(client, storeId, ranges[0]!.start, end)
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
