/**
 * A quick probe of the panel inbox's reads (issue 20), in-process, on one store with N orders
 * (default 200,000; `bun bench/orders-inbox.ts 1000000` for the million): the first page,
 * a status filter, a search by order number, by phone (E.164 through the customer index) and by
 * name, each the median of 15, with SQLite's query plan. Not wired into `bun run bench` yet.
 */
import { makeApp } from '../tests/helpers/app'
import { makeOwnerShop } from '../tests/helpers/panel'
import { ctxFor } from '../src/kernel/context'
import { getStore } from '../src/modules/platform-stores/service'
import { inboxPage, searchOf } from '../src/modules/orders'
import { createId } from '../src/lib/cuid'

const N = Number(process.argv[2] ?? 200_000)
const t = makeApp()
const { store } = await makeOwnerShop(t.deps)
const db = t.deps.db.$client
const now = Date.now()
const nCustomers = Math.max(1, Math.floor(N / 10))
const customerIds: string[] = []
const insC = db.prepare("INSERT INTO customers (id, store_id, name, phone, address, orders_count, total_spent, created_at, updated_at) VALUES (?, ?, ?, ?, 'x', 0, 0, ?, ?)")
const insO = db.prepare(
  `INSERT INTO orders (id, store_id, customer_id, order_number, status, customer_name, customer_phone, currency, items_subtotal, discount_amount, total, dedup_hash, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, ?, 'USD', 1000, 0, 1000, 'h', ?, ?)`,
)
const STATUSES = ['delivered', 'pending', 'confirmed', 'shipped', 'cancelled']
const t0 = performance.now()
db.transaction(() => {
  for (let i = 0; i < nCustomers; i++) {
    const id = createId()
    customerIds.push(id)
    insC.run(id, store.id, `Buyer ${i}`, `+1415${2_000_000 + i}`, now, now)
  }
  for (let i = 0; i < N; i++) {
    const c = i % nCustomers
    const at = now - (N - i) * 1000
    insO.run(createId(), store.id, customerIds[c]!, `ORD-${String(i + 1).padStart(6, '0')}`, STATUSES[i % 5]!, `Buyer ${c}`, `+1415${2_000_000 + c}`, at, at)
  }
})()
console.log(`seeded ${N} orders in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
const ctx = ctxFor(t.deps, getStore(t.deps.db, store.id)!)
const cases: [string, Parameters<typeof inboxPage>[1]][] = [
  ['first page', { limit: 25, offset: 0 }],
  ['status=pending', { status: 'pending', limit: 25, offset: 0 }],
  ['number', { q: String(Math.floor(N / 2)), limit: 25, offset: 0 }],
  ['phone "1 415 200 0042"', { q: '1 415 200 0042', limit: 25, offset: 0 }],
  ['name "buyer 42" (common)', { q: 'buyer 42', limit: 25, offset: 0 }],
  ['name "zelda" (no match)', { q: 'zelda', limit: 25, offset: 0 }],
  ['name "buyer 4242" (rare)', { q: 'buyer 4242', limit: 25, offset: 0 }],
]
for (const [label, q] of cases) {
  const times: number[] = []
  let rows = 0
  for (let i = 0; i < 15; i++) {
    const s = performance.now()
    rows = inboxPage(ctx, q).rows.length
    times.push(performance.now() - s)
  }
  times.sort((a, b) => a - b)
  console.log(`${label.padEnd(26)} median ${times[7]!.toFixed(2)} ms  (${rows} rows)  target ≤ 20 ms  ${times[7]! <= 20 ? 'ok' : 'MISSED'}`)
}
const s = searchOf('buyer 42')
const plan = db.query<{ detail: string }, [string, string]>("EXPLAIN QUERY PLAN SELECT o.id FROM orders o LEFT JOIN order_seen s ON s.order_id = o.id WHERE o.store_id = ? AND o.customer_name LIKE ? ORDER BY o.created_at DESC LIMIT 25").all(store.id, `%${s?.name}%`)
console.log('common name plan (LIKE walk):', plan.map((p) => p.detail).join(' | '))
const rarePlan = db.query<{ detail: string }, [string, string]>("EXPLAIN QUERY PLAN SELECT o.id FROM orders o WHERE +o.store_id = ? AND o.rowid IN (SELECT value FROM json_each(?)) ORDER BY o.created_at DESC LIMIT 25").all(store.id, '[1,2]')
console.log('rare name plan (trigram index, then rowids):', rarePlan.map((p) => p.detail).join(' | '))
const phonePlan = db.query<{ detail: string }, [string, string]>('EXPLAIN QUERY PLAN SELECT o.id FROM orders o WHERE o.customer_id = ? AND +o.store_id = ? ORDER BY o.created_at DESC LIMIT 25').all(customerIds[42]!, store.id)
console.log('phone search plan:', phonePlan.map((p) => p.detail).join(' | '))
t.close()
