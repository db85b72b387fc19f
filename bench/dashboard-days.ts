/**
 * The dashboard's numbers on the store's days (decision 024): `dashboardNumbers` for the same
 * store and data read as a UTC store (the daily rollups) and as a store on Bogota's clock (one
 * index range per store day over the orders and the raw visits), taken in turn so a busy
 * neighbour slows both alike. Prints the median and p95 of each, and their ratio. Not a
 * registered bench.
 *
 *   bun bench/dashboard-days.ts [orders per day, default 300] [rounds, default 200]
 */
import { fillOrders } from './stats'
import { fmtInt, seed, tempDir } from './lib'
import type { Ctx } from '../src/kernel/context'
import type { Store } from '../src/db/schema'

const perDay = Number(process.argv[2] ?? 300)
const rounds = Number(process.argv[3] ?? 200)
const dataDir = tempDir()
const seeded = await seed(dataDir, { products: 50, variantsPerProduct: 0, categories: 0, scopes: [], plan: 'pro' })
const now = Date.now()
await fillOrders(dataDir, seeded.storeId, seeded.productIds, perDay * 365, perDay * 365 * 3, now)

const { openDb } = await import('../src/db/client')
const { dashboardNumbers } = await import('../src/modules/stats')
const db = openDb({ dataDir, synchronous: 'NORMAL' })
const row = db.$client.query<Store, [string]>('SELECT * FROM stores WHERE id = ?').get(seeded.storeId)!
const store = { ...row, isPublished: true, isMaintenance: false } as Store
const ctxOn = (timezone: string) => ({ db, clock: { now: () => now }, store: { ...store, timezone } }) as unknown as Ctx
const cases = [
  { name: 'UTC (daily rollups)', ctx: ctxOn('UTC'), ms: [] as number[] },
  { name: 'America/Bogota (store-day ranges)', ctx: ctxOn('America/Bogota'), ms: [] as number[] },
]
// Both give the same 30-day totals but for the orders the 5-hour shift moves across the window's edge.
const totals = cases.map((c) => dashboardNumbers({ ctx: c.ctx }).periods[2]!.orders)
for (let r = 0; r < 20; r++) for (const c of cases) dashboardNumbers({ ctx: c.ctx }) // warm-up
for (let r = 0; r < rounds; r++)
  for (const c of cases) {
    const t0 = performance.now()
    dashboardNumbers({ ctx: c.ctx })
    c.ms.push(performance.now() - t0)
  }
const at = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
console.log(
  `dashboardNumbers, ${fmtInt(perDay)} orders a day (${fmtInt(perDay * 30)} in 30 days), ${rounds} rounds each`,
)
console.log('| store clock | 30-day orders | median ms | p95 ms |')
console.log('|---|---|---|---|')
cases.forEach((c, i) =>
  console.log(`| ${c.name} | ${fmtInt(totals[i]!)} | ${at(c.ms, 0.5).toFixed(2)} | ${at(c.ms, 0.95).toFixed(2)} |`),
)
console.log(`ratio of medians: ${(at(cases[1]!.ms, 0.5) / at(cases[0]!.ms, 0.5)).toFixed(1)}×`)
db.$client.close()
