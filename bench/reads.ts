/**
 * Read endpoints with the per-store response cache on and off, side by side with a bare
 * `Bun.serve` returning the same bytes (docs/decisions/006). With stock tracked, every order
 * drops the store's cached bodies, so on a busy store the uncached path is the common one.
 *
 * One server with its cache (the default), then one started with BENCH_NO_RESPONSE_CACHE=1 (every
 * GET built from the database; read once by config, used by benches only), on the same DATA_DIR:
 * 60 products × 3 variants (images on every fifth product, stock on every third variant) and 60
 * orders of 2 lines from one customer, placed through `POST /api/orders`.
 *
 * BENCH_BASE_DIR=<a checkout of another revision> adds that revision's server, uncached, on the
 * same data in the same run (its cache must honour BENCH_NO_RESPONSE_CACHE=1): the baseline.
 *
 * Targets (server CPU per request, uncached): product list ≤ 250 µs, order list and customer
 * detail ≤ 300 µs, public store read ≤ 150 µs. CPU per request rather than req/s: on a shared
 * machine waiting for a CPU costs wall time, not CPU time.
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import {
  cpuPlan,
  fetchOnce,
  fmtInt,
  fmtMs,
  fmtUs,
  load,
  seed,
  startBareServer,
  startServer,
  tempDir,
  type BenchOpts,
  type BenchResult,
  type LoadResult,
  type Row,
  type ServerHandle,
} from './lib'

const LIMITS = {
  RATE_LIMIT_KEY_PER_MIN: '100000000',
  RATE_LIMIT_STORE_READS_PER_MIN: '100000000',
  RATE_LIMIT_ORDERS_PER_MIN: '100000000',
  LOG_LEVEL: 'info',
}

interface Endpoint {
  name: string
  path: string
  auth: boolean
  /** Target server CPU per request uncached, µs. */
  target?: number
  /** Target uncached CPU per request over the bare twin's. */
  bareRatio?: number
}

/** Seeds the catalog and the customer's orders; returns the endpoints to measure. */
export async function seedReads(dataDir: string) {
  const seeded = await seed(dataDir, { products: 60, variantsPerProduct: 3, categories: 3, scopes: 'all' })
  const db = new Database(path.join(dataDir, 'storefront.db'))
  const now = Date.now()
  db.run(
    'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
      "VALUES ('shipbench', ?, 'Courier', 499, 1, ?, ?)",
    [seeded.storeId, now, now],
  )
  seeded.productIds.forEach((pid, i) => {
    if (i % 5 === 0)
      for (const pos of [0, 1])
        db.run(
          'INSERT INTO product_images (id, store_id, product_id, position, width, height, widths, ' +
            "created_at) VALUES (?, ?, ?, ?, 1280, 960, '320,640,1280', ?)",
          [`img${i}x${pos}`, seeded.storeId, pid, pos, now],
        )
  })
  seeded.variantIds.forEach(
    (vid, i) => i % 3 === 0 && db.run('UPDATE variants SET stock = 1000000 WHERE id = ?', [vid]),
  )
  db.close()
  return seeded
}

