/**
 * The checkout's bare twin for bench/orders.ts: a minimal bun:sqlite program writing the rows one
 * order writes, on a database of the same schema (its triggers keep the customer's and the
 * store's order counts, as they do for the server) — no HTTP, no validation, no JSON, no
 * framework. Per order, inside one savepoint: the variants' and the shipping option's lookups,
 * the customer by phone, a guarded stock decrement per line, the store's next order number, the
 * customer row, the order, its two lines, the webhook outbox append and the push queue's
 * look-up (no endpoints, no devices: no row, as in the bench's store). Per group of BARE_GROUP
 * orders: one BEGIN IMMEDIATE transaction, the names indexed for the inbox's search once, COMMIT
 * at synchronous=NORMAL, then one fsync of the WAL —
 * the server's group commit (src/checkout-batcher.ts), as durable as FULL.
 *
 * Its keys are as random as the server's, since where a key lands in its index decides the pages
 * an insert dirties: order and customer ids of CUID length and alphabet with no time order (the
 * API's ids are CUIDs), line ids made of the order id and the line's position, a status token of
 * 256 random bits. Time-ordered keys (UUIDv7) would append to their indexes where ours land at
 * random pages: ~25 µs an order less than the same rows with keys like ours.
 *
 * Env: BARE_DB (the database file), BARE_SPEC (JSON: storeId, variantIds [2], shippingId,
 * durationSec, group). Prints one JSON line: orders, CPU ms (user + system), wall ms, p99 of a
 * group's commit + fsync.
 */
import { Database } from 'bun:sqlite'
import { createHash, randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync } from 'node:fs'

const spec = JSON.parse(process.env.BARE_SPEC!) as {
  storeId: string
  variantIds: [string, string]
  shippingId: string
  durationSec: number
  group: number
}
const file = process.env.BARE_DB!
const db = new Database(file, { strict: true })
db.exec('PRAGMA busy_timeout = 5000')
db.exec('PRAGMA journal_mode = WAL')
db.exec('PRAGMA synchronous = NORMAL')
db.exec('PRAGMA foreign_keys = ON')
db.exec('PRAGMA wal_autocheckpoint = 10000')

