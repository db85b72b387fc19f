/** Orders as the API shows them: list form and detail form. */
import type { Database } from 'bun:sqlite'
import { itemsOf, listItemsOf, orderById, type ListItem, type ListOrder } from './sql'
import type { Db } from '../../db/client'
import type { Order, OrderItem } from '../../db/schema'
import { toMajor } from '../../lib/money'
import { iso } from '../../lib/time'

type ItemFields = Pick<
  OrderItem,
  'productId' | 'productName' | 'variantId' | 'variantName' | 'quantity' | 'unitPrice' | 'subtotal'
>

/** An item in the list form: names, quantity and money, no ids. */
const itemListView = (i: Omit<ItemFields, 'productId' | 'variantId'>, currency: string) => ({
  productName: i.productName,
  variantName: i.variantName,
  quantity: i.quantity,
  unitPrice: toMajor(i.unitPrice, currency),
  subtotal: toMajor(i.subtotal, currency),
})

export function orderListView(o: ListOrder, items: ListItem[]) {
  const c = o.currency
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    status: o.status,
    customerName: o.customerName,
    customerPhone: o.customerPhone,
    items: items.map((i) => itemListView(i, c)),
    total: toMajor(o.total, c),
    currency: c,
    notes: o.notes,
    createdAt: iso(o.createdAt),
  }
}
export type OrderListView = ReturnType<typeof orderListView>

type OrderFields = Omit<Order, 'dedupHash' | 'storeId'>

export function orderDetailView(o: OrderFields, items: ItemFields[]) {
  const c = o.currency
  return {
    id: o.id,
    orderNumber: o.orderNumber,
    status: o.status,
    customerId: o.customerId,
    customerName: o.customerName,
    customerPhone: o.customerPhone,
    customerAddress: o.customerAddress,
    // Detail form adds the ids.
    items: items.map((i) => ({ productId: i.productId, variantId: i.variantId, ...itemListView(i, c) })),
    subtotal: toMajor(o.itemsSubtotal, c),
    shippingOption:
      o.shippingName === null || o.shippingPrice === null
        ? null
        : { name: o.shippingName, price: toMajor(o.shippingPrice, c) },
    discount: o.discountCode === null ? null : { code: o.discountCode, amount: toMajor(o.discountAmount, c) },
    total: toMajor(o.total, c),
    currency: c,
    notes: o.notes,
    tracking:
      o.trackingNumber === null && o.trackingUrl === null ? null : { number: o.trackingNumber, url: o.trackingUrl },
    createdAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
  }
}

/** List views for rows already in display order. */
export function listViews(db: Db, rows: ListOrder[]): OrderListView[] {
  const items = listItemsOf(
    db.$client,
    rows.map((r) => r.id),
  )
  return rows.map((o) => orderListView(o, items.get(o.id) ?? []))
}

/**
 * The `order.created` event's data, rendered when the event is sent: the detail form of the
 * order as it was created. Status, updatedAt and the tracking a move to `shipped` sets are the
 * only columns an order changes after creation (everything else, items included, is a
 * snapshot), so resetting those gives exactly what the checkout would have rendered. Undefined if the order is
 * gone. (A feature that edits other order columns must render the body when emitted instead: orders/events.ts.)
 */
export function createdOrderView(client: Database, orderId: string) {
  const o = orderById(client, orderId)
  if (!o) return undefined
  return orderDetailView(
    { ...o, status: 'pending', updatedAt: o.createdAt, trackingNumber: null, trackingUrl: null },
    itemsOf(client, [orderId]).get(orderId) ?? [],
  )
}
