import { inArray } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { ORDER_STATUSES, products } from '../../db/schema'
import { ValidationError } from '../../lib/errors'
import { toMajor } from '../../lib/money'
import { iso } from '../../lib/time'
import { isoParam } from '../shared'
import type { StatsQuery } from './model'
import { figuresFor } from './rollup'

export const TOP_PRODUCTS = 10

/**
 * GET /api/v1/stats over [from, to) (default all time). totalOrders and ordersByStatus count
 * every order created in the period; revenue, average and top products leave cancelled orders
 * out; conversionRate = totalOrders ÷ catalog visits (null without visits).
 */
export function getStats({ ctx, input: q }: { ctx: Ctx; input: StatsQuery }) {
  const from = isoParam(q.from, 'from') ?? null
  const to = isoParam(q.to, 'to') ?? null
  if (from !== null && to !== null && from > to)
    throw new ValidationError('from', 'out_of_range', "'from' must not be after 'to'")
  const currency = ctx.store.currency
  // One read transaction: every figure comes from the same snapshot.
  return ctx.db.transaction((tx) => {
    const f = figuresFor(ctx.db.$client, ctx.store.id, from, to)
    const ordersByStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, f.byStatus[s].orders])) as Record<
      (typeof ORDER_STATUSES)[number],
      number
    >
    const totalOrders = ORDER_STATUSES.reduce((n, s) => n + f.byStatus[s].orders, 0)
    const paidOrders = totalOrders - f.byStatus.cancelled.orders
    const revenue = ORDER_STATUSES.reduce((n, s) => (s === 'cancelled' ? n : n + f.byStatus[s].revenue), 0)
    const top = [...f.products]
      .filter(([, p]) => p.quantity > 0)
      .sort(([ia, a], [ib, b]) => b.quantity - a.quantity || b.revenue - a.revenue || (ia < ib ? -1 : 1))
      .slice(0, TOP_PRODUCTS)
    const names = new Map(
      top.length
        ? tx
            .select({ id: products.id, name: products.name })
            .from(products)
            .where(
              inArray(
                products.id,
                top.map(([id]) => id),
              ),
            )
            .all()
            .map((p) => [p.id, p.name])
        : [],
    )
    return {
      totalOrders,
      revenue: toMajor(revenue, currency),
      averageOrderValue: paidOrders === 0 ? 0 : toMajor(Math.round(revenue / paidOrders), currency),
      ordersByStatus,
      topProducts: top.map(([productId, p]) => ({
        productId,
        productName: names.get(productId) ?? '',
        quantity: p.quantity,
        revenue: toMajor(p.revenue, currency),
      })),
      visits: f.visits,
      conversionRate: f.visits === 0 ? null : totalOrders / f.visits,
      from: from === null ? null : iso(from),
      to: to === null ? null : iso(to),
    }
  })
}
