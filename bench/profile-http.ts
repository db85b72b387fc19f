/**
 * Server CPU per request over TLS for ONE endpoint, the real server against its bare twin (and
 * the base checkout's server when BENCH_BASE_DIR is set), in alternating rounds: the tool for
 * finding the fixed cost of the request path. Not a registered bench.
 *
 *   bun bench/profile-http.ts products [--rounds 3] [--seconds 5]
 *   bun bench/profile-http.ts order --profile /tmp/prof     # + the server's --cpu-prof(-md)
 *   BENCH_BASE_DIR=/tmp/base PROFILE_ENV="BENCH_NO_RESPONSE_CACHE=1" bun bench/profile-http.ts products
 *
 * Endpoints: `products` (cached `GET /api/v1/products?limit=50`, 60 products × 3 variants),
 * `orders` (`GET /api/v1/orders?limit=50`), `customer` (`GET /api/v1/customers/:id`) and `store`
 * (the public `GET /api/v1/stores/:slug`; add PROFILE_ENV="BENCH_NO_RESPONSE_CACHE=1" for its
 * uncached read), on the
 * reads bench's data (bench/reads.ts: 60 orders of 2 lines from one customer, placed by this
 * checkout's server),
 * `order` (`POST /api/orders`, 2 lines + shipping, fresh phone per request, FULL, stock tracked).
 * CPU is the server process's user + system time from /proc, divided by completed requests.
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { placeOrders, seedReads } from './reads'
import {
  cleanupAll,
  fetchOnce,
  fmtInt,
  fmtMs,
  fmtUs,
  load,
  printTable,
  seedWith,
  startBareTwin,
  startServer,
  tempDir,
  type LoadResult,
  type Row,
  type ServerHandle,
} from './lib'

const args = process.argv.slice(2)
const which = args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? 'products'
const opt = (name: string, dflt: number) =>
  args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt
const rounds = opt('rounds', 3)
const seconds = opt('seconds', 5)
const profileDir = args.includes('--profile') ? args[args.indexOf('--profile') + 1]! : undefined
const baseDir = process.env.BENCH_BASE_DIR

// PROFILE_ENV="X=1 Y=2": extra environment for the servers (ours and the base), to weigh one piece.
const extra = Object.fromEntries(
  (process.env.PROFILE_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
)
const env = {
  RATE_LIMIT_KEY_PER_MIN: '100000000',
  RATE_LIMIT_ORDERS_PER_MIN: '100000000',
  RATE_LIMIT_STORE_READS_PER_MIN: '100000000',
  DB_SYNCHRONOUS: 'FULL',
  LOG_LEVEL: 'info',
  ...extra,
}

interface Target {
  dataDir: string
  path: string
  headers: Record<string, string>
  lua?: (n: number) => string
}

/** A DATA_DIR seeded by `cwd`'s code (this checkout's when absent) and what to send it. */
async function setup(cwd?: string): Promise<Target> {
  const dataDir = tempDir()
  if (which === 'orders' || which === 'customer' || which === 'store') return setupOrderReads(dataDir)
  const seeded = await seedWith(cwd, dataDir, {
    products: which === 'order' ? 10 : 60,
    variantsPerProduct: which === 'order' ? 2 : 3,
    categories: 3,
    scopes: ['products:read'],
  })
  if (which !== 'order')
    return { dataDir, path: '/api/v1/products?limit=50', headers: { authorization: `Bearer ${seeded.key}` } }
  const db = new Database(path.join(dataDir, 'storefront.db'))
  const now = Date.now()
  db.run(
    'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
      "VALUES ('shipbench', ?, 'Courier', 499, 1, ?, ?)",
    [seeded.storeId, now, now],
  )
  const variants = [seeded.variantIds[0]!, seeded.variantIds[3]!]
  for (const v of variants) db.run('UPDATE variants SET stock = 1000000000 WHERE id = ?', [v])
  db.close()
  const head = `{"storeId":"${seeded.storeId}","name":"Bench Buyer","address":"1 Main St, Springfield","phone":"`
  const items = `[{"variantId":"${variants[0]}","quantity":1},{"variantId":"${variants[1]}","quantity":2}]`
  const tail = `","items":${items},"shippingOptionId":"shipbench","notes":"leave at the door"}`
  return {
    dataDir,
    path: '/api/orders',
    headers: { 'content-type': 'application/json' },
    lua: (base) => `local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", "/api/orders", { ["content-type"] = "application/json" },
  '${head}' .. string.format("+1415%07d", ${base} + n) .. '${tail}')
end
`,
  }
}

