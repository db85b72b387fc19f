/**
 * One order inside a transaction the caller holds (src/checkout-batcher.ts): checks in the documented
 * order (docs/api.md) — suspended store (402) → unknown/unpublished store (404) → references (400) → duplicate
 * (409) → stock (409 OUT_OF_STOCK) — then every write (stock, order, items, customer, discount
 * use, the `order.created` event,
 * the idempotency record; the counters follow the order by trigger). A rejected order leaves nothing behind.
 */
import type { Database } from 'bun:sqlite'
import { ctxFor, type Ctx, type CtxBase } from '../../../kernel/context'
import type { Order } from '../../../db/schema'
import { randomBytes } from 'node:crypto'
import { createId } from '../../../lib/cuid'
import { Conflict, ValidationError } from '../../../lib/errors'
import { toMajor } from '../../../lib/money'
import { storeForPublic } from '../../platform-stores'
import { DEDUP_WINDOW_MS } from '../dedup'
import { findReplay, saveReplay } from '../idempotency'
import { orderTotal } from '../pricing'
import { resolveDiscount, resolveLines, resolveShipping } from './resolve'
import { takeStock, type StockLine } from '../stock'
import { whatsappFor } from '../whatsapp'
import type { Effects } from '../../../kernel/write'
import type { PendingOrder } from './prepare'
import * as sql from '../sql/checkout'
import { customerIdByPhone } from '../sql/inbox'

export interface OrderCreatedBody {
  id: string
  orderNumber: string
  /** Major units, so a storefront can confirm what the customer will pay (discount included). */
  total: number
  currency: string
  whatsappUrl: string | null
  /** The customer's order status page: `/s/:slug/orders/<token>`, absolute. */
  statusUrl: string
}

export interface CheckoutResult {
  status: number
  body: OrderCreatedBody
  /** True when the body is the stored answer to an earlier post with the same Idempotency-Key. */
  replayed: boolean
}

/** `ORD-` and six digits; numbers past 999999 keep growing rather than collide. */
export const formatOrderNumber = (seq: number) => `ORD-${String(seq).padStart(6, '0')}`

export interface Placed {
  result: CheckoutResult
  storeId: string
}

/**
 * Everything one order does, inside the caller's transaction. `stores` holds the ctx of each
 * store read in this transaction: no other writer can change one while it holds the write lock.
 */
/** What a checkout transaction lends each order it places: its effects, and the stores read in it so far. */
export interface CheckoutTx {
  effects: Effects
  stores: Map<string, Ctx>
}

/**
 * Runs a checkout transaction's orders (`place`, each in its savepoint) and indexes their names
 * for the inbox's search once, after the last (drizzle/0024, decision 013). FTS5 turns its
 * pending terms into a segment at every savepoint, so a name indexed per order by the trigger
 * was a segment, and the merges it brings, per order (~25 µs); one statement for the batch is
 * one segment. A rolled-back order left no row, so it is not indexed.
 */
export function withNamesIndexedOnceTx<T>(db: Database, place: () => T): T {
  const after = sql.deferNames(db)
  const placed = place()
  sql.indexNamesAfter(db, after)
  return placed
}

/**
 * The "place an order" verb: one public order inside the caller's checkout transaction (the
 * group-commit batcher in the composition root, src/checkout-batcher.ts, holds it). The public
 * caller is one more actor: each store's ctx is built with `{ kind: 'public' }`.
 */
