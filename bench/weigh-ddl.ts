/**
 * What each trigger or index of the order path costs an order, by leaving it out: one database
 * per schema variant (`--ddl` of bench/profile-order-sql.ts: the unchanged schema, then one
 * DROP each), all in this process, and the batches of 50 orders (2 tracked lines + shipping,
 * distinct phones, the batcher's own `commitOrders`) placed in turn on each database, batch by
 * batch. Interleaving at that grain lets a busy neighbour slow every variant alike, which
 * separate runs on this shared machine do not (their medians swung ±20 µs). Prints per variant
 * the process CPU per order (user + sys) and the WAL pages per order (exact: each database's
 * WAL only grows, checkpoints off), and the difference to the unchanged schema. Not a
 * registered bench.
 *
 *   bun bench/weigh-ddl.ts [orders per variant] [--only name,name]
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { seed, tempDir } from './lib'
import { testConfig } from '../src/config'
import { createDeps, closeDeps } from '../src/deps'
import { checkoutBatch } from './lib/checkout-batch'

const args = process.argv.slice(2)
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 10000)
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : null
const BATCH = 50

const countsOnly = `DROP TRIGGER orders_counts_ai; CREATE TRIGGER orders_counts_ai AFTER INSERT ON orders BEGIN
  INSERT INTO order_counts (store_id, status, count) VALUES (NEW.store_id, NEW.status, 1)
  ON CONFLICT (store_id, status) DO UPDATE SET count = count + 1; END`
const customerOnly = `DROP TRIGGER orders_counts_ai; CREATE TRIGGER orders_counts_ai AFTER INSERT ON orders BEGIN
  UPDATE customers SET orders_count = orders_count + 1, total_spent = total_spent + NEW.total,
    first_order_at = coalesce(first_order_at, NEW.created_at), last_order_at = NEW.created_at
  WHERE id = NEW.customer_id; END`
const dropIndex = (name: string): [string, string] => [name, `DROP INDEX ${name}`]

/** name → DDL applied to the seeded database; '' is the schema as it is. */
const variants: [string, string][] = [
  ['(as is)', ''],
  ['orders_stats_ai', 'DROP TRIGGER orders_stats_ai'],
  ['orders_counts_ai', 'DROP TRIGGER orders_counts_ai'],
  ['orders_counts_ai: its customer update', countsOnly],
  ['orders_counts_ai: its order_counts upsert', customerOnly],
  ['order_names_ai', 'DROP TRIGGER order_names_ai'],
  ['order_events_ai', 'DROP TRIGGER order_events_ai'],
  ['order_items_stats_ai', 'DROP TRIGGER order_items_stats_ai'],
  [
    'all five triggers',
    'DROP TRIGGER orders_stats_ai; DROP TRIGGER orders_counts_ai; DROP TRIGGER order_names_ai; ' +
      'DROP TRIGGER order_events_ai; DROP TRIGGER order_items_stats_ai',
  ],
  ...[
    'orders_store_number_uq',
    'orders_store_created_idx',
    'orders_store_status_created_idx',
    'orders_store_updated_idx',
    'orders_customer_created_idx',
    'orders_status_token_uq',
    'order_items_order_idx',
    'order_items_product_idx',
    'customers_store_created_idx',
    'customers_store_updated_idx',
    'order_events_store_id_idx',
    'order_events_order_rowid_idx',
  ].map(dropIndex),
  // The same schema again, last in each turn: how far two identical databases differ here.
  ['(as is, again: the noise)', ''],
]
const picked = variants.filter(([name, ddl]) => !ddl || !only || only.includes(name))

const setups = []
for (const [name, ddl] of picked) {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 5, variantsPerProduct: 2, categories: 1 })
  const sdb = new Database(path.join(dataDir, 'storefront.db'))
  if (ddl) sdb.run(ddl)
  sdb.run(
    'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
      "VALUES ('shipbench', ?, 'Courier', 499, 1, 0, 0)",
    [seeded.storeId],
  )
  for (const v of seeded.variantIds.slice(0, 2)) sdb.run('UPDATE variants SET stock = 1000000000 WHERE id = ?', [v])
  sdb.close()
  const deps = createDeps(
    testConfig({ dataDir, logLevel: 'silent', dbSynchronous: 'NORMAL', rateLimitOrders: 1e9 } as never),
  )
  deps.db.$client.run('PRAGMA wal_autocheckpoint = 0')
  const batch = checkoutBatch(deps, seeded.storeId, seeded.variantIds, BATCH)
  setups.push({ name, deps, batch, wal: path.join(dataDir, 'storefront.db-wal'), cpu: 0, wal0: 0 })
}

for (let i = 0; i < 2000 / BATCH; i++) for (const s of setups) s.batch() // warm-up
for (const s of setups) s.wal0 = Bun.file(s.wal).size
for (let i = 0; i < N / BATCH; i++) {
  for (const s of setups) {
    const c0 = process.cpuUsage()
    s.batch()
    const c = process.cpuUsage(c0)
    s.cpu += c.user + c.system
  }
}

const rows = setups.map((s) => ({
  name: s.name,
  us: s.cpu / N,
  pages: (Bun.file(s.wal).size - s.wal0) / (4096 + 24) / N,
}))
const base = rows[0]!
console.log(
  `${N} orders per variant after 2,000 of warm-up, ${BATCH} a transaction, batches interleaved across the variants`,
)
console.log('| left out | µs CPU/order | costs µs | WAL pages/order | costs pages |')
console.log('|---|---:|---:|---:|---:|')
for (const r of rows) {
  const same = r === base
  const costs = same ? ['', ''] : [(base.us - r.us).toFixed(1), (base.pages - r.pages).toFixed(2)]
  console.log(`| ${r.name} | ${r.us.toFixed(1)} | ${costs[0]} | ${r.pages.toFixed(2)} | ${costs[1]} |`)
}
for (const s of setups) closeDeps(s.deps)
