/**
 * The panel's order pages at scale: one store with 1,000,000 orders (`--quick`:
 * 100,000; `bun bench/panel-scale.ts <N>` for any N), 100,000 customers, two lines per order,
 * then the real server on that database and a signed-in session (over HTTP, like a browser):
 *
 *   inbox, first page            GET /admin/orders                  ≤ 20 ms
 *   search by phone (any format) GET /admin/orders?q=1 415 200 0042 ≤ 20 ms
 *   search by order number       GET /admin/orders?q=500000         ≤ 20 ms
 *   search by name               common, full and rare names, none  ≤ 20 ms
 *   the order page               GET /admin/orders/:id (marks it opened: a write) ≤ 20 ms
 *   the dashboard                GET /admin                         ≤ 50 ms
 *
 * Server time: each request's latency over TLS with one keep-alive connection, one request at
 * a time (31 requests, the first dropped), median and p95. Then each page is handled once
 * more in-process on the same database with every statement recorded, and SQLite's plan of each
 * is printed: a `SCAN` of a table (a walk growing with the orders) is flagged.
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import {
  cpuPlan,
  fetchOnce,
  fillOrders,
  fmtInt,
  fmtMs,
  panelCookie,
  plansOf,
  recordStatements,
  RARE_NAME,
  seed,
  seedOwner,
  startServer,
  tempDir,
  type BenchOpts,
  type BenchResult,
  type Row,
} from './lib'

const PAGE_TARGET_MS = 20
const DASHBOARD_TARGET_MS = 50
const ROUNDS = 31

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!

export async function run(opts: BenchOpts, total = opts.quick ? 100_000 : 1_000_000): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 20, variantsPerProduct: 2, categories: 1, scopes: ['orders:read'] })
  const email = await seedOwner(dataDir, seeded.storeId)
  const vdb = new Database(path.join(dataDir, 'storefront.db'))
  const variants = vdb
    .query<{ id: string; productId: string; price: number }, []>(
      'SELECT id, product_id AS productId, price FROM variants',
    )
    .all()
  // A member since the beginning: every order of the last 30 days is a candidate "new" row (the marker's worst case).
  vdb.run('UPDATE memberships SET created_at = 0')
  vdb.close()
  const filled = await fillOrders(dataDir, seeded.storeId, variants, total)
  const pages: { name: string; path: string; target: number; expect: string }[] = [
    {
      name: 'inbox, first page',
      path: '/admin/orders',
      target: PAGE_TARGET_MS,
      expect: `ORD-${String(total).padStart(6, '0')}`,
    },
    {
      name: 'inbox, status=pending',
      path: '/admin/orders?status=pending',
      target: PAGE_TARGET_MS,
      expect: 'class="order',
    },
    {
      name: 'search: phone "1 415 200 0042"',
      path: `/admin/orders?q=${encodeURIComponent('1 415 200 0042')}`,
      target: PAGE_TARGET_MS,
      expect: 'class="order',
    },
    {
      name: 'search: number',
      path: `/admin/orders?q=${Math.floor(total / 2)}`,
      target: PAGE_TARGET_MS,
      expect: `ORD-${String(Math.floor(total / 2)).padStart(6, '0')}`,
    },
    {
      name: 'search: name "maría" (1 in 40)',
      path: '/admin/orders?q=mar%C3%ADa',
      target: PAGE_TARGET_MS,
      expect: 'class="order',
    },
    {
      name: 'search: name "Sofía Díaz Vargas"',
      path: `/admin/orders?q=${encodeURIComponent('Sofía Díaz Vargas')}`,
      target: PAGE_TARGET_MS,
      expect: 'class="order',
    },
    {
      name: `search: name "${RARE_NAME}" (3 orders)`,
      path: `/admin/orders?q=${encodeURIComponent(RARE_NAME)}`,
      target: PAGE_TARGET_MS,
      expect: RARE_NAME,
    },
    {
      name: 'search: name "xyzzy" (no match)',
      path: '/admin/orders?q=xyzzy',
      target: PAGE_TARGET_MS,
      expect: 'orders-empty',
    },
    {
      name: 'order page (marks it opened)',
      path: `/admin/orders/${filled.newest}`,
      target: PAGE_TARGET_MS,
      expect: '<title>Order ORD-',
    },
    { name: 'dashboard', path: '/admin', target: DASHBOARD_TARGET_MS, expect: 'Latest orders' },
  ]

  const server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } })
  const rows: Row[] = []
  let pass = true
  let cookie: string
  try {
    cookie = await panelCookie(server.url, email)
    for (const p of pages) {
      const times: number[] = []
      let bytes = 0
      for (let k = 0; k < ROUNDS; k++) {
        const s = performance.now()
        const res = await fetchOnce(server.url + p.path, { headers: { cookie } })
        times.push(performance.now() - s)
        if (res.status !== 200 || !res.text.includes(p.expect))
          throw new Error(`${p.path}: ${res.status}, expected "${p.expect}" in ${res.text.slice(0, 300)}`)
        bytes = res.text.length
      }
      const median = quantile(times.slice(1), 0.5)
      const p95 = quantile(times.slice(1), 0.95)
      const ok = median <= p.target
      pass &&= ok
      rows.push({
        page: p.name,
        median: fmtMs(median),
        p95: fmtMs(p95),
        bytes: fmtInt(bytes),
        target: `≤ ${p.target} ms`,
        met: ok ? 'yes' : 'NO',
      })
    }
  } finally {
    await server.stop()
  }

  // The statements of each page and their plans, in-process on the same database.
  const notes: string[] = []
  const { testConfig } = await import('../src/config')
  const { createDeps, closeDeps } = await import('../src/deps')
  const { createApp } = await import('../src/app')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
  const app = createApp(deps)
  let walks = 0
  try {
    for (const p of pages) {
      const statements = await recordStatements(deps.db.$client, async () => {
        const res = await app.handle(new Request(`https://localhost${p.path}`, { headers: { cookie } }))
        if (res.status !== 200) throw new Error(`in-process ${p.path}: ${res.status}`)
        await res.text()
      })
      notes.push(`plans, ${p.name} (${statements.length} statements):`)
      for (const q of plansOf(deps.db.$client, statements)) {
        if (q.walks) walks++
        notes.push(`  ${q.walks ? 'WALK ' : ''}${q.plan}   ← ${q.sql}`)
      }
    }
  } finally {
    app.gate.close()
    closeDeps(deps)
  }
  notes.push(`statements whose plan walks a table: ${walks}`, `cpu: ${cpuPlan().description}`)
  return {
    name: 'panel-scale',
    title:
      `one store with ${fmtInt(total)} orders (${fmtInt(filled.customers)} customers, 2 lines each), ` +
      `filled in ${filled.seconds.toFixed(0)} s; signed-in panel over TLS, ` +
      `one connection, ${ROUNDS - 1} requests per page`,
    rows,
    notes,
    pass,
    summary: rows.map((r) => `${r.page}: ${r.median}`).join('; '),
  }
}

if (import.meta.main) {
  const { cleanupAll, printTable } = await import('./lib')
  const n = Number(process.argv[2] ?? 1_000_000)
  try {
    const r = await run({ quick: false, duration: 10, connections: 1, bunLoad: false }, n)
    console.log(r.title)
    printTable(r.rows)
    for (const line of r.notes ?? []) console.log(line)
  } finally {
    cleanupAll()
  }
}
