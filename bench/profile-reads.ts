/**
 * In-process CPU cost of the read endpoints with the response cache off (no TLS, no socket):
 * each request through `app.handle`, N times after a warm-up, µs of process CPU per request.
 * Not a registered bench: a tool for finding where the time goes, e.g.
 * `bun --cpu-prof-md bench/profile-reads.ts 5000 products`.
 *
 * Data: 60 products × 3 variants (two images on a few, stock on some), 60 orders of 2 lines from
 * one customer. Args: a count, endpoint names to run (default all), `--cached` to keep the cache,
 * `--after-order` / `--after-write` to run before each request the after-commit effects of a
 * checkout that took one product's stock (stock only: the listings stay) or of an update of that
 * product (the listings are read again): the read right after such a write (docs/decisions/016).
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { seed, tempDir } from './lib'
import { testConfig } from '../src/config'
import { createDeps, closeDeps } from '../src/deps'
import { createApp } from '../src/app'

const args = process.argv.slice(2)
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000)
const cached = args.includes('--cached')
const only = args.filter((a) => !/^\d+$/.test(a) && !a.startsWith('--'))

const dataDir = tempDir()
const seeded = await seed(dataDir, { products: 60, variantsPerProduct: 3, categories: 3 })
const sdb = new Database(path.join(dataDir, 'storefront.db'))
sdb.run(
  'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
    "VALUES ('shipbench', ?, 'Courier', 499, 1, 0, 0)",
  [seeded.storeId],
)
// Images on every fifth product, stock on every third variant: the views' other branches.
seeded.productIds.forEach((pid, i) => {
  if (i % 5 === 0)
    for (const pos of [0, 1])
      sdb.run(
        'INSERT INTO product_images (id, store_id, product_id, position, width, height, widths, ' +
          "created_at) VALUES (?, ?, ?, ?, 1280, 960, '320,640,1280', 0)",
        [`img${i}x${pos}`, seeded.storeId, pid, pos],
      )
})
seeded.variantIds.forEach((vid, i) => i % 3 === 0 && sdb.run('UPDATE variants SET stock = 100000 WHERE id = ?', [vid]))
sdb.close()

const config = testConfig({
  dataDir,
  logLevel: 'silent',
  rateLimitOrders: 1e9,
  rateLimitKey: 1e9,
  rateLimitStoreReads: 1e9,
  benchNoResponseCache: !cached,
})
const deps = createDeps(config)
const app = createApp(deps)
const auth = { authorization: `Bearer ${seeded.key}` }
const [v1, v2] = seeded.variantIds
for (let i = 0; i < 60; i++) {
  const body = JSON.stringify({
    storeId: seeded.storeId,
    name: 'Bench Buyer',
    address: '1 Main St',
    phone: '+14155552000',
    items: [
      { variantId: v1, quantity: 1 + i },
      { variantId: v2, quantity: 2 },
    ],
    shippingOptionId: 'shipbench',
  })
  const r = await app.handle(
    new Request('http://localhost/api/orders', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  )
  if (r.status !== 201) throw new Error(`order: ${r.status} ${await r.text()}`)
}
const customerId = deps.db.$client.query<{ id: string }, []>('SELECT id FROM customers').get()!.id

const endpoints: Record<string, { path: string; headers?: Record<string, string> }> = {
  products: { path: '/api/v1/products?limit=50', headers: auth },
  product: { path: `/api/v1/products/${seeded.productIds[7]}`, headers: auth },
  orders: { path: '/api/v1/orders?limit=50', headers: auth },
  customer: { path: `/api/v1/customers/${customerId}`, headers: auth },
  store: { path: `/api/v1/stores/${seeded.slug}` },
  page: { path: `/s/${seeded.slug}` },
}

for (const [name, e] of Object.entries(endpoints)) {
  if (only.length && !only.includes(name)) continue
  const req = () => new Request(`http://localhost${e.path}`, { headers: e.headers })
  let bytes = 0
  for (let i = 0; i < 300; i++) {
    const r = await app.handle(req())
    if (r.status !== 200) throw new Error(`${name}: ${r.status} ${await r.text()}`)
    bytes = (await r.arrayBuffer()).byteLength
  }
  const write = args.includes('--after-order')
    ? { stockOnly: true }
    : args.includes('--after-write')
      ? { stockOnly: false }
      : undefined
  const before = write
    ? () =>
        deps.cache.invalidate(seeded.storeId, {
          products: [seeded.productIds[7]!],
          orders: [],
          stockOnly: write.stockOnly,
        })
    : () => {}
  const c0 = process.cpuUsage()
  for (let i = 0; i < N; i++) {
    before()
    await (await app.handle(req())).arrayBuffer()
  }
  const c = process.cpuUsage(c0)
  const after = write ? (write.stockOnly ? ', after an order' : ', after a product write') : ''
  console.log(
    `${name.padEnd(9)} ${((c.user + c.system) / N).toFixed(1).padStart(7)} µs CPU/request  ` +
      `(${bytes} B, ${cached ? 'cached' : 'uncached'}${after})`,
  )
}
app.gate.close()
closeDeps(deps)
if (args.includes('--sql')) {
  const { pageOfOrders, itemsOf } = await import('../src/modules/orders/sql')
  const t = (name: string, fn: () => unknown) => {
    for (let i = 0; i < 300; i++) fn()
    const c0 = process.cpuUsage()
    for (let i = 0; i < N; i++) fn()
    const c = process.cpuUsage(c0)
    console.log(name.padEnd(16), ((c.user + c.system) / N).toFixed(1), 'µs')
  }
  const d2 = createDeps(config)
  const rows = pageOfOrders(d2.db, { storeId: seeded.storeId }, 50, 0)
  t('pageOfOrders', () => pageOfOrders(d2.db, { storeId: seeded.storeId }, 50, 0))
  t('itemsOf', () =>
    itemsOf(
      d2.db.$client,
      rows.map((r) => r.id),
    ),
  )
  t('byCustomer', () => pageOfOrders(d2.db, { customerId }, 50, 0))
  console.log(
    d2.db.$client
      .query(
        'EXPLAIN QUERY PLAN SELECT * FROM order_items WHERE order_id IN (SELECT value FROM json_each(?)) ' +
          'ORDER BY order_id, position',
      )
      .all('[]'),
  )
  closeDeps(d2)
}
