import type { OrderStatus } from '../../db/schema'
import { event } from '../shared'
import { createdOrderView } from './views'

type OrderUpdated = {
  id: string
  orderNumber: string
  previousStatus: OrderStatus
  newStatus: OrderStatus
  updatedAt: string
}

declare module '../../kernel/events' {
  interface EventMap {
    'order.created': { orderId: string }
    'order.updated': OrderUpdated
  }
}

export const orderEvents = {
  /**
   * Rendered when sent: the order as it was created (createdOrderView). Status, updatedAt and
   * tracking are the only columns an order changes after creation, and that view resets them.
   */
  'order.created': event<{ orderId: string }>({ deferred: { subject: (d) => d.orderId, render: createdOrderView } }),
  'order.updated': event<OrderUpdated>(),
}
