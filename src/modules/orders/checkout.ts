/**
 * POST /api/orders: the public checkout. Checks in the contract's order — body shape (400) →
 * suspended store (402) → unknown/unpublished store (404) → references (400) — then ONE
 * BEGIN IMMEDIATE transaction holds the idempotency look-up, the references, the duplicate
 * check and every write (stock, order, items, customer, discount use, counters, outbox rows,
 * idempotency record). A rejected order therefore leaves nothing behind, and N identical
 * posts racing each other create exactly one order.
 */
import type { Database } from 'bun:sqlite'
import { createId } from '../../lib/cuid'
import type { Deps } from '../../context'
import { immediate } from '../../db/client'
import type { WalSync } from '../../db/wal-sync'
import type { DiscountType, Order, Store } from '../../db/schema'
import { Conflict, ValidationError } from '../../lib/errors'
import { minorDigits, toMajor } from '../../lib/money'
import { toE164 } from '../../lib/phone'
import { renderTemplate, whatsappUrl } from '../../lib/whatsapp'
import { storeForPublic } from '../stores/service'
import { enqueueOrderCreated } from '../webhooks/outbox'
import { DEDUP_WINDOW_MS, dedupHash, type LineRef } from './dedup'
import { findReplay, requestHash, saveReplay } from './idempotency'
import { takeStock } from './stock'
import type { OrderCreate } from './model'
import { discountAmount, lineSubtotal, meetsMinimum, orderTotal } from './pricing'


export interface OrderCreatedBody {
  id: string
  orderNumber: string
  /** Major units, so a storefront can confirm what the customer will pay (discount included). */
  total: number
  currency: string
  whatsappUrl: string | null
}

export interface CheckoutResult {
  status: number
  body: OrderCreatedBody
  /** True when the body is the stored answer to an earlier post with the same Idempotency-Key. */
  replayed: boolean
}

