/**
 * A busy shop's traffic: 90 % reads and 10 % writes over three stores, all through one server
 * (its response cache on, as in production: every order and product update drops that store's
 * cached bodies, so reads after a write are built from the database).
 *
 *   reads:  product list 25 %, product by id 20 %, public store read 15 %, storefront page 15 %,
 *           order list 10 %, customer detail 5 %
 *   writes: checkout (stock tracked on every line) 8 %, product price update 2 %
 *
 * Load: bench/mixed-load.ts, a Bun keep-alive client (wrk can't report latency per endpoint),
 * pinned to the load CPU; it picks each request at random by weight and store. Prints per
 * endpoint requests, p50/p99 as the client sees them, statuses, and the server's CPU per
 * request over the whole mix. DB_SYNCHRONOUS=FULL (the default).
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import {
  cpuPlan,
  cpuTimeMs,
  fetchOnce,
  fmtInt,
  fmtMs,
  fmtPct,
  fmtUs,
  seed,
  spawnTracked,
  startServer,
  tempDir,
  ROOT,
  type BenchOpts,
  type BenchResult,
  type Row,
  type Seeded,
} from './lib'

const WEIGHTS: Record<string, number> = {
  'GET products?limit=50': 25,
  'GET products/:id': 20,
  'GET stores/:slug': 15,
  'GET /s/:slug': 15,
  'GET orders?limit=50': 10,
  'GET customers/:id': 5,
  'POST /api/orders': 8,
  'PUT products/:id': 2,
}
const STORES = 3

/**
 * Three stores seeded for the mix (stock tracked, a shipping
 * option, images on every fifth product), before the server starts.
 */
export async function seedMixed(dataDir: string, quick: boolean): Promise<Seeded[]> {
  const seeded = []
  for (let i = 1; i <= STORES; i++) {
    const s = await seed(dataDir, {
      slug: `mixed-${i}`,
      products: quick ? 30 : 60,
      variantsPerProduct: 3,
      categories: 3,
      scopes: 'all',
    })
    seeded.push(s)
  }
  const db = new Database(path.join(dataDir, 'storefront.db'))
  const now = Date.now()
  for (const [i, s] of seeded.entries()) {
    db.run(
      'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
        'VALUES (?, ?, ?, 499, 1, ?, ?)',
      [`ship${i}`, s.storeId, 'Courier', now, now],
    )
    // Every variant tracked (checkout takes stock on every line); images on every fifth product.
    db.run(`UPDATE variants SET stock = 1000000000 WHERE product_id IN (SELECT id FROM products WHERE store_id = ?)`, [
      s.storeId,
    ])
    s.productIds.forEach((pid, j) => {
      if (j % 5 === 0)
        db.run(
          'INSERT INTO product_images (id, store_id, product_id, position, width, height, widths, ' +
            "created_at) VALUES (?, ?, ?, 0, 1280, 960, '320,640,1280', ?)",
          [`img${i}x${j}`, s.storeId, pid, now],
        )
    })
  }
  db.close()
  return seeded
}