export function placeOrder({ ctx: base, input: o, tx }: { ctx: CtxBase; input: PendingOrder; tx: CheckoutTx }): Placed {
  const { stores, effects } = tx
  const { input, idempotencyKey, phone, refs, hash, reqHash } = o
  const db = base.db.$client
  const now = base.clock.now()
  let ctx = stores.get(input.storeId)
  if (!ctx)
    stores.set(
      input.storeId,
      (ctx = ctxFor(base, storeForPublic({ ctx: base, input: { storeId: input.storeId } }), { kind: 'public' })),
    )
  const { store } = ctx
  if (idempotencyKey !== undefined) {
    const replay = findReplay(db, store.id, idempotencyKey, reqHash, now)
    if (replay)
      return {
        result: { status: replay.status, body: replay.body as OrderCreatedBody, replayed: true },
        storeId: store.id,
      }
  }

  const orderId = createId()
  const stock: StockLine[] = []
  const lines = resolveLines(db, store.id, orderId, refs, stock)
  const shipping = resolveShipping(db, store.id, input.shippingOptionId)
  const itemsSubtotal = lines.reduce((s, l) => s + l.subtotal, 0)
  const disc = resolveDiscount(db, store, input.discountCode, itemsSubtotal, now)
  const shippingPrice = shipping?.price ?? 0
  const total = orderTotal(itemsSubtotal, shippingPrice, disc?.amount ?? 0)
  // Past 2^53 minor units the sums above are no longer exact.
  if (!Number.isSafeInteger(itemsSubtotal + shippingPrice))
    throw new ValidationError('items', 'out_of_range', 'The order total is too large')

  // Looked up once: a new customer has no orders to compare, and only a new one needs an id made.
  const knownCustomer = customerIdByPhone(db, store.id, phone)
  if (knownCustomer !== undefined && sql.recentDuplicate(db, knownCustomer, hash, now - DEDUP_WINDOW_MS)) {
    throw new Conflict('DUPLICATE_ORDER', 'The same order from this phone was received less than 5 minutes ago', {
      windowSeconds: DEDUP_WINDOW_MS / 1000,
    })
  }
  const fx = effects.fxFor(ctx)
  fx.ordersChanged([]) // a new order changes no existing order's view
  fx.catalogStockOnly() // of the catalog, only the stock it takes (takeStock names the products)
  takeStock(db, fx, stock)
  if (disc && !sql.useDiscount(db, disc.discount.id))
    throw new ValidationError('discountCode', 'exhausted', 'This discount code has reached its maximum number of uses')
  const seq = sql.nextOrderSeq(db, store.id)
  const name = input.name.trim()
  const address = input.address?.trim() || null
  let customerId = knownCustomer
  if (customerId === undefined)
    sql.insertCustomer(db, { id: (customerId = createId()), storeId: store.id, name, phone, address, now })
  else sql.touchCustomer(db, customerId, address, now)

  // The status page's token: 256 random bits, not the order id.
  const token = randomBytes(32).toString('base64url')
  const order: Order = {
    id: orderId,
    storeId: store.id,
    customerId,
    orderNumber: formatOrderNumber(seq),
    status: 'pending',
    customerName: name,
    customerPhone: phone,
    customerAddress: address,
    notes: input.notes?.trim() || null,
    currency: store.currency,
    itemsSubtotal,
    shippingOptionId: shipping?.id ?? null,
    shippingName: shipping?.name ?? null,
    shippingPrice: shipping ? shippingPrice : null,
    discountId: disc?.discount.id ?? null,
    discountCode: disc?.discount.code ?? null,
    discountAmount: disc?.amount ?? 0,
    total,
    dedupHash: hash,
    statusToken: token,
    source: o.source,
    trackingNumber: null,
    trackingUrl: null,
    createdAt: now,
    updatedAt: now,
  }
  sql.insertOrder(db, order)
  sql.insertItems(db, lines)
  const origin = o.origin ?? base.config.publicUrl?.replace(/\/$/, '') ?? ''
  const statusUrl = `${origin}/s/${encodeURIComponent(store.slug)}/orders/${token}`
  fx.emit('order.created', { orderId: order.id })

  const body: OrderCreatedBody = {
    id: order.id,
    orderNumber: order.orderNumber,
    total: toMajor(order.total, order.currency),
    currency: order.currency,
    whatsappUrl: whatsappFor(store, order, lines, statusUrl),
    statusUrl,
  }
  if (idempotencyKey !== undefined) saveReplay(db, store.id, idempotencyKey, reqHash, 201, body, now)
  return { result: { status: 201, body, replayed: false }, storeId: store.id }
}