/** The reads bench's data; the order list or a customer's detail with its 60 orders. */
async function setupOrderReads(dataDir: string): Promise<Target> {
  const seeded = await seedReads(dataDir)
  const headers = { authorization: `Bearer ${seeded.key}` }
  const s = await startServer({ dataDir, env })
  try {
    await placeOrders(s, seeded.storeId, seeded.variantIds)
    if (which === 'orders') return { dataDir, path: '/api/v1/orders?limit=50', headers }
    if (which === 'store') return { dataDir, path: `/api/v1/stores/${seeded.slug}`, headers: {} }
    const customerId = (
      JSON.parse((await fetchOnce(`${s.url}/api/v1/customers?limit=1`, { headers })).text) as { data: { id: string }[] }
    ).data[0]!.id
    return { dataDir, path: `/api/v1/customers/${customerId}`, headers }
  } finally {
    await s.stop()
  }
}

async function start(t: Target, cwd?: string): Promise<ServerHandle> {
  if (profileDir && !cwd) process.env.BENCH_SERVER_PROFILE = profileDir
  const s = await startServer({ dataDir: t.dataDir, env, cwd })
  delete process.env.BENCH_SERVER_PROFILE
  return s
}

// Orders write: the base gets its own DATA_DIR, seeded by its own code. Reads share one.
const target = await setup()
const baseTarget = baseDir ? (which === 'order' ? await setup(baseDir) : target) : undefined
const servers: { name: string; s: ServerHandle; t: Target; runs: LoadResult[] }[] = []
try {
  const ours = await start(target)
  servers.push({ name: 'ours', s: ours, t: target, runs: [] })
  if (baseTarget)
    servers.push({
      name: `base (${path.basename(baseDir!)})`,
      s: await start(baseTarget, baseDir),
      t: baseTarget,
      runs: [],
    })
  if (!target.lua) {
    const first = await fetchOnce(ours.url + target.path, { headers: target.headers })
    if (first.status !== 200) throw new Error(`${first.status} ${first.text.slice(0, 200)}`)
    servers.push({ name: 'bare twin', s: await startBareTwin(target.dataDir, first, target.path), t: target, runs: [] })
  }
  let phones = 2_000_000
  const run = (s: ServerHandle, t: Target, durationSec: number, pid?: number) =>
    load({
      url: s.url + t.path,
      headers: t.headers,
      connections: 50,
      durationSec,
      serverPid: pid,
      luaScript: t.lua?.((phones += 200_000)),
    }) // ≤ 200,000 orders a run; 7 digits up to 39 runs
  const served = new Map<ServerHandle, number>()
  for (const x of servers) served.set(x.s, (await run(x.s, x.t, 2)).requests)
  for (let i = 0; i < rounds; i++) for (const x of servers) x.runs.push(await run(x.s, x.t, seconds, x.s.pid))
  const rows: Row[] = servers.map((x) => {
    const cpu = x.runs.map((r) => r.cpuUsPerReq).sort((a, b) => a - b)
    return {
      server: x.name,
      'CPU/req (median)': fmtUs(cpu[Math.floor(cpu.length / 2)]!),
      'CPU/req rounds': cpu.map((c) => c.toFixed(1)).join(' '),
      'req/s (best)': fmtInt(Math.max(...x.runs.map((r) => r.rps))),
      'p99 (worst)': fmtMs(Math.max(...x.runs.map((r) => r.p99))),
      'non-2xx': x.runs.reduce((n, r) => n + r.non2xx + r.errors, 0),
      // For bench/profile-split.ts: every request the server answered, warm-up included.
      'requests in all': x.runs.reduce((n, r) => n + r.requests, served.get(x.s)!),
    }
  })
  console.log(`${which}: ${target.path}, 50 connections, ${rounds} × ${seconds} s alternating`)
  printTable(rows)
} finally {
  for (const x of servers) await x.s.stop()
  cleanupAll()
}