/** The rate limits raised so the mix measures the server, not its limits. */
export const MIXED_ENV = {
  RATE_LIMIT_KEY_PER_MIN: '100000000',
  RATE_LIMIT_STORE_READS_PER_MIN: '100000000',
  RATE_LIMIT_ORDERS_PER_MIN: '100000000',
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seedMixed(dataDir, opts.quick)
  const server = await startServer({
    dataDir,
    env: { ...MIXED_ENV, LOG_LEVEL: 'info' },
  })
  try {
    const stores = await mixedStores(server.url, seeded)
    const runOnce = (durationSec: number) => mixedLoad(server, stores, opts.connections, durationSec)
    await runOnce(Math.min(2, opts.duration)) // warm-up
    const r = await runOnce(opts.duration)
    const total = Object.values(r.endpoints).reduce((a, e) => a + e.n, 0)
    const rows: Row[] = Object.entries(r.endpoints).map(([name, e]) => ({
      endpoint: name,
      share: fmtPct(e.n / total),
      requests: fmtInt(e.n),
      'req/s': fmtInt(e.n / r.elapsed),
      p50: fmtMs(e.p50),
      p99: fmtMs(e.p99),
      statuses: Object.entries(e.statuses)
        .map(([k, v]) => `${k}×${v}`)
        .join(' '),
    }))
    const bad = Object.values(r.endpoints).reduce(
      (a, e) =>
        a +
        Object.entries(e.statuses)
          .filter(([k]) => Number(k) >= 400)
          .reduce((x, [, v]) => x + v, 0),
      0,
    )
    rows.push({
      endpoint: 'all',
      share: '100 %',
      requests: fmtInt(total),
      'req/s': fmtInt(total / r.elapsed),
      p50: '',
      p99: '',
      statuses: `${bad} non-2xx, ${r.errors} errors`,
    })
    return {
      name: 'mixed',
      title:
        `mixed workload over ${STORES} stores (90 % reads, 10 % writes, ` +
        `stock tracked), ${opts.connections} connections, ${opts.duration} s, load: ` +
        'bun (per-endpoint latency)',
      rows,
      notes: [
        `server CPU per request over the mix: ${fmtUs((r.cpuMs * 1000) / total)}; ` +
          `server CPU use ${fmtPct(r.cpuMs / r.wallMs)} of one core`,
        'latency is what the client sees (connection queueing included); ' +
          'the load generator is a Bun fetch loop, which costs CPU on the load core, so req/s is a floor',
        `cpu: ${cpuPlan().description}`,
      ],
      pass: bad === 0 && r.errors === 0,
      summary:
        `${fmtInt(total / r.elapsed)} req/s mixed, server ${fmtUs((r.cpuMs * 1000) / total)} CPU/req; ` +
        `p99 list ${fmtMs(r.endpoints['GET products?limit=50']!.p99)}, ` +
        `checkout ${fmtMs(r.endpoints['POST /api/orders']!.p99)}`,
    }
  } finally {
    await server.stop()
  }
}

/** 20 orders from one phone per store, so order lists and the customer have rows. */
async function placeOrdersFor(url: string, storeId: string, variantIds: string[], shippingId: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const body = JSON.stringify({
      storeId,
      name: 'Repeat Buyer',
      address: '1 Main St',
      phone: '+14155552000',
      items: [
        { variantId: variantIds[0], quantity: 1 + i },
        { variantId: variantIds[3], quantity: 2 },
      ],
      shippingOptionId: shippingId,
    })
    const r = await fetchOnce(`${url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    if (r.status !== 201) throw new Error(`POST /api/orders: ${r.status} ${r.text.slice(0, 200)}`)
  }
}

export interface MixedStore {
  storeId: string
  slug: string
  key: string
  productIds: string[]
  variantIds: string[]
  shippingId: string
  customerId: string
}

/** Each seeded store with 20 orders and its customer, as the load client needs them. */
export async function mixedStores(url: string, seeded: Seeded[]): Promise<MixedStore[]> {
  const stores: MixedStore[] = []
  for (const [i, s] of seeded.entries()) {
    // placeOrders uses the `shipbench` option id: give each store its own orders and customer.
    await placeOrdersFor(url, s.storeId, s.variantIds, `ship${i}`)
    const c = JSON.parse(
      (await fetchOnce(`${url}/api/v1/customers?limit=1`, { headers: { authorization: `Bearer ${s.key}` } })).text,
    ) as { data: { id: string }[] }
    stores.push({
      storeId: s.storeId,
      slug: s.slug,
      key: s.key,
      productIds: s.productIds,
      variantIds: s.variantIds,
      shippingId: `ship${i}`,
      customerId: c.data[0]!.id,
    })
  }
  return stores
}

/** One round of the mix from bench/mixed-load.ts on the load CPU, with the server's CPU time over it. */
export async function mixedLoad(
  server: { url: string; pid: number },
  stores: MixedStore[],
  connections: number,
  durationSec: number,
) {
  const cpu0 = cpuTimeMs(server.pid)
  const t0 = performance.now()
  const child = spawnTracked([...cpuPlan().load, process.execPath, path.join(ROOT, 'bench/mixed-load.ts')], {
    MIXED_SPEC: JSON.stringify({ base: server.url, connections, durationSec, stores, weights: WEIGHTS }),
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)))
  if (code !== 0) throw new Error(`mixed load failed (${code}): ${err}`)
  const cpuMs = cpuTimeMs(server.pid) - cpu0
  const wallMs = performance.now() - t0
  return {
    ...(JSON.parse(out) as {
      elapsed: number
      errors: number
      endpoints: Record<string, { n: number; p50: number; p99: number; statuses: Record<string, number> }>
    }),
    cpuMs,
    wallMs,
  }
}
