import { t } from 'elysia'
import { Id, Pagination, Since, Timestamp } from '../shared'
import { OrderListForm } from '../orders'

const customerFields = {
  id: Id,
  name: t.String(),
  phone: t.String({ description: 'E.164' }),
  address: t.Nullable(t.String()),
  ordersCount: t.Integer({ description: 'Orders placed (cancelled ones included)' }),
  totalSpent: t.Number({ description: 'Sum of the totals of the orders placed, store currency' }),
  firstOrderAt: t.Nullable(Timestamp),
  lastOrderAt: t.Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}

export const Customer = t.Object(customerFields, { title: 'Customer' })

export const CustomerDetail = t.Object(
  {
    ...customerFields,
    orders: t.Array(OrderListForm, {
      description:
        'One page of the customer’s orders, newest first (ordersLimit / ordersOffset); ordersCount is the total',
    }),
  },
  { title: 'CustomerDetail' },
)

export const CustomerListQuery = t.Object({
  ...Pagination,
  ...Since,
  q: t.Optional(
    t.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive substring of the name or phone' }),
  ),
})

export const CustomerGetQuery = t.Object({
  ordersLimit: t.Optional(
    t.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Orders in the page, at most 100' }),
  ),
  ordersOffset: t.Optional(t.Integer({ minimum: 0, maximum: 1e9, default: 0, description: 'Orders to skip' })),
})

export type CustomerListQuery = typeof CustomerListQuery.static
export type CustomerGetQuery = typeof CustomerGetQuery.static
