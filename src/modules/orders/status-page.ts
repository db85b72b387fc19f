/**
 * The customer's order status page's read: the order behind a status token (256
 * random bits made by the checkout, drizzle/0016), its lines and its status timeline. Nothing
 * else of the customer or the store's other orders is read. A token of another store's slug,
 * an unknown token or a suspended store read as nothing.
 */
import type { Database } from 'bun:sqlite'
import type { Order, OrderItem, OrderStatus, Store } from '../../db/schema'
import { itemsOf, orderById, orderIdByToken, timelineOf } from './sql'

/** What the customer's page may show of the order: these fields and nothing else of the row. */
const PUBLIC_FIELDS = [
  'orderNumber',
  'status',
  'currency',
  'itemsSubtotal',
  'shippingName',
  'shippingPrice',
  'discountCode',
  'discountAmount',
  'total',
  'createdAt',
  'updatedAt',
  'trackingNumber',
  'trackingUrl',
] as const satisfies readonly (keyof Order)[]

export interface PublicOrderStatus {
  order: Pick<Order, (typeof PUBLIC_FIELDS)[number]>
  items: Pick<OrderItem, 'productName' | 'variantName' | 'quantity' | 'subtotal'>[]
  timeline: { status: OrderStatus; at: number }[]
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/

export function orderStatusByToken({
  ctx: { db, store },
  input: { token },
}: {
  ctx: { db: { $client: Database }; store: Pick<Store, 'id' | 'status'> }
  input: { token: string }
}): PublicOrderStatus | undefined {
  const client = db.$client
  if (!TOKEN.test(token) || store.status === 'suspended') return undefined
  const orderId = orderIdByToken(client, store.id, token)
  const o = orderId && orderById(client, orderId)
  if (!o || o.storeId !== store.id) return undefined
  const order = Object.fromEntries(PUBLIC_FIELDS.map((k) => [k, o[k]])) as PublicOrderStatus['order']
  return {
    order,
    items: (itemsOf(client, [o.id]).get(o.id) ?? []).map(({ productName, variantName, quantity, subtotal }) => ({
      productName,
      variantName,
      quantity,
      subtotal,
    })),
    timeline: timelineOf(client, o.id),
  }
}