const q = {
  variants: db.prepare<{ id: string; price: number; stock: number | null; productId: string; name: string }, string[]>(
    `SELECT v.id, v.price, v.stock, p.id AS productId, p.name FROM variants v JOIN products p ON p.id = v.product_id
      WHERE v.id IN (?, ?)`,
  ),
  shipping: db.prepare<{ price: number; name: string }, [string]>(
    'SELECT price, name FROM shipping_options WHERE id = ?',
  ),
  customer: db.prepare<{ id: string }, [string, string]>('SELECT id FROM customers WHERE store_id = ? AND phone = ?'),
  take: db.prepare('UPDATE variants SET stock = stock - ?1 WHERE id = ?2 AND stock >= ?1'),
  seq: db.prepare<{ seq: number }, [string]>(
    'UPDATE stores SET order_seq = order_seq + 1 WHERE id = ? RETURNING order_seq AS seq',
  ),
  insertCustomer: db.prepare(
    'INSERT INTO customers (id, store_id, name, phone, address, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ),
  insertOrder: db.prepare(
    `INSERT INTO orders (id, store_id, customer_id, order_number, status, customer_name, customer_phone,
    customer_address,
       notes, currency, items_subtotal, shipping_option_id, shipping_name, shipping_price, discount_amount, total,
       dedup_hash, status_token, source, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, 'USD', ?, ?, ?, ?, 0, ?, ?, ?, 'api', ?, ?)`,
  ),
  insertItems: db.prepare(
    `INSERT INTO order_items (id, order_id, product_id, variant_id, product_name, variant_name, quantity, unit_price,
       subtotal, position, stock_taken) VALUES (?, ?, ?, ?, ?, 'V', ?, ?, ?, 0, 1), (?, ?, ?, ?, ?, 'V', ?, ?, ?, 1,
       1)`,
  ),
  outbox: db.prepare(
    `INSERT INTO webhook_outbox (webhook_id, store_id, event_type, payload, subject_id, created_at)
     SELECT id, store_id, ?2, NULL, ?3, ?4 FROM webhooks
      WHERE store_id = ?1 AND is_active = 1 AND ?2 IN (SELECT value FROM json_each(events))`,
  ),
  // Whether some device of the store's people wants new orders or low-stock alerts (none here: no row).
  pushWants: db.prepare<{ orders: number | null; lowStock: number | null }, [string]>(
    `SELECT max(coalesce((SELECT new_orders FROM push_preferences p WHERE p.user_id = s.user_id), 1)) AS orders,
       max(coalesce((SELECT low_stock FROM push_preferences p WHERE p.user_id = s.user_id), 0)) AS lowStock
      FROM push_subscriptions s WHERE s.user_id IN (SELECT user_id FROM memberships WHERE store_id = ?1)`,
  ),
  lastRow: db.prepare<{ r: number }, []>('SELECT coalesce(max(rowid), 0) AS r FROM orders'),
  namesOff: db.prepare('INSERT INTO order_names_batch (open) VALUES (1)'),
  names: db.prepare(
    'INSERT INTO order_names (rowid, name, store_id) SELECT rowid, customer_name, store_id FROM orders WHERE rowid > ?',
  ),
  namesOn: db.prepare('DELETE FROM order_names_batch'),
}

/** 24 characters of CUID's alphabet, a letter first, no time order (the cost of making one is not the point here). */
const BASE36 = 'abcdefghijklmnopqrstuvwxyz0123456789'
function randomId(): string {
  const b = randomBytes(24)
  let id = BASE36[b[0]! % 26]!
  for (let i = 1; i < 24; i++) id += BASE36[b[i]! % 36]!
  return id
}

let phone = 3_000_000
function placeOne(now: number): void {
  const p = `+1415${String(phone++).padStart(7, '0')}`
  db.exec('SAVEPOINT o')
  const [a, b] = q.variants.all(...spec.variantIds)
  const ship = q.shipping.get(spec.shippingId)!
  let customerId = q.customer.get(spec.storeId, p)?.id
  if (q.take.run(1, a!.id).changes !== 1 || q.take.run(2, b!.id).changes !== 1) throw new Error('out of stock')
  const seq = q.seq.all(spec.storeId)[0]!.seq
  if (!customerId)
    q.insertCustomer.run((customerId = randomId()), spec.storeId, 'Bench Buyer', p, '1 Main St', now, now)
  const id = randomId()
  const subtotal = a!.price + 2 * b!.price
  q.insertOrder.run(
    id,
    spec.storeId,
    customerId,
    `ORD-${String(seq).padStart(6, '0')}`,
    'Bench Buyer',
    p,
    '1 Main St, Springfield',
    'leave at the door',
    subtotal,
    spec.shippingId,
    ship.name,
    ship.price,
    subtotal + ship.price,
    createHash('sha256').update(`${p}\nv:${a!.id}:1\nv:${b!.id}:2`).digest('hex'),
    randomBytes(32).toString('base64url'),
    now,
    now,
  )
  q.insertItems.run(
    ...[`${id}-0`, id, a!.productId, a!.id, a!.name, 1, a!.price, a!.price],
    ...[`${id}-1`, id, b!.productId, b!.id, b!.name, 2, b!.price, 2 * b!.price],
  )
  q.outbox.run(spec.storeId, 'order.created', id, now)
  if (q.pushWants.get(spec.storeId)!.orders !== null) throw new Error('the bench store has no devices')
  db.exec('RELEASE o')
}

const wal = openSync(`${file}-wal`, 'r')
const commitMs: number[] = []
let orders = 0
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const end = t0 + spec.durationSec * 1000
while (performance.now() < end) {
  const now = Date.now()
  db.exec('BEGIN IMMEDIATE')
  const after = q.lastRow.get()!.r
  q.namesOff.run()
  for (let i = 0; i < spec.group; i++) placeOne(now)
  q.names.run(after)
  q.namesOn.run()
  const c = performance.now()
  db.exec('COMMIT')
  fsyncSync(wal)
  commitMs.push(performance.now() - c)
  orders += spec.group
}
const wallMs = performance.now() - t0
const used = process.cpuUsage(cpu0)
closeSync(wal)
db.close()
commitMs.sort((x, y) => x - y)
process.stdout.write(
  `${JSON.stringify({
    orders,
    cpuMs: (used.user + used.system) / 1000,
    wallMs,
    groupP99Ms: commitMs[Math.floor(commitMs.length * 0.99)] ?? 0,
  })}\n`,
)