interface VariantRow {
  id: string
  name: string
  price: number
  isActive: number
  productId: string
  productName: string
  storeId: string
  productActive: number
  deletedAt: number | null
  stock: number | null
}
interface ProductRow {
  id: string
  name: string
  price: number
  storeId: string
  isActive: number
  deletedAt: number | null
  hasVariants: number
  stock: number | null
}
interface ShippingRow {
  id: string
  storeId: string
  name: string
  price: number
  isActive: number
}
interface DiscountRow {
  id: string
  code: string
  type: DiscountType
  value: number
  minOrderAmount: number | null
  maxUses: number | null
  usedCount: number
  expiresAt: number | null
  isActive: number
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/**
 * SQL text per number of parameters, built once: orders have 1–100 lines, and building the
 * text per order (then hashing it for bun:sqlite's statement cache) cost more than the lookup.
 */
function perCount(build: (n: number) => string): (n: number) => string {
  const texts: string[] = []
  return (n) => (texts[n] ??= build(n))
}
const variantLookup = perCount(
  (n) => `SELECT v.id, v.name, v.price, v.is_active AS isActive, p.id AS productId, p.name AS productName, p.store_id AS storeId,
                 p.is_active AS productActive, p.deleted_at AS deletedAt, v.stock
            FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id IN (${placeholders(n)})`,
)
const productLookup = perCount(
  (n) => `SELECT id, name, price, store_id AS storeId, is_active AS isActive, deleted_at AS deletedAt, stock,
                 EXISTS (SELECT 1 FROM variants WHERE product_id = products.id AND is_active = 1) AS hasVariants
            FROM products WHERE id IN (${placeholders(n)})`,
)

interface Line {
  productId: string
  productName: string
  variantId: string | null
  variantName: string | null
  quantity: number
  unitPrice: number
  subtotal: number
  position: number
  /** As read in the order's transaction; null = untracked (stock.ts). */
  stock: number | null
}

/** `ORD-` and six digits (contract); numbers past 999999 keep growing rather than collide. */
export const formatOrderNumber = (seq: number) => `ORD-${String(seq).padStart(6, '0')}`

/** Checks that need no database: exactly one of variantId/productId per line, a valid phone, a name. */
function checkShape(input: OrderCreate): { phone: string; lines: LineRef[] } {
  const lines = input.items.map((it, i): LineRef => {
    if (it.variantId && it.productId) throw new ValidationError(`items[${i}].productId`, 'not_allowed', `items[${i}]: give either variantId or productId, not both`)
    if (!it.variantId && !it.productId) throw new ValidationError(`items[${i}].variantId`, 'required', `items[${i}] needs a variantId (or a productId for a product without variants)`)
    return { variantId: it.variantId ?? null, productId: it.variantId ? null : it.productId!, quantity: it.quantity }
  })
  if (!input.name.trim()) throw new ValidationError('name', 'required', "'name' must not be blank")
  const phone = toE164(input.phone)
  if (!phone) throw new ValidationError('phone', 'invalid_format', "'phone' must be a valid phone number in international form, e.g. +14155550100")
  return { phone, lines }
}

/** Prices and names from the database only; 400 naming the first bad line. */
function resolveLines(db: Database, storeId: string, refs: LineRef[]): Line[] {
  const variantIds = refs.flatMap((r) => (r.variantId ? [r.variantId] : []))
  const productIds = refs.flatMap((r) => (r.productId ? [r.productId] : []))
  const vmap = new Map(
    variantIds.length
      ? db
          .query<VariantRow, string[]>(variantLookup(variantIds.length))
          .all(...variantIds)
          .map((v) => [v.id, v])
      : [],
  )
  const pmap = new Map(
    productIds.length
      ? db
          .query<ProductRow, string[]>(productLookup(productIds.length))
          .all(...productIds)
          .map((p) => [p.id, p])
      : [],
  )

  return refs.map((r, i): Line => {
    if (r.variantId) {
      const field = `items[${i}].variantId`
      const v = vmap.get(r.variantId)
      if (!v || v.storeId !== storeId || v.deletedAt !== null) throw new ValidationError(field, 'not_found', `${field} does not name a variant of this store`)
      if (!v.isActive || !v.productActive) throw new ValidationError(field, 'inactive', `${field} names a variant that is not available`)
      return line(i, v.productId, v.productName, v.id, v.name, v.price, r.quantity, v.stock)
    }
    const field = `items[${i}].productId`
    const p = pmap.get(r.productId!)
    if (!p || p.storeId !== storeId || p.deletedAt !== null) throw new ValidationError(field, 'not_found', `${field} does not name a product of this store`)
    if (!p.isActive) throw new ValidationError(field, 'inactive', `${field} names a product that is not available`)
    if (p.hasVariants) throw new ValidationError(`items[${i}].variantId`, 'required', `items[${i}]: this product has variants; name one with variantId`)
    return line(i, p.id, p.name, null, null, p.price, r.quantity, p.stock)
  })
}

function line(i: number, productId: string, productName: string, variantId: string | null, variantName: string | null, unitPrice: number, quantity: number, stock: number | null): Line {
  const subtotal = lineSubtotal(unitPrice, quantity)
  if (!Number.isSafeInteger(subtotal)) throw new ValidationError(`items[${i}].quantity`, 'out_of_range')
  return { productId, productName, variantId, variantName, quantity, unitPrice, subtotal, position: i, stock }
}

function resolveShipping(db: Database, storeId: string, id: string | null | undefined) {
  if (!id) return null
  const s = db.query<ShippingRow, [string]>('SELECT id, store_id AS storeId, name, price, is_active AS isActive FROM shipping_options WHERE id = ?').get(id)
  if (!s || s.storeId !== storeId) throw new ValidationError('shippingOptionId', 'not_found', 'shippingOptionId does not name a shipping option of this store')
  if (!s.isActive) throw new ValidationError('shippingOptionId', 'inactive', 'This shipping option is not available')
  return s
}

/**
 * The discount, if any, and what it takes off. Reasons: not_found, inactive, expired,
 * exhausted (usedCount reached maxUses), below_minimum (items' subtotal under minOrderAmount).
 */
function resolveDiscount(db: Database, store: Store, code: string | null | undefined, itemsSubtotal: number, now: number) {
  if (code === null || code === undefined) return null
  const f = 'discountCode'
  const d = db
    .query<DiscountRow, [string, string]>(
      `SELECT id, code, type, value, min_order_amount AS minOrderAmount, max_uses AS maxUses, used_count AS usedCount,
              expires_at AS expiresAt, is_active AS isActive
         FROM discounts WHERE store_id = ? AND code_key = ?`,
    )
    .get(store.id, code.trim().toUpperCase())
  if (!d) throw new ValidationError(f, 'not_found', 'Unknown discount code')
  if (!d.isActive) throw new ValidationError(f, 'inactive', 'This discount code is not active')
  if (d.expiresAt !== null && d.expiresAt <= now) throw new ValidationError(f, 'expired', 'This discount code has expired')
  if (d.maxUses !== null && d.usedCount >= d.maxUses) throw new ValidationError(f, 'exhausted', 'This discount code has reached its maximum number of uses')
  if (!meetsMinimum(itemsSubtotal, d.minOrderAmount)) {
    throw new ValidationError(f, 'below_minimum', 'The order does not reach the minimum amount for this discount code', {
      minOrderAmount: toMajor(d.minOrderAmount!, store.currency),
    })
  }
  return { discount: d, amount: discountAmount(d.type, d.value, itemsSubtotal) }
}

function formatMoney(minor: number, currency: string): string {
  return `${toMajor(minor, currency).toFixed(minorDigits(currency))} ${currency}`
}

function whatsappFor(store: Store, order: Pick<Order, 'customerName' | 'total' | 'currency'>, lines: Line[]): string | null {
  if (!store.whatsappNumber) return null
  const productos = lines
    .map((l) => `- ${l.quantity} x ${l.productName}${l.variantName ? ` (${l.variantName})` : ''}: ${formatMoney(l.subtotal, order.currency)}`)
    .join('\n')
  const text = renderTemplate(store.whatsappTemplate, {
    tienda: store.name,
    productos,
    total: formatMoney(order.total, order.currency),
    nombre: order.customerName,
  }, store.language)
  return whatsappUrl(store.whatsappNumber, text)
}

const ORDER_COLUMNS = [
  'id', 'store_id', 'customer_id', 'order_number', 'status', 'customer_name', 'customer_phone', 'customer_address', 'notes', 'currency',
  'items_subtotal', 'shipping_option_id', 'shipping_name', 'shipping_price', 'discount_id', 'discount_code', 'discount_amount', 'total',
  'dedup_hash', 'created_at', 'updated_at',
] as const
const INSERT_ORDER = `INSERT INTO orders (${ORDER_COLUMNS.join(', ')}) VALUES (${placeholders(ORDER_COLUMNS.length)})`
const ITEM_ROW = `(${placeholders(11)})`
const insertItems = perCount(
  (n) => `INSERT INTO order_items (id, order_id, product_id, variant_id, product_name, variant_name, quantity, unit_price, subtotal, position, stock_taken) VALUES ${Array.from({ length: n }, () => ITEM_ROW).join(', ')}`,
)

const UPSERT_CUSTOMER = `
  INSERT INTO customers (id, store_id, name, phone, address, orders_count, total_spent, first_order_at, last_order_at, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
  ON CONFLICT (store_id, phone) DO UPDATE SET
    name = excluded.name,
    address = coalesce(excluded.address, customers.address),
    orders_count = customers.orders_count + 1,
    total_spent = customers.total_spent + excluded.total_spent,
    first_order_at = coalesce(customers.first_order_at, excluded.first_order_at),
    last_order_at = excluded.last_order_at,
    updated_at = excluded.updated_at
  RETURNING id`

/** An order whose body passed every check that needs no database. */
export interface PendingOrder {
  input: OrderCreate
  idempotencyKey: string | undefined
  phone: string
  refs: LineRef[]
  hash: string
  reqHash: string
}

/** Shape, phone and Idempotency-Key checks (400), before any store look-up. */
export function prepareOrder(input: OrderCreate, idempotencyKey?: string): PendingOrder {
  const { phone, lines: refs } = checkShape(input)
  return { input, idempotencyKey, phone, refs, hash: dedupHash(phone, refs), reqHash: idempotencyKey === undefined ? '' : requestHash(input) }
}

interface Placed {
  result: CheckoutResult
  storeId: string
  outbox: number
}

/**
 * Everything one order does, inside a transaction the caller holds. Statements go through
 * deps.db's connection (the transaction's own), whose compiled statements bun:sqlite caches:
 * building and compiling ~12 Drizzle queries per order cost more than the whole HTTP stack.
 */
function placeInTransaction(deps: Deps, o: PendingOrder, stores: Map<string, Store>): Placed {
  const { input, idempotencyKey, phone, refs, hash, reqHash } = o
  const db = deps.db.$client
  const now = deps.clock.now()
  // Read once per batch: no other writer can change the store while we hold the write lock.
  let store = stores.get(input.storeId)
  if (!store) stores.set(input.storeId, (store = storeForPublic(deps.db, input.storeId, deps.config.upgradeUrl)))
  if (idempotencyKey !== undefined) {
    const replay = findReplay(db, store.id, idempotencyKey, reqHash, now)
    if (replay) return { result: { status: replay.status, body: replay.body as OrderCreatedBody, replayed: true }, storeId: store.id, outbox: 0 }
  }

  const lines = resolveLines(db, store.id, refs)
  const shipping = resolveShipping(db, store.id, input.shippingOptionId)
  const itemsSubtotal = lines.reduce((s, l) => s + l.subtotal, 0)
  const disc = resolveDiscount(db, store, input.discountCode, itemsSubtotal, now)
  const shippingPrice = shipping?.price ?? 0
  const total = orderTotal(itemsSubtotal, shippingPrice, disc?.amount ?? 0)
  // Past 2^53 minor units the sums above are no longer exact (contract "Money bounds").
  if (!Number.isSafeInteger(itemsSubtotal + shippingPrice)) throw new ValidationError('items', 'out_of_range', 'The order total is too large')

  const dup = db.query('SELECT 1 FROM orders WHERE store_id = ? AND dedup_hash = ? AND created_at > ? LIMIT 1').get(store.id, hash, now - DEDUP_WINDOW_MS)
  if (dup) throw new Conflict('DUPLICATE_ORDER', 'The same order from this phone was received less than 5 minutes ago', { windowSeconds: DEDUP_WINDOW_MS / 1000 })

  takeStock(db, lines)

  if (disc) {
    // Guarded increment: usedCount can never pass maxUses, whoever else is checking out.
    const res = db.query('UPDATE discounts SET used_count = used_count + 1 WHERE id = ? AND (max_uses IS NULL OR used_count < max_uses)').run(disc.discount.id)
    if (res.changes === 0) throw new ValidationError('discountCode', 'exhausted', 'This discount code has reached its maximum number of uses')
  }

  // RETURNING through .all(): a raw .get() would leave the statement un-reset (stack notes).
  const seq = db.query<{ seq: number }, [string]>('UPDATE stores SET order_seq = order_seq + 1 WHERE id = ? RETURNING order_seq AS seq').all(store.id)[0]!.seq

  const name = input.name.trim()
  const address = input.address?.trim() || null
  // The latest order's name wins; an order without an address keeps the known one.
  const customerId = db.query<{ id: string }, (string | number | null)[]>(UPSERT_CUSTOMER).all(createId(), store.id, name, phone, address, total, now, now, now, now)[0]!.id

  const order: Order = {
    id: createId(),
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
    createdAt: now,
    updatedAt: now,
  }
  db.query(INSERT_ORDER).run(
    order.id, order.storeId, order.customerId, order.orderNumber, order.status, order.customerName, order.customerPhone, order.customerAddress,
    order.notes, order.currency, order.itemsSubtotal, order.shippingOptionId, order.shippingName, order.shippingPrice, order.discountId,
    order.discountCode, order.discountAmount, order.total, order.dedupHash, order.createdAt, order.updatedAt,
  )
  // Item ids are internal (never shown): the order id and the line's position keep them unique without another CUID.
  db.query(insertItems(lines.length)).run(
    ...lines.flatMap((l) => [`${order.id}-${l.position}`, order.id, l.productId, l.variantId, l.productName, l.variantName, l.quantity, l.unitPrice, l.subtotal, l.position, l.stock === null ? 0 : 1]),
  )
  db.query("INSERT INTO order_counts (store_id, status, count) VALUES (?, 'pending', 1) ON CONFLICT (store_id, status) DO UPDATE SET count = count + 1").run(store.id)

  const outbox = enqueueOrderCreated(db, store.id, order.id, now)

  const body: OrderCreatedBody = {
    id: order.id,
    orderNumber: order.orderNumber,
    total: toMajor(order.total, order.currency),
    currency: order.currency,
    whatsappUrl: whatsappFor(store, order, lines),
  }
  if (idempotencyKey !== undefined) saveReplay(db, store.id, idempotencyKey, reqHash, 201, body, now)
  return { result: { status: 201, body, replayed: false }, storeId: store.id, outbox }
}

export type Outcome = { ok: true; value: CheckoutResult } | { ok: false; error: unknown }

/**
 * Commits several orders in ONE BEGIN IMMEDIATE transaction, each in its own savepoint: an
 * order that fails (400, 404, 409…) rolls back alone, the others commit together with one
 * fsync. Every outcome is known only after COMMIT, so a 201 is never sent for an order that
 * isn't durable. Orders run one after another inside, so duplicates, order numbers and
 * discount uses see each other exactly as they would in separate transactions.
 */
export function commitOrders(deps: Deps, batch: PendingOrder[], opts: { wake?: boolean } = {}): { outcomes: Outcome[]; woken: Set<string> } {
  const db = deps.db.$client
  const placed: (Placed | undefined)[] = []
  let outcomes: Outcome[] = []
  // Compiled once (bun:sqlite caches them on the connection) rather than per order by db.run.
  const savepoint = db.query('SAVEPOINT place_order')
  const release = db.query('RELEASE place_order')
  immediate(deps.db, () => {
    const stores = new Map<string, Store>()
    outcomes = batch.map((o, i): Outcome => {
      savepoint.run()
      try {
        const p = placeInTransaction(deps, o, stores)
        release.run()
        placed[i] = p
        return { ok: true, value: p.result }
      } catch (error) {
        db.run('ROLLBACK TO place_order')
        release.run()
        return { ok: false, error }
      }
    })
  })
  const touched = new Set<string>()
  const woken = new Set<string>()
  for (const p of placed) {
    if (!p || p.result.replayed) continue
    touched.add(p.storeId)
    if (p.outbox > 0) woken.add(p.storeId)
  }
  for (const id of touched) deps.cache.invalidate(id)
  if (opts.wake !== false) for (const id of woken) deps.onOutbox(id)
  return { outcomes, woken }
}

/** One order, synchronously (CLI, tests, MCP): its own transaction. */
export function placeOrder(deps: Deps, input: OrderCreate, idempotencyKey?: string): CheckoutResult {
  const [outcome] = commitOrders(deps, [prepareOrder(input, idempotencyKey)]).outcomes
  if (!outcome!.ok) throw outcome!.error
  return outcome!.value
}

/**
 * Group commit for the HTTP endpoint. Posts are collected until the event loop turns over
 * (setImmediate) and committed together; one order per fsync capped checkout at ~200 orders/s
 * on these disks. The batch commits at synchronous=NORMAL and the WAL is then fsynced off the
 * event loop (db/wal-sync.ts) before any 201 is sent and before the dispatcher is woken, so an
 * accepted order is as durable as with FULL while the next batch is already being placed.
 */
export class OrderBatcher {
  private queue: { order: PendingOrder; resolve: (r: CheckoutResult) => void; reject: (e: unknown) => void }[] = []
  private scheduled = false

