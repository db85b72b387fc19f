/**
 * One store's order history for the panel benches, written straight into SQLite with prepared
 * INSERTs in large transactions (the schema's own indexes and triggers all apply: the inbox's
 * event log and name index, the counters, the daily rollups). Customers have real-looking names
 * (40 first names × 250 surnames) and distinct phones; each order carries its customer's name and
 * phone and two lines; one customer, "Zelda Quintana", has exactly three orders (a rare name).
 * `writeOrders` is the orders part alone, shared with bench/orders-scale.ts.
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { createId } from '../../src/lib/cuid'

const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elena',
  'Felipe',
  'Gabriela',
  'Hugo',
  'Isabel',
  'Jorge',
  'Karina',
  'Luis',
  'María',
  'Nicolás',
  'Olga',
  'Pablo',
  'Rosa',
  'Sergio',
  'Teresa',
  'Víctor',
  'Lucía',
  'Mateo',
  'Sofía',
  'Tomás',
  'Valentina',
  'Joaquín',
  'Camila',
  'Andrés',
  'Paula',
  'Martín',
  'Daniela',
  'Javier',
  'Laura',
  'Ricardo',
  'Natalia',
  'Fernando',
  'Carolina',
  'Gustavo',
  'Patricia',
  'Emilio',
]
const FIRST_SURNAMES = [
  'Silva',
  'Santos',
  'Pérez',
  'Gómez',
  'Rodríguez',
  'Fernández',
  'López',
  'Díaz',
  'Martínez',
  'Sánchez',
]
const SECOND_SURNAMES = [
  'Rojas',
  'Castro',
  'Vargas',
  'Ramos',
  'Ortiz',
  'Morales',
  'Reyes',
  'Núñez',
  'Herrera',
  'Medina',
  'Aguilar',
  'Vega',
  'Flores',
  'Campos',
  'Mendoza',
  'Cruz',
  'Ríos',
  'Paredes',
  'Molina',
  'Suárez',
  'Torres',
  'Navarro',
  'Ibáñez',
  'Cabrera',
  'Soto',
]
const LAST = Array.from(
  { length: 250 },
  (_, i) => FIRST_SURNAMES[i % 10] + (i >= 10 ? ` ${SECOND_SURNAMES[Math.floor(i / 10) % 25]}` : ''),
)
const STATUSES = [
  'delivered',
  'delivered',
  'delivered',
  'delivered',
  'pending',
  'pending',
  'confirmed',
  'confirmed',
  'shipped',
  'cancelled',
] as const

export const phoneOf = (customer: number) => `+1415${2_000_000 + customer}`
export const nameOf = (customer: number) =>
  `${FIRST[customer % FIRST.length]} ${LAST[Math.floor(customer / FIRST.length) % LAST.length]}`
export const RARE_NAME = 'Zelda Quintana'

export interface Filled {
  customers: number
  /** The newest order's id (the order page the bench opens). */
  newest: string
  seconds: number
}

export async function fillOrders(
  dataDir: string,
  storeId: string,
  variants: { id: string; productId: string; price: number }[],
  total: number,
): Promise<Filled> {
  const t0 = performance.now()
  const db = new Database(path.join(dataDir, 'storefront.db'))
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = OFF')
  db.exec('PRAGMA foreign_keys = OFF')
  db.exec('PRAGMA cache_size = -200000')
  const end = Date.now() - 60_000
  const span = 365 * 86_400_000
  const nCustomers = Math.max(10, Math.min(100_000, Math.floor(total / 10)))
  const customers: string[] = []
  const insCustomer = db.prepare(
    'INSERT INTO customers (id, store_id, name, phone, address, orders_count, total_spent, ' +
      'first_order_at, last_order_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?)',
  )
  db.transaction(() => {
    for (let i = 0; i < nCustomers; i++) {
      const id = createId()
      customers.push(id)
      insCustomer.run(id, storeId, nameOf(i), phoneOf(i), `${i} Main St`, end - span, end, end - span, end)
    }
    const rare = createId()
    customers.push(rare)
    insCustomer.run(rare, storeId, RARE_NAME, '+14155559999', '9 Rare Rd', end - span, end, end - span, end)
  })()
  const rareAt = new Set([Math.floor(total / 4), Math.floor(total / 2), total - 10])
  const newest = writeOrders(db, storeId, variants, total, (i) => {
    const c = rareAt.has(i) ? nCustomers : i % nCustomers
    return c === nCustomers
      ? { customerId: customers[c]!, name: RARE_NAME, phone: '+14155559999', address: '9 Rare Rd' }
      : { customerId: customers[c]!, name: nameOf(c), phone: phoneOf(c), address: `${c} Main St` }
  })
  db.close()
  return { customers: nCustomers, newest, seconds: (performance.now() - t0) / 1000 }
}

