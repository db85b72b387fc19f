/**
 * Order reads at scale: one store filled with 1,000,000 orders (quick: 100,000) of 2 lines
 * each by direct batched inserts (the schema's own indexes and triggers all apply), 100,000
 * customers, and one customer with 1,000 of the orders spread over the whole history. Then the
 * real server is started on that database and the four reads are timed, in-process (the
 * service function alone) and over TLS (one keep-alive request at a time), median of 30:
 *
 *   GET /api/v1/orders                       first page          target ≤ 5 ms
 *   GET /api/v1/orders?offset=100000         deep page           target ≤ 50 ms
 *   GET /api/v1/orders?status=delivered      first filtered page target ≤ 5 ms
 *   GET /api/v1/customers/:id                1,000-order customer, first 50 orders  target ≤ 10 ms
 *
 * The targets are checked against the in-process figures (the database work the design
 * controls); the TLS column adds the HTTP stack. The server's RSS is read from /proc.
 */
import { Database } from 'bun:sqlite'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  cpuPlan,
  fetchOnce,
  fmtInt,
  fmtMs,
  seed,
  startServer,
  tempDir,
  writeOrders,
  type BenchOpts,
  type BenchResult,
  type Row,
} from './lib'

async function fill(
  dataDir: string,
  storeId: string,
  variants: { id: string; productId: string; price: number }[],
  total: number,
) {
  const { createId } = await import('../src/lib/cuid')
  const db = new Database(path.join(dataDir, 'storefront.db'))
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = OFF')
  const end = Date.now() - 60_000
  const span = 365 * 86_400_000
  const nCustomers = Math.min(100_000, total / 10)
  const customers: string[] = []
  const vip = createId()
  const insCustomer = db.prepare(
    'INSERT INTO customers (id, store_id, name, phone, address, orders_count, total_spent, ' +
      'first_order_at, last_order_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  )
  db.transaction(() => {
    insCustomer.run(
      vip,
      storeId,
      'VIP Buyer',
      '+14155550999',
      '1 VIP Way',
      1000,
      1000 * 5000,
      end - span,
      end,
      end - span,
      end,
    )
    for (let i = 0; i < nCustomers; i++) {
      const id = createId()
      customers.push(id)
      insCustomer.run(
        id,
        storeId,
        `Buyer ${i}`,
        `+1415${2_000_000 + i}`,
        `${i} Main St`,
        10,
        50_000,
        end - span,
        end,
        end - span,
        end,
      )
    }
  })()
  writeOrders(db, storeId, variants, total, (i) => {
    const isVip = i % Math.floor(total / 1000) === 0
    return {
      customerId: isVip ? vip : customers[i % customers.length]!,
      name: isVip ? 'VIP Buyer' : 'Buyer',
      phone: '+14155550000',
      address: '1 Main St',
    }
  })
  db.close()
  return { vip }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const total = opts.quick ? 100_000 : 1_000_000
  const dataDir = tempDir()
  const seeded = await seed(dataDir, {
    products: 20,
    variantsPerProduct: 2,
    categories: 1,
    scopes: ['orders:read', 'customers:read'],
  })
  const vdb = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
  const variants = vdb
    .query<{ id: string; productId: string; price: number }, []>(
      'SELECT id, product_id AS productId, price FROM variants',
    )
    .all()
  vdb.close()

  const t0 = performance.now()
  const { vip } = await fill(dataDir, seeded.storeId, variants, total)
  const fillSec = (performance.now() - t0) / 1000

  const reads: { name: string; path: string; target: number }[] = [
    { name: 'orders, first page', path: '/api/v1/orders', target: 5 },
    { name: 'orders, offset=100000', path: `/api/v1/orders?offset=${Math.min(100_000, total - 50)}`, target: 50 },
    { name: 'orders, status=delivered', path: '/api/v1/orders?status=delivered', target: 5 },
    { name: 'customer with 1,000 orders', path: `/api/v1/customers/${vip}`, target: 10 },
  ]

  // In-process: the service functions on their own connection.
  const { testConfig } = await import('../src/config')
  const { createDeps, closeDeps } = await import('../src/deps')
  const { ctxFor } = await import('../src/kernel/context')
  const { getStore } = await import('../src/modules/platform-stores/service')
  const { listOrders } = await import('../src/modules/orders/service')
  const { getCustomer } = await import('../src/modules/customers/service')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
  const inProcess: number[] = []
  const plans: string[] = []
  try {
    const ctx = ctxFor(deps, getStore({ ctx: { db: deps.db }, input: { id: seeded.storeId } })!)
    const fns = [
      () => listOrders({ ctx, input: {} }),
      () => listOrders({ ctx, input: { offset: Math.min(100_000, total - 50) } }),
      () => listOrders({ ctx, input: { status: 'delivered' } }),
      () => getCustomer({ ctx, input: { id: vip, ...{} } }),
    ]
    for (const fn of fns) {
      const times: number[] = []
      for (let i = 0; i < 31; i++) {
        const s = performance.now()
        const r = fn() as { data?: unknown[]; orders?: unknown[] }
        times.push(performance.now() - s)
        if (i === 0 && (r.data ?? r.orders)!.length !== 50) throw new Error('expected a full page of 50')
      }
      inProcess.push(median(times.slice(1)))
    }
    const explain = (sql: string, ...p: (string | number)[]) =>
      deps.db.$client
        .query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...p)
        .map((r) => r.detail)
        .join('; ')
    const { columns } = await import('../src/db/sql')
    const { orders } = await import('../src/db/schema')
    const ORDER_FIELDS = columns(orders)
    const page = (where: string) =>
      `SELECT ${ORDER_FIELDS} FROM orders WHERE rowid IN (SELECT rowid FROM orders ` +
      `WHERE ${where} ORDER BY created_at DESC, rowid DESC LIMIT 50 OFFSET ?) ` +
      'ORDER BY created_at DESC, rowid DESC'
    plans.push(
      `plan, page: ${explain(page('store_id = ?'), seeded.storeId, 100_000)}`,
      `plan, status page: ${explain(page('store_id = ? AND status = ?'), seeded.storeId, 'delivered', 0)}`,
      `plan, customer page: ${explain(page('customer_id = ?'), vip, 0)}`,
      `plan, items of a page: ${explain(
        'SELECT * FROM order_items WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY order_id, position',
        '["a","b"]',
      )}`,
    )
  } finally {
    closeDeps(deps)
  }

  const server = await startServer({ dataDir, env: { RATE_LIMIT_KEY_PER_MIN: '100000000', LOG_LEVEL: 'info' } })
  const rows: Row[] = []
  let pass = true
  try {
    const headers = { authorization: `Bearer ${seeded.key}` }
    for (const [i, r] of reads.entries()) {
      const times: number[] = []
      for (let k = 0; k < 31; k++) {
        const s = performance.now()
        const res = await fetchOnce(server.url + r.path, { headers })
        times.push(performance.now() - s)
        if (res.status !== 200) throw new Error(`${r.path}: ${res.status} ${res.text.slice(0, 200)}`)
      }
      const ok = inProcess[i]! <= r.target
      pass &&= ok
      rows.push({
        read: r.name,
        'in-process (median)': fmtMs(inProcess[i]!),
        'over TLS (median)': fmtMs(median(times.slice(1))),
        target: `≤ ${r.target} ms`,
        met: ok ? 'yes' : 'NO',
      })
    }
    const rss = rssMb(server.pid)
    return {
      name: 'orders-scale',
      title:
        `one store with ${fmtInt(total)} orders (${fmtInt(2 * total)} items), ` +
        `filled in ${fillSec.toFixed(0)} s; server RSS after the reads: ${rss.toFixed(0)} MB`,
      rows,
      notes: [...plans, `cpu: ${cpuPlan().description}`],
      pass,
      summary: `${rows.map((r) => `${r.read}: ${r['in-process (median)']}`).join('; ')}; RSS ${rss.toFixed(0)} MB`,
    }
  } finally {
    await server.stop()
  }
}
