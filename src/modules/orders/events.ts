import type { OrderStatus } from '../../db/schema'
import { event } from '../shared/events'
import { createdOrderView } from './views'

export const orderEvents = {
  /**
   * Rendered when sent: the order as it was created (createdOrderView). Status and updatedAt are
   * the only columns an order changes after creation, and that view resets them.
   */
  'order.created': event<{ orderId: string }>({ deferred: { subject: (d) => d.orderId, render: createdOrderView } }),
  'order.updated': event<{ id: string; orderNumber: string; previousStatus: OrderStatus; newStatus: OrderStatus; updatedAt: string }>(),
}
