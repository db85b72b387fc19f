/**
 * Checkout throughput: `POST /api/orders` over TLS against the real server, every request a
 * new order (distinct phone numbers, so none is a duplicate), 2 variant lines and a shipping
 * option each. The per-IP limit is raised by env (RATE_LIMIT_ORDERS_PER_MIN); every request
 * still passes the gate. Run with the default DB_SYNCHRONOUS=FULL (a 201 is on disk) and with
 * NORMAL (survives a process crash, not a power cut) for comparison.
 *
 * After each run the database is checked: as many orders as 201s, all order numbers distinct.
 *
 * Target: ≥ 2,000 orders/s with DB_SYNCHRONOUS=FULL at 50 connections, no non-2xx answers.
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { cpuPlan, fetchOnce, fmtInt, fmtMs, fmtPct, fmtUs, hasWrk, load, seed, startServer, tempDir, type BenchOpts, type BenchResult, type LoadResult, type Row } from './lib'

const TARGET_RPS = 2000

/** A wrk script posting a fresh order per request: the phone counts up from `base`. */
function script(storeId: string, variants: [string, string], shippingId: string, base: number): string {
  const head = `{"storeId":"${storeId}","name":"Bench Buyer","address":"1 Main St, Springfield","phone":"`
  const tail = `","items":[{"variantId":"${variants[0]}","quantity":1},{"variantId":"${variants[1]}","quantity":2}],"shippingOptionId":"${shippingId}","notes":"leave at the door"}`
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
  db.run('INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)', [id, storeId, 'Courier', 499, now, now])
  db.close()
  return id
}

function verify(dataDir: string, storeId: string): { orders: number; distinctNumbers: number; items: number } {
  const db = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
  try {
    const q = (sql: string) => (db.query(sql).get(storeId) as { n: number }).n
    return {
      orders: q('SELECT count(*) AS n FROM orders WHERE store_id = ?'),
      distinctNumbers: q('SELECT count(DISTINCT order_number) AS n FROM orders WHERE store_id = ?'),
      items: q('SELECT count(*) AS n FROM order_items WHERE order_id IN (SELECT id FROM orders WHERE store_id = ?)'),
    }
  } finally {
    db.close()
  }
}

async function measure(opts: BenchOpts, synchronous: 'FULL' | 'NORMAL'): Promise<{ r: LoadResult; check: ReturnType<typeof verify>; created: number }> {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 10, variantsPerProduct: 2, categories: 1, scopes: ['orders:read'] })
  const shippingId = addShipping(dataDir, seeded.storeId)
  const server = await startServer({ dataDir, env: { RATE_LIMIT_ORDERS_PER_MIN: '100000000', DB_SYNCHRONOUS: synchronous, LOG_LEVEL: 'info' } })
  try {
    const url = `${server.url}/api/orders`
    const variants: [string, string] = [seeded.variantIds[0]!, seeded.variantIds[3]!]
    const probe = await fetchOnce(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ storeId: seeded.storeId, name: 'Probe', phone: '+14155550000', items: [{ variantId: variants[0], quantity: 1 }], shippingOptionId: shippingId }),
    })
    if (probe.status !== 201) throw new Error(`POST /api/orders: ${probe.status} ${probe.text.slice(0, 300)}`)
    const common = { url, connections: opts.connections, serverPid: server.pid }
    // Warm-up with its own phone range, then the measured run.
    await load({ ...common, durationSec: Math.min(2, opts.duration), luaScript: script(seeded.storeId, variants, shippingId, 0) })
    const r = await load({ ...common, durationSec: opts.duration, luaScript: script(seeded.storeId, variants, shippingId, 3_000_000) })
    await server.stop()
    const check = verify(dataDir, seeded.storeId)
    return { r, check, created: check.orders }
  } finally {
    await server.stop()
  }
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  if (!hasWrk() || opts.bunLoad) throw new Error('the orders bench needs wrk (each request carries a different body): apt-get install -y wrk')
  const rows: Row[] = []
  const notes: string[] = []
  let full: LoadResult | undefined
  let ok = true
  for (const sync of ['FULL', 'NORMAL'] as const) {
    const { r, check } = await measure(opts, sync)
    if (sync === 'FULL') full = r
    // Every 201 is an order: the probe, the warm-up and the measured run, nothing else.
    const consistent = check.orders === check.distinctNumbers && check.items === check.orders * 2 - 1 // the probe has one line
    ok &&= consistent && r.non2xx === 0 && r.errors === 0
    rows.push({
      DB_SYNCHRONOUS: sync,
      'orders/s': fmtInt(r.rps),
      p50: fmtMs(r.p50),
      p90: fmtMs(r.p90),
      p99: fmtMs(r.p99),
      'server CPU/order': fmtUs(r.cpuUsPerReq),
      'server CPU use': fmtPct(r.serverCpuShare),
      requests: fmtInt(r.requests),
      'non-2xx': r.non2xx,
      errors: r.errors,
      'orders in DB': fmtInt(check.orders),
      'distinct numbers': fmtInt(check.distinctNumbers),
    })
    if (!consistent) notes.push(`${sync}: database check failed: ${JSON.stringify(check)}`)
  }
  const pass = ok && full!.rps >= TARGET_RPS
  notes.push(
    `target: ≥ ${fmtInt(TARGET_RPS)} orders/s with DB_SYNCHRONOUS=FULL, no non-2xx (got ${fmtInt(full!.rps)})`,
    'orders are group-committed: posts that arrive while a commit waits on its fsync share the next transaction (one savepoint each)',
    `cpu: ${cpuPlan().description}`,
  )
  return {
    name: 'orders',
    title: `POST /api/orders over TLS, 2 lines + shipping, distinct phones, ${opts.connections} connections, ${opts.duration} s, load: wrk`,
    rows,
    notes,
    pass,
    summary: `${fmtInt(full!.rps)} orders/s (FULL), p99 ${fmtMs(full!.p99)}`,
  }
}
