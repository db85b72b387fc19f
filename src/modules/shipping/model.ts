import { t } from 'elysia'
import { Id, Money, Pagination, Since, Timestamp } from '../shared'

export const ShippingOption = t.Object(
  {
    id: Id,
    name: t.String(),
    price: t.Number({ description: 'Major units of the store currency' }),
    description: t.Nullable(t.String()),
    estimatedDays: t.Nullable(t.Integer({ description: 'Estimated delivery time in days' })),
    isActive: t.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'ShippingOption' },
)

export const ShippingCreate = t.Object({
  name: t.String({ minLength: 1, maxLength: 200 }),
  price: Money,
  description: t.Optional(t.Nullable(t.String({ maxLength: 2000 }))),
  estimatedDays: t.Optional(t.Nullable(t.Integer({ minimum: 0, maximum: 365 }))),
  isActive: t.Optional(t.Boolean()),
})
export const ShippingUpdate = t.Partial(ShippingCreate)

export const ShippingListQuery = t.Object({
  ...Pagination,
  ...Since,
  isActive: t.Optional(
    t.Union([t.Literal('true'), t.Literal('false'), t.Literal('all')], {
      error: "isActive must be 'true', 'false' or 'all'",
    }),
  ),
})

export type ShippingCreate = typeof ShippingCreate.static
export type ShippingUpdate = typeof ShippingUpdate.static
export type ShippingListQuery = typeof ShippingListQuery.static
