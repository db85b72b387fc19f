/**
 * The customer's order status page's read (issue 20): the order behind a status token (256
 * random bits made by the checkout, drizzle/0016), its lines and its status timeline. Nothing
 * else of the customer or the store's other orders is read. A token of another store's slug,
 * an unknown token or a suspended store read as nothing.
 */
import type { Database } from 'bun:sqlite'
import type { Order, OrderItem, OrderStatus, Store } from '../../db/schema'
import { itemsOf, orderById } from './sql'

export interface PublicOrderStatus {
  order: Pick<Order, 'orderNumber' | 'status' | 'currency' | 'itemsSubtotal' | 'shippingName' | 'shippingPrice' | 'discountCode' | 'discountAmount' | 'total' | 'createdAt'>
  items: Pick<OrderItem, 'productName' | 'variantName' | 'quantity' | 'subtotal'>[]
  timeline: { status: OrderStatus; at: number }[]
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/

export function orderStatusByToken({ ctx: { db, store }, input: { token } }: { ctx: { db: { $client: Database }; store: Pick<Store, 'id' | 'status'> }; input: { token: string } }): PublicOrderStatus | undefined {
  const client = db.$client
  if (!TOKEN.test(token) || store.status === 'suspended') return undefined
  const link = client.query<{ orderId: string }, [string, string]>('SELECT order_id AS orderId FROM order_links WHERE token = ? AND store_id = ?').get(token, store.id)
  const o = link && orderById(client, link.orderId)
  if (!o || o.storeId !== store.id) return undefined
  const { orderNumber, status, currency, itemsSubtotal, shippingName, shippingPrice, discountCode, discountAmount, total, createdAt } = o
  return {
    order: { orderNumber, status, currency, itemsSubtotal, shippingName, shippingPrice, discountCode, discountAmount, total, createdAt },
    items: (itemsOf(client, [o.id]).get(o.id) ?? []).map(({ productName, variantName, quantity, subtotal }) => ({ productName, variantName, quantity, subtotal })),
    timeline: client.query<{ status: OrderStatus; at: number }, [string]>('SELECT status, at FROM order_events WHERE order_id = ? ORDER BY id').all(o.id),
  }
}

/** The order's status token (the panel puts the page's link in its WhatsApp message). */
export const statusTokenOf = (client: Database, orderId: string): string | undefined =>
  client.query<{ token: string }, [string]>('SELECT token FROM order_links WHERE order_id = ?').get(orderId)?.token
