/**
 * Where one order's time goes inside checkout's transaction, statement by statement: N orders
 * (2 tracked lines + shipping, distinct phones) placed with the batcher's own `commitOrders`, 50
 * to a transaction at synchronous=NORMAL as the batcher commits them (the fsync is off the loop),
 * every statement of the connection timed (wall µs, the process is CPU-bound) and summed per
 * SQL text; the rest of the transaction is the JS between statements, the savepoints and the
 * COMMIT. Also the WAL pages each order wrote (SQLite's checkpoints off). Not a registered bench.
 *
 *   bun bench/profile-order-sql.ts [orders] [--ddl "DROP TRIGGER x; …"]
 *
 * `--ddl` changes the seeded database first, to weigh a trigger or index by leaving it out.
 */
import { Database, type Statement } from 'bun:sqlite'
import path from 'node:path'
import { seed, tempDir } from './lib'
import { testConfig } from '../src/config'
import { createDeps, closeDeps } from '../src/deps'
import { checkoutBatch } from './lib/checkout-batch'

const args = process.argv.slice(2)
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 10000)
const BATCH = 50
const ddl = args.includes('--ddl') ? args[args.indexOf('--ddl') + 1]! : ''

const dataDir = tempDir()
const seeded = await seed(dataDir, { products: 5, variantsPerProduct: 2, categories: 1 })
const sdb = new Database(path.join(dataDir, 'storefront.db'))
if (ddl.trim()) sdb.run(ddl) // several statements, trigger bodies included
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
const client = deps.db.$client
client.run('PRAGMA wal_autocheckpoint = 0')

// Every statement of the connection, timed per SQL text.
const spent = new Map<string, number>()
let timing = false
const wrap = <T extends Statement>(st: T, sql: string): T => {
  const key = sql.replace(/\s+/g, ' ').trim().slice(0, 90)
  for (const m of ['run', 'all', 'get', 'values'] as const) {
    const f = (st as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!.bind(st)
    ;(st as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      if (!timing) return f(...a)
      const t0 = performance.now()
      try {
        return f(...a)
      } finally {
        spent.set(key, (spent.get(key) ?? 0) + performance.now() - t0)
      }
    }
  }
  return st
}
const wrapped = new WeakSet<object>()
for (const m of ['query', 'prepare'] as const) {
  const orig = (client[m] as (sql: string) => Statement).bind(client)
  ;(client as unknown as Record<string, unknown>)[m] = (sql: string) => {
    const st = orig(sql)
    if (!wrapped.has(st)) wrapped.add(st), wrap(st, sql)
    return st
  }
}

const batch = checkoutBatch(deps, seeded.storeId, seeded.variantIds, BATCH)
for (let i = 0; i < 2000 / BATCH; i++) batch() // warm-up

const walFile = path.join(dataDir, 'storefront.db-wal')
const wal0 = Bun.file(walFile).size
timing = true
let total = 0
const cpu0 = process.cpuUsage()
for (let i = 0; i < N / BATCH; i++) {
  const t0 = performance.now()
  batch()
  total += performance.now() - t0
}
timing = false
const cpu = process.cpuUsage(cpu0)
const frames = (Bun.file(walFile).size - wal0) / (4096 + 24) / N
const inStatements = [...spent.values()].reduce((a, b) => a + b, 0)
console.log(
  `${N} orders, ${BATCH} a transaction: ${((total * 1000) / N).toFixed(1)} µs per order in the ` +
    `transaction (wall, CPU-bound), ${frames.toFixed(2)} WAL pages per order`,
)
// Process CPU is what a busy neighbour does not inflate: the figure to compare between runs.
console.log(
  `${((cpu.user + cpu.system) / N).toFixed(1)} µs CPU per order (user ${(cpu.user / N).toFixed(1)}, ` +
    `sys ${(cpu.system / N).toFixed(1)})`,
)
console.log(`${((inStatements * 1000) / N).toFixed(1).padStart(7)} µs  in the statements below`)
console.log(
  `${(((total - inStatements) * 1000) / N).toFixed(1).padStart(7)} µs  the rest: JS between statements, ` +
    'SAVEPOINT/RELEASE, BEGIN, COMMIT (the WAL writes)',
)
for (const [sql, ms] of [...spent].sort((a, b) => b[1] - a[1]))
  console.log(`${((ms * 1000) / N).toFixed(1).padStart(7)} µs  ${sql}`)
closeDeps(deps)
