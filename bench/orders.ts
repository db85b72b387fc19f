/**
 * Checkout throughput: `POST /api/orders` over TLS against the real server, every request a
 * new order (distinct phone numbers, so none is a duplicate), 2 variant lines and a shipping
 * option each. The per-IP limit is raised by env (RATE_LIMIT_ORDERS_PER_MIN); every request
 * still passes the gate. Run with the default DB_SYNCHRONOUS=FULL (a 201 is on disk) and with
 * NORMAL (survives a process crash, not a power cut) for comparison.
 *
 * After each run the database is checked: as many orders as 201s, all order numbers distinct.
 *
 * Each level runs untracked and with stock tracked on both variants (inventory: a guarded
 * UPDATE per line inside the order's savepoint) alternately on one server, A B B A; each tracked
 * phase checks that the stock went down by exactly the units ordered.
 *
 * BENCH_BASE_DIR=<a checkout of another revision> runs that revision's server too, on its own
 * DATA_DIR seeded by its own code, through the same phases in turn (A/B within each phase):
 * rows per server, and the base/this ratios of CPU per order and orders/s.
 *
 * Beside ours, the bare twin: bench/bare-checkout.ts writing the same rows with the same group
 * commit straight through bun:sqlite, on its own database seeded the same way, in the same run.
 *
 * Targets: ≥ 2,000 orders/s with DB_SYNCHRONOUS=FULL at 50 connections, no non-2xx answers;
 * tracked stock costs ≤ 10 % of orders/s; each tracked phase at FULL ≥ 2,500 orders/s with
 * p99 ≤ 50 ms.
 */
import { Database } from 'bun:sqlite'
import os from 'node:os'
import path from 'node:path'
import {
  cpuPlan,
  fetchOnce,
  sleep,
  fmtInt,
  fmtMs,
  fmtPct,
  fmtUs,
  hasWrk,
  load,
  seedWith,
  startBareServer,
  startServer,
  tempDir,
  spawnTracked,
  ROOT,
  type BenchOpts,
  type BenchResult,
  type LoadResult,
  type Row,
  type Seeded,
  type ServerHandle,
} from './lib'

const TARGET_RPS = 2000
/** Tracked stock at FULL, 50 connections (docs/decisions/006): each tracked phase. */
const TARGET_TRACKED_RPS = 2500
const TARGET_TRACKED_P99_MS = 50
const MAX_STOCK_COST = 0.1
/** Enough units that the run never runs out: every answer must still be a 201. */
const STOCK = 1_000_000_000

/** A wrk script posting a fresh order per request: the phone counts up from `base`. */
function script(storeId: string, variants: [string, string], shippingId: string, base: number): string {
  const head = `{"storeId":"${storeId}","name":"Bench Buyer","address":"1 Main St, Springfield","phone":"`
  const items = `[{"variantId":"${variants[0]}","quantity":1},{"variantId":"${variants[1]}","quantity":2}]`
  const tail = `","items":${items},"shippingOptionId":"${shippingId}","notes":"leave at the door"}`
  return `
local n = 0
local head = '${head}'
local tail = '${tail}'
request = function()
  n = n + 1
  local phone = string.format("+1415%07d", 2000000 + ((${base} + n) % 7000000))
  return wrk.format("POST", "/api/orders", { ["content-type"] = "application/json" }, head .. phone .. tail)
end
`
}

function addShipping(dataDir: string, storeId: string): string {
  const db = new Database(path.join(dataDir, 'storefront.db'))
  const id = `ship${Date.now().toString(36)}`
  const now = Date.now()
  db.run(
    'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, 1, ?, ?)',
    [id, storeId, 'Courier', 499, now, now],
  )
  db.close()
  return id
}

