import { t } from 'elysia'
import { IsoDate } from '../shared'

export const StatsQuery = t.Object({
  from: t.Optional(IsoDate),
  to: t.Optional(IsoDate),
})

const n = (description: string) => t.Number({ description })

export const Stats = t.Object(
  {
    totalOrders: t.Integer({ description: 'Every order created in [from, to), cancelled ones included' }),
    revenue: n('Σ order totals of the non-cancelled orders, major units'),
    averageOrderValue: n('revenue ÷ non-cancelled orders (0 when none), rounded to the minor unit'),
    ordersByStatus: t.Object({
      pending: t.Integer(),
      confirmed: t.Integer(),
      shipped: t.Integer(),
      delivered: t.Integer(),
      cancelled: t.Integer(),
    }),
    topProducts: t.Array(
      t.Object({
        productId: t.String(),
        productName: t.String(),
        quantity: t.Integer(),
        revenue: n('Σ line subtotals, major units'),
      }),
      { description: 'Up to 10 products by quantity sold in non-cancelled orders (ties: revenue, then id)' },
    ),
    visits: t.Integer({ description: 'Catalog visits (storefront reads) in the period' }),
    conversionRate: t.Nullable(t.Number({ description: 'totalOrders ÷ visits; null when there were no visits' })),
    from: t.Nullable(t.String({ description: 'The lower bound given (inclusive), or null for all time' })),
    to: t.Nullable(t.String({ description: 'The upper bound given (exclusive), or null for all time' })),
  },
  { title: 'Stats' },
)

export type StatsQuery = typeof StatsQuery.static