  constructor(
    private deps: Deps,
    private walSync: WalSync,
    private maxBatch = 256,
  ) {}

  submit(order: PendingOrder): Promise<CheckoutResult> {
    // Checkout is in use: with a late event loop, webhook sends yield (webhooks/governor.ts).
    this.deps.dispatcher.noteCheckout()
    return new Promise<CheckoutResult>((resolve, reject) => {
      this.queue.push({ order, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.scheduled = false
    const jobs = this.queue.splice(0, this.maxBatch)
    if (this.queue.length > 0) {
      this.scheduled = true
      setImmediate(() => this.flush())
    }
    if (jobs.length === 0) return
    let committed: ReturnType<typeof commitOrders>
    try {
      committed = this.walSync.relaxed(() => commitOrders(this.deps, jobs.map((j) => j.order), { wake: false }))
    } catch (error) {
      // BEGIN or COMMIT failed: nothing was written for any of them.
      for (const j of jobs) j.reject(error)
      return
    }
    const { outcomes, woken } = committed
    this.walSync.sync().then(
      () => {
        for (const id of woken) this.deps.onOutbox(id)
        outcomes.forEach((o, i) => (o.ok ? jobs[i]!.resolve(o.value) : jobs[i]!.reject(o.error)))
      },
      (error) => {
        // Committed but not known to be on disk: no 201. A retry with the same Idempotency-Key
        // gets the stored answer; the outbox rows are still picked up by the sweep.
        this.deps.log.error('WAL fsync failed after an order batch', { error: String(error) })
        for (const j of jobs) j.reject(error)
      },
    )
  }
}