/** Sets (or, with null, clears) the stock of the bench's variants through a second connection, as the API would. */
function setStock(dataDir: string, variantIds: string[], stock: number | null): void {
  const db = new Database(path.join(dataDir, 'storefront.db'))
  db.run('PRAGMA busy_timeout = 5000') // the server's write-behind flushes may hold the lock for a moment
  for (const id of variantIds) db.run('UPDATE variants SET stock = ? WHERE id = ?', [stock, id])
  db.close()
}

function verify(
  dataDir: string,
  storeId: string,
  variantIds: string[],
): { orders: number; distinctNumbers: number; items: number; trackedUnits: number; stockLeft: number | null } {
  const db = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
  try {
    const q = (sql: string) => (db.query(sql).get(storeId) as { n: number }).n
    return {
      orders: q('SELECT count(*) AS n FROM orders WHERE store_id = ?'),
      distinctNumbers: q('SELECT count(DISTINCT order_number) AS n FROM orders WHERE store_id = ?'),
      items: q('SELECT count(*) AS n FROM order_items WHERE order_id IN (SELECT id FROM orders WHERE store_id = ?)'),
      trackedUnits: q(
        'SELECT coalesce(sum(quantity), 0) AS n FROM order_items WHERE stock_taken = 1 ' +
          'AND order_id IN (SELECT id FROM orders WHERE store_id = ?)',
      ),
      stockLeft: db
        .query<{ n: number | null }, [string]>(
          'SELECT sum(stock) AS n FROM variants WHERE id IN (SELECT value FROM json_each(?))',
        )
        .get(JSON.stringify(variantIds))!.n,
    }
  } finally {
    db.close()
  }
}

/**
 * Untracked and tracked runs alternate on ONE server (A B B A), so server start-up, database
 * growth and the neighbours' load on a shared machine weigh on both alike.
 */
const PHASES = [false, true, true, false]

interface Phase {
  tracked: boolean
  r: LoadResult
  /** Units the stock went down by, and units of tracked lines ordered, during the phase. */
  taken: number
  ordered: number
}

/** One server under test: its own DATA_DIR seeded by its own checkout's code. */
interface Shop {
  name: string
  dataDir: string
  seeded: Seeded
  shippingId: string
  variants: [string, string]
  server: ServerHandle
  phases: Phase[]
  /** The probe order's 201 body: the bytes the HTTP floor answers with. */
  created: string
}