/** Who an order of the fill is for. */
export interface FillCustomer {
  customerId: string
  name: string
  phone: string
  address: string
}

/**
 * Writes `total` orders of two lines each (statuses in the proportions of a running shop, spread
 * evenly over the past year), each for `customerOf(i)`, in 50,000-row transactions; then the
 * store's counters and order sequence, a checkpoint and ANALYZE. Returns the newest order's id.
 * The connection should have foreign keys off and a relaxed sync (a fill, not a shop).
 */
export function writeOrders(
  db: Database,
  storeId: string,
  variants: { id: string; productId: string; price: number }[],
  total: number,
  customerOf: (i: number) => FillCustomer,
): string {
  const end = Date.now() - 60_000
  const span = 365 * 86_400_000
  const insOrder = db.prepare(
    `INSERT INTO orders (id, store_id, customer_id, order_number, status, customer_name, customer_phone,
    customer_address, notes, currency,
       items_subtotal, shipping_option_id, shipping_name, shipping_price, discount_id, discount_code,
       discount_amount, total, dedup_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, 'USD', ?, NULL, 'Courier', 499, NULL, NULL, 0, ?, ?, ?, ?)`,
  )
  const insItem = db.prepare(
    'INSERT INTO order_items (id, order_id, product_id, variant_id, product_name, variant_name, ' +
      'quantity, unit_price, subtotal, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  const counts: Record<string, number> = {}
  let newest = ''
  const BATCH = 50_000
  for (let start = 0; start < total; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(total, start + BATCH); i++) {
        const id = createId()
        newest = id
        const status = STATUSES[i % STATUSES.length]!
        counts[status] = (counts[status] ?? 0) + 1
        const who = customerOf(i)
        const createdAt = end - span + Math.floor((i * span) / total)
        const a = variants[i % variants.length]!
        const b = variants[(i * 7 + 3) % variants.length]!
        const subtotal = a.price + 2 * b.price
        insOrder.run(
          id,
          storeId,
          who.customerId,
          `ORD-${String(i + 1).padStart(6, '0')}`,
          status,
          who.name,
          who.phone,
          who.address,
          subtotal,
          subtotal + 499,
          `h${i}`,
          createdAt,
          createdAt + (status === 'pending' ? 0 : 3_600_000),
        )
        insItem.run(`${id}-0`, id, a.productId, a.id, 'Product', 'Small', 1, a.price, a.price, 0)
        insItem.run(`${id}-1`, id, b.productId, b.id, 'Product', 'Large', 2, b.price, 2 * b.price, 1)
      }
    })()
  }
  db.transaction(() => {
    for (const [status, n] of Object.entries(counts)) {
      db.run(
        'INSERT INTO order_counts (store_id, status, count) VALUES (?, ?, ?) ' +
          'ON CONFLICT (store_id, status) DO UPDATE SET count = excluded.count',
        [storeId, status, n],
      )
    }
    db.run('UPDATE stores SET order_seq = ? WHERE id = ?', [total, storeId])
  })()
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.exec('ANALYZE')
  return newest
}