/** 60 orders of 2 lines from one phone (quantities differ, so none is a duplicate). */
export async function placeOrders(
  server: ServerHandle,
  storeId: string,
  variantIds: string[],
  n = 60,
  phone = '+14155552000',
): Promise<void> {
  for (let i = 0; i < n; i++) {
    const body = JSON.stringify({
      storeId,
      name: 'Bench Buyer',
      address: '1 Main St, Springfield',
      phone,
      items: [
        { variantId: variantIds[0], quantity: 1 + i },
        { variantId: variantIds[3], quantity: 2 },
      ],
      shippingOptionId: 'shipbench',
    })
    const r = await fetchOnce(`${server.url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    if (r.status !== 201) throw new Error(`POST /api/orders: ${r.status} ${r.text.slice(0, 200)}`)
  }
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seedReads(dataDir)
  const headers = { authorization: `Bearer ${seeded.key}` }
  const duration = Math.min(opts.duration, 5)
  const rows: Row[] = []
  const notes: string[] = []
  let pass = true

  let server = await startServer({ dataDir, env: LIMITS })
  let endpoints: Endpoint[]
  try {
    await placeOrders(server, seeded.storeId, seeded.variantIds)
    const customerId = (
      JSON.parse((await fetchOnce(`${server.url}/api/v1/customers?limit=1`, { headers })).text) as {
        data: { id: string }[]
      }
    ).data[0]!.id
    endpoints = [
      { name: 'product list', path: '/api/v1/products?limit=50', auth: true, target: 250, bareRatio: 5 },
      { name: 'order list', path: '/api/v1/orders?limit=50', auth: true, target: 300, bareRatio: 8 },
      { name: 'customer detail', path: `/api/v1/customers/${customerId}`, auth: true, target: 300, bareRatio: 8 },
      { name: 'store read (public)', path: `/api/v1/stores/${seeded.slug}`, auth: false, target: 150, bareRatio: 5 },
      { name: 'product by id', path: `/api/v1/products/${seeded.productIds[7]}`, auth: true, bareRatio: 5 },
    ]
  } catch (err) {
    await server.stop()
    throw err
  }

  const results = new Map<
    string,
    {
      cached?: LoadResult
      uncached?: LoadResult
      base?: LoadResult
      baseCached?: LoadResult
      bare?: LoadResult
      bytes: number
    }
  >()
  const baseDir = process.env.BENCH_BASE_DIR
  // The base's cached server runs beside this one's, each endpoint measured on both in turn.
  const baseCached = baseDir ? await startServer({ dataDir, cwd: baseDir, env: LIMITS }) : undefined
  const measure = async (s: ServerHandle, e: Endpoint) => {
    const h = e.auth ? headers : {}
    const first = await fetchOnce(s.url + e.path, { headers: h })
    if (first.status !== 200) throw new Error(`GET ${e.path}: ${first.status} ${first.text.slice(0, 200)}`)
    const common = { url: s.url + e.path, headers: h, connections: opts.connections, bunLoad: opts.bunLoad }
    await load({ ...common, durationSec: 1 })
    return { r: await load({ ...common, durationSec: duration, serverPid: s.pid }), body: first }
  }
  try {
    for (const e of endpoints) {
      const { r, body } = await measure(server, e)
      results.set(e.name, { cached: r, bytes: Buffer.byteLength(body.text) })
      if (baseCached) results.get(e.name)!.baseCached = (await measure(baseCached, e)).r
      const bare = await startBareServer({
        certFile: path.join(dataDir, 'tls/cert.pem'),
        keyFile: path.join(dataDir, 'tls/key.pem'),
        body: body.text,
      })
      try {
        results.get(e.name)!.bare = (await measure(bare, { ...e, auth: false })).r
      } finally {
        await bare.stop()
      }
    }
  } finally {
    await server.stop()
    await baseCached?.stop()
  }
  // Uncached, this revision and the base alternately per endpoint (a burst of outside load hits both).
  server = await startServer({ dataDir, env: { ...LIMITS, BENCH_NO_RESPONSE_CACHE: '1' } })
  const base = baseDir
    ? await startServer({ dataDir, cwd: baseDir, env: { ...LIMITS, BENCH_NO_RESPONSE_CACHE: '1' } })
    : undefined
  try {
    for (const e of endpoints) {
      results.get(e.name)!.uncached = (await measure(server, e)).r
      if (base) results.get(e.name)!.base = (await measure(base, e)).r
    }
  } finally {
    await server.stop()
    await base?.stop()
  }

  for (const e of endpoints) {
    const x = results.get(e.name)!
    const u = x.uncached!
    const met = e.target === undefined ? undefined : u.cpuUsPerReq <= e.target && u.non2xx === 0 && u.errors === 0
    const bareLimit = e.bareRatio ? ` (≤ ${e.bareRatio}x)` : ''
    if (met === false) pass = false
    rows.push({
      endpoint: e.name,
      bytes: fmtInt(x.bytes),
      'bare CPU/req': fmtUs(x.bare!.cpuUsPerReq),
      'cached CPU/req': fmtUs(x.cached!.cpuUsPerReq),
      'cached/bare': `${(x.cached!.cpuUsPerReq / x.bare!.cpuUsPerReq).toFixed(1)}x`,
      ...(x.baseCached ? { 'base cached CPU/req': fmtUs(x.baseCached.cpuUsPerReq) } : {}),
      'uncached CPU/req': fmtUs(u.cpuUsPerReq),
      'uncached/bare': `${(u.cpuUsPerReq / x.bare!.cpuUsPerReq).toFixed(1)}x${bareLimit}`,
      ...(x.base
        ? {
            'base uncached CPU/req': fmtUs(x.base.cpuUsPerReq),
            'base/this': `${(x.base.cpuUsPerReq / u.cpuUsPerReq).toFixed(2)}x`,
          }
        : {}),
      target: e.target === undefined ? '—' : `≤ ${e.target} µs ${met ? 'met' : 'MISSED'}`,
      'uncached req/s': fmtInt(u.rps),
      'uncached p99': fmtMs(u.p99),
      'cached req/s': fmtInt(x.cached!.rps),
      'bare req/s': fmtInt(x.bare!.rps),
      'non-2xx': u.non2xx + x.cached!.non2xx,
    })
  }
  notes.push(
    'order list and customer detail: cached, the body kept until a write to the store; uncached, ' +
      'the page is read and spliced from the orders’ cached list forms (docs/decisions/029)',
    'uncached: BENCH_NO_RESPONSE_CACHE=1; the store read also counts a visit (in memory, ' +
      'written behind), no write on the request path',
    "uncached keeps the per-product and per-order fragments and the store's listings " +
      '(docs/decisions/007, 016): no write runs during the bench, ' +
      'so it is the read after a checkout (it rebuilds only the products whose stock it took and the new ' +
      "order's list form; a product or settings write also re-reads the listings)",
    ...(baseDir
      ? [
          `base: the server from ${baseDir} on the same data, cached and uncached, ` +
            `each run right after this revision's for each endpoint`,
        ]
      : []),
    `${opts.connections} connections, ${duration} s per run after 1 s warm-up; cpu: ${cpuPlan().description}`,
  )
  const pl = results.get('product list')!
  return {
    name: 'reads',
    title: 'GET endpoints over TLS: bare Bun.serve (same bytes) vs the server with its response cache vs without',
    rows,
    notes,
    pass,
    summary:
      `uncached CPU/req: ${endpoints
        .map((e) => `${e.name} ${fmtUs(results.get(e.name)!.uncached!.cpuUsPerReq)}`)
        .join(', ')}; ` + `product list cached ${fmtUs(pl.cached!.cpuUsPerReq)}, bare ${fmtUs(pl.bare!.cpuUsPerReq)}`,
  }
}