async function openShop(name: string, synchronous: 'FULL' | 'NORMAL', cwd?: string): Promise<Shop> {
  const dataDir = tempDir()
  const seeded = await seedWith(cwd, dataDir, {
    products: 10,
    variantsPerProduct: 2,
    categories: 1,
    scopes: ['orders:read'],
  })
  const shippingId = addShipping(dataDir, seeded.storeId)
  const variants: [string, string] = [seeded.variantIds[0]!, seeded.variantIds[3]!]
  const server = await startServer({
    dataDir,
    cwd,
    env: { RATE_LIMIT_ORDERS_PER_MIN: '100000000', DB_SYNCHRONOUS: synchronous, LOG_LEVEL: 'info' },
  })
  const probe = await fetchOnce(`${server.url}/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      storeId: seeded.storeId,
      name: 'Probe',
      phone: '+14155550000',
      items: [{ variantId: variants[0], quantity: 1 }],
      shippingOptionId: shippingId,
    }),
  })
  if (probe.status !== 201) throw new Error(`POST /api/orders (${name}): ${probe.status} ${probe.text.slice(0, 300)}`)
  return { name, dataDir, seeded, shippingId, variants, server, phases: [], created: probe.text }
}

/**
 * This revision (and the base's server when BENCH_BASE_DIR is set, on its own DATA_DIR seeded
 * by its own code) through the same phases; the servers take turns in each phase, the first
 * one alternating, so a burst of outside load hits both.
 */
async function measure(
  opts: BenchOpts,
  synchronous: 'FULL' | 'NORMAL',
  baseDir: string | undefined,
): Promise<
  {
    name: string
    phases: Phase[]
    check: ReturnType<typeof verify>
    walMb: number
    checkpoints: string
    floor?: LoadResult
  }[]
> {
  const shops: Shop[] = []
  try {
    shops.push(await openShop('this', synchronous))
    if (baseDir) shops.push(await openShop('base', synchronous, baseDir))
    const common = (s: Shop) => ({
      url: `${s.server.url}/api/orders`,
      connections: opts.connections,
      serverPid: s.server.pid,
    })
    // Warm-up with its own phone range, then the measured phases, each with its own range.
    for (const s of shops)
      await load({
        ...common(s),
        durationSec: Math.min(2, opts.duration),
        luaScript: script(s.seeded.storeId, s.variants, s.shippingId, 0),
      })
    for (const [i, tracked] of PHASES.entries()) {
      for (const s of i % 2 === 0 ? shops : [...shops].reverse()) {
        setStock(s.dataDir, s.variants, tracked ? STOCK : null)
        const before = verify(s.dataDir, s.seeded.storeId, s.variants).trackedUnits
        const r = await load({
          ...common(s),
          durationSec: opts.duration,
          luaScript: script(s.seeded.storeId, s.variants, s.shippingId, 1_000_000 * (i + 1)),
        })
        // wrk stops with up to one post per connection still being placed: let those land in this phase.
        await sleep(1000)
        const after = verify(s.dataDir, s.seeded.storeId, s.variants)
        s.phases.push({
          tracked,
          r,
          taken: tracked ? STOCK * s.variants.length - after.stockLeft! : 0,
          ordered: after.trackedUnits - before,
        })
      }
    }
    // The HTTP floor (at FULL, beside this revision): the same posts to a bare Bun.serve.
    const floor = synchronous === 'FULL' ? await httpFloor(opts, shops[0]!) : undefined
    const out = []
    for (const s of shops) {
      // The WAL file's size at the end: checkpoints keep it bounded (it grows only while none completes).
      const walMb = Bun.file(path.join(s.dataDir, 'storefront.db-wal')).size / 1e6
      await s.server.stop()
      const cp = s.server.logs
        .map((l) => {
          try {
            return JSON.parse(l)
          } catch {
            return {}
          }
        })
        .find((j) => j.msg === 'wal checkpoints')
      const checkpoints = cp
        ? `${fmtInt(cp.checkpoints)} checkpoints off the event loop, ` +
          `≤ ${fmtInt(cp.maxLog)} frames and ≤ ${fmtMs(cp.maxMs)} each; ${fmtInt(cp.restarts)} with ` +
          `commits held (WAL restart), longest hold ${fmtMs(cp.maxHoldMs)}`
        : 'no checkpointer report'
      out.push({
        name: s.name,
        phases: s.phases,
        check: verify(s.dataDir, s.seeded.storeId, s.variants),
        walMb,
        checkpoints,
        ...(s.name === 'this' && floor ? { floor } : {}),
      })
    }
    return out
  } finally {
    for (const s of shops) await s.server.stop()
  }
}

/**
 * What any server answering these posts pays that the bare twin does not: a bare `Bun.serve`
 * over TLS with the server's certificate, taking the same posts from wrk over the same
 * connections, reading and parsing each JSON body, and answering 201 with the probe order's
 * bytes. Its CPU per request is the HTTP, TLS and JSON parse floor under ours.
 */
async function httpFloor(opts: BenchOpts, s: Shop): Promise<LoadResult> {
  const bare = await startBareServer({
    certFile: path.join(s.dataDir, 'tls/cert.pem'),
    keyFile: path.join(s.dataDir, 'tls/key.pem'),
    body: s.created,
    status: 201,
    readJson: true,
  })
  try {
    const run = (durationSec: number, base: number) =>
      load({
        url: `${bare.url}/api/orders`,
        connections: opts.connections,
        serverPid: bare.pid,
        durationSec,
        luaScript: script(s.seeded.storeId, s.variants, s.shippingId, base),
      })
    await run(Math.min(2, opts.duration), 0)
    return await run(opts.duration, 9_000_000)
  } finally {
    await bare.stop()
  }
}

/**
 * The bare twin (bench/bare-checkout.ts) on a database seeded like ours, stock tracked, pinned
 * to the server's CPU: the same rows per order, groups of `connections` orders (about what the
 * server's batcher gathers from that many connections), one fsync per group.
 */
async function bareTwin(opts: BenchOpts): Promise<{ ordersPerSec: number; cpuUsPerOrder: number; groupP99Ms: number }> {
  const dataDir = tempDir()
  const seeded = await seedWith(undefined, dataDir, { products: 10, variantsPerProduct: 2, categories: 1 })
  const shippingId = addShipping(dataDir, seeded.storeId)
  const variantIds = [seeded.variantIds[0]!, seeded.variantIds[3]!]
  setStock(dataDir, variantIds, STOCK)
  const child = spawnTracked([...cpuPlan().server, process.execPath, path.join(ROOT, 'bench/bare-checkout.ts')], {
    BARE_DB: path.join(dataDir, 'storefront.db'),
    BARE_SPEC: JSON.stringify({
      storeId: seeded.storeId,
      variantIds,
      shippingId,
      durationSec: opts.duration,
      group: opts.connections,
    }),
  })
  let out = ''
  let err = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (err += d))
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)))
  if (code !== 0) throw new Error(`bare checkout failed (${code}): ${err}`)
  const r = JSON.parse(out) as { orders: number; cpuMs: number; wallMs: number; groupP99Ms: number }
  const check = verify(dataDir, seeded.storeId, variantIds)
  if (check.orders !== r.orders || check.items !== r.orders * 2 || check.trackedUnits !== r.orders * 3)
    throw new Error(`bare checkout: database check failed: ${JSON.stringify({ ...check, wrote: r.orders })}`)
  return {
    ordersPerSec: (r.orders * 1000) / r.wallMs,
    cpuUsPerOrder: (r.cpuMs * 1000) / r.orders,
    groupP99Ms: r.groupP99Ms,
  }
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  if (!hasWrk() || opts.bunLoad)
    throw new Error('the orders bench needs wrk (each request carries a different body): apt-get install -y wrk')
  const rows: Row[] = []
  const notes: string[] = []
  const rps: Record<string, number> = {}
  const cpu: Record<string, number> = {}
  let full: LoadResult | undefined
  let ok = true
  let trackedOk = true
  const baseDir = process.env.BENCH_BASE_DIR
  // The machine is shared: only figures of one run compare, and the load says how busy it was.
  const loadAvg = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')
  const loadAtStart = loadAvg()
  let floor: LoadResult | undefined
  for (const sync of ['FULL', 'NORMAL'] as const) {
    for (const measured of await measure(opts, sync, baseDir)) {
      const { name, phases, check, walMb, checkpoints } = measured
      floor ??= measured.floor
      const mine = name === 'this'
      notes.push(`${sync}${mine ? '' : ' (base)'}: WAL file ${walMb.toFixed(1)} MB at the end; ${checkpoints}`)
      // Every 201 is an order: the probe, the warm-up and the measured runs, nothing else.
      // the probe has one line
      const consistent = check.orders === check.distinctNumbers && check.items === check.orders * 2 - 1
      if (!consistent) notes.push(`${sync} (${name}): database check failed: ${JSON.stringify(check)}`)
      ok &&= consistent
      for (const tracked of [false, true]) {
        const these = phases.filter((p) => p.tracked === tracked)
        const mean = (f: (r: LoadResult) => number) => these.reduce((s, p) => s + f(p.r), 0) / these.length
        rps[`${name} ${sync} ${tracked}`] = mean((r) => r.rps)
        cpu[`${name} ${sync} ${tracked}`] = mean((r) => r.cpuUsPerReq)
      }
      if (mine) full ??= phases[0]!.r
      for (const p of phases) {
        const r = p.r
        if (mine && sync === 'FULL' && p.tracked)
          trackedOk &&= r.rps >= TARGET_TRACKED_RPS && r.p99 <= TARGET_TRACKED_P99_MS
        // Stock taken must equal the units of tracked lines ordered, and only while tracked.
        const exact = p.tracked ? p.taken === p.ordered && p.ordered > 0 : p.ordered === 0
        if (!exact)
          notes.push(
            `${sync} (${name}): stock check ` +
              `failed: ${JSON.stringify({ tracked: p.tracked, taken: p.taken, ordered: p.ordered })}`,
          )
        ok &&= exact && r.non2xx === 0 && r.errors === 0
        rows.push({
          ...(baseDir ? { server: name } : {}),
          DB_SYNCHRONOUS: sync,
          stock: p.tracked ? 'tracked' : 'untracked',
          'orders/s': fmtInt(r.rps),
          p50: fmtMs(r.p50),
          p90: fmtMs(r.p90),
          p99: fmtMs(r.p99),
          'server CPU/order': fmtUs(r.cpuUsPerReq),
          'server CPU use': fmtPct(r.serverCpuShare),
          requests: fmtInt(r.requests),
          'non-2xx': r.non2xx,
          errors: r.errors,
          'units taken': fmtInt(p.taken),
        })
      }
      rows.push({
        ...(baseDir ? { server: name } : {}),
        DB_SYNCHRONOUS: sync,
        stock: 'orders in DB',
        'orders/s': fmtInt(check.orders),
        p50: `${fmtInt(check.distinctNumbers)} distinct numbers`,
      })
    }
  }
  const bare = await bareTwin(opts)
  rows.push({
    ...(baseDir ? { server: 'bare twin' } : {}),
    DB_SYNCHRONOUS: 'FULL (1 fsync a group)',
    stock: 'tracked, bare bun:sqlite twin',
    'orders/s': fmtInt(bare.ordersPerSec),
    p99: `${fmtMs(bare.groupP99Ms)} (commit + fsync of a group)`,
    'server CPU/order': fmtUs(bare.cpuUsPerOrder),
  })
  if (floor)
    rows.push({
      ...(baseDir ? { server: 'HTTP floor' } : {}),
      DB_SYNCHRONOUS: '—',
      stock: 'bare Bun.serve: TLS, JSON body parsed, the 201 bytes',
      'orders/s': fmtInt(floor.rps),
      p50: fmtMs(floor.p50),
      p90: fmtMs(floor.p90),
      p99: fmtMs(floor.p99),
      'server CPU/order': fmtUs(floor.cpuUsPerReq),
      'server CPU use': fmtPct(floor.serverCpuShare),
      requests: fmtInt(floor.requests),
      'non-2xx': floor.non2xx,
      errors: floor.errors,
    })
  const ours = cpu['this FULL true']!
  const twinCpu = bare.cpuUsPerOrder
  const ratio = ours / twinCpu
  const p99s = phasesP99(rows)
  notes.push(
    `bare twin (bench/bare-checkout.ts: the same rows, groups of ${opts.connections}, no HTTP): tracked at FULL, ` +
      `means: ours ${fmtUs(ours)} / twin ${fmtUs(twinCpu)} CPU per order = ${ratio.toFixed(2)}x (target ≤ 2x), ` +
      `orders/s ${(rps['this FULL true']! / bare.ordersPerSec).toFixed(2)}x; p99 of the tracked phases ${p99s} ` +
      `(target ≤ ${TARGET_TRACKED_P99_MS} ms)`,
    ...(baseDir ? [`base / twin CPU per order: ${(cpu['base FULL true']! / twinCpu).toFixed(2)}x`] : []),
    ...(floor
      ? [
          `what the twin does not do, the HTTP floor: ${fmtUs(floor.cpuUsPerReq)} per post; ours / (twin + floor) ` +
            `${(ours / (twinCpu + floor.cpuUsPerReq)).toFixed(2)}x; ours less the floor / twin ` +
            `${((ours - floor.cpuUsPerReq) / twinCpu).toFixed(2)}x`,
        ]
      : []),
    `load average (1, 5, 15 min) at the start ${loadAtStart}, at the end ${loadAvg()}`,
  )
  const trackedFull = rows.filter(
    (r) => (r.server ?? 'this') === 'this' && r.DB_SYNCHRONOUS === 'FULL' && r.stock === 'tracked',
  )
  notes.push(
    `target (tracked, FULL): ≥ ${fmtInt(TARGET_TRACKED_RPS)} orders/s and p99 ≤ ${TARGET_TRACKED_P99_MS} ms ` +
      `in each tracked phase: ${trackedFull.map((r) => `${r['orders/s']} orders/s, p99 ${r.p99}`).join('; ')} — ` +
      (trackedOk ? 'met' : 'MISSED'),
  )
  const cost = (sync: string) => 1 - rps[`this ${sync} true`]! / rps[`this ${sync} false`]!
  const cpuCost = (sync: string) => cpu[`this ${sync} true`]! / cpu[`this ${sync} false`]! - 1
  const pass = ok && trackedOk && rps['this FULL false']! >= TARGET_RPS && cost('FULL') <= MAX_STOCK_COST
  notes.push(
    `target: ≥ ${fmtInt(TARGET_RPS)} orders/s with DB_SYNCHRONOUS=FULL, ` +
      `no non-2xx (got ${fmtInt(rps['this FULL false']!)} untracked)`,
    ...(baseDir
      ? (['FULL', 'NORMAL'] as const).map((sync) => {
          const [baseCpu, thisCpu] = [cpu[`base ${sync} true`]!, cpu[`this ${sync} true`]!]
          const [baseRps, thisRps] = [rps[`base ${sync} true`]!, rps[`this ${sync} true`]!]
          return (
            `base (${path.basename(baseDir)}) vs this, ${sync}, tracked, means: ` +
            `CPU/order ${fmtUs(baseCpu)} vs ${fmtUs(thisCpu)} (${(baseCpu / thisCpu).toFixed(2)}x), ` +
            `orders/s ${fmtInt(baseRps)} vs ${fmtInt(thisRps)} (${(thisRps / baseRps).toFixed(2)}x)`
          )
        })
      : []),
    `inventory cost, means of the A B B A phases: orders/s FULL ${fmtPct(cost('FULL'))}, ` +
      `NORMAL ${fmtPct(cost('NORMAL'))} (target ≤ ${fmtPct(MAX_STOCK_COST)} at FULL); ` +
      `server CPU/order FULL ${fmtPct(cpuCost('FULL'))}, NORMAL ${fmtPct(cpuCost('NORMAL'))}`,
    'orders are group-committed: posts that arrive while a commit waits on its fsync share the next ' +
      'transaction (one savepoint each)',
    `cpu: ${cpuPlan().description}`,
  )
  return {
    name: 'orders',
    title:
      'POST /api/orders over TLS, 2 lines + shipping, distinct ' +
      `phones, ${opts.connections} connections, ${opts.duration} s, load: wrk`,
    rows,
    notes,
    pass,
    summary:
      `${fmtInt(rps['this FULL false']!)} orders/s (FULL), tracked ` +
      `stock ${fmtInt(rps['this FULL true']!)} (cost ${fmtPct(cost('FULL'))}), p99 ${fmtMs(full!.p99)}`,
  }
}

/** The p99 of each tracked phase at FULL of this revision, as printed. */
const phasesP99 = (rows: Row[]): string =>
  rows
    .filter((r) => (r.server ?? 'this') === 'this' && r.DB_SYNCHRONOUS === 'FULL' && r.stock === 'tracked')
    .map((r) => r.p99)
    .join(', ')
