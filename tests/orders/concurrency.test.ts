/**
 * Races: identical posts, distinct posts, status moves and a discount at maxUses, fired at once
 * through app.handle, plus identical orders from separate processes on one database file
 * (BEGIN IMMEDIATE across connections).
 */
import { expect, test } from 'bun:test'
import path from 'node:path'
import { appForFile } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addDiscount, makeCatalog, orderBody, uniqPhone } from '../helpers/factories'

const t = appForFile({ rateLimitOrders: 100_000 })

const post = (body: unknown, headers?: Record<string, string>) => t.api.post('/api/orders', body, { headers })
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {})
const ordersOf = (storeId: string) =>
  t.deps.db.$client.query<{ n: number }, [string]>('SELECT count(*) AS n FROM orders WHERE store_id = ?').get(storeId)!
    .n

function shop() {
  const s = makeShop(t.deps)
  return { ...s, cat: makeCatalog(t.deps, s.store.id) }
}

test('20 identical posts at once → exactly one 201 and 19 × 409 DUPLICATE_ORDER', async () => {
  const { store, cat } = shop()
  const body = orderBody(store.id, cat)
  const results = await Promise.all(Array.from({ length: 20 }, () => post(body)))
  expect(tally(results.map(([r]) => r.status))).toEqual({ 201: 1, 409: 19 })
  expect(results.filter(([r]) => r.status === 409).every(([, b]) => b.code === 'DUPLICATE_ORDER')).toBe(true)
  expect(ordersOf(store.id)).toBe(1)
})

test('30 distinct posts at once → 30 orders with distinct consecutive numbers', async () => {
  const { store, cat } = shop()
  const results = await Promise.all(
    Array.from({ length: 30 }, () => post(orderBody(store.id, cat, { phone: uniqPhone() }))),
  )
  expect(results.every(([r]) => r.status === 201)).toBe(true)
  const numbers = results.map(([, b]) => b.orderNumber as string).sort()
  expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => `ORD-${String(i + 1).padStart(6, '0')}`))
  const counters = t.deps.db.$client
    .query<{ count: number }, [string]>("SELECT count FROM order_counts WHERE store_id = ? AND status = 'pending'")
    .get(store.id)
  expect(counters?.count).toBe(30)
})

test('10 posts with one Idempotency-Key at once → one order, every answer the same 201', async () => {
  const { store, cat } = shop()
  const body = orderBody(store.id, cat)
  const results = await Promise.all(Array.from({ length: 10 }, () => post(body, { 'idempotency-key': 'same' })))
  expect(results.every(([r]) => r.status === 201)).toBe(true)
  expect(new Set(results.map(([, b]) => b.id)).size).toBe(1)
  expect(results.filter(([r]) => r.headers.get('idempotent-replayed') === 'true').length).toBe(9)
  expect(ordersOf(store.id)).toBe(1)
})

test('a discount with maxUses 3 used by 12 orders at once is used exactly 3 times', async () => {
  const { store, cat } = shop()
  const d = addDiscount(t.deps, store.id, { code: 'THREE', maxUses: 3 })
  const results = await Promise.all(
    Array.from({ length: 12 }, () => post(orderBody(store.id, cat, { phone: uniqPhone(), discountCode: 'THREE' }))),
  )
  expect(tally(results.map(([r]) => r.status))).toEqual({ 201: 3, 400: 9 })
  expect(
    results
      .filter(([r]) => r.status === 400)
      .every(([, b]) => b.details.field === 'discountCode' && b.details.reason === 'exhausted'),
  ).toBe(true)
  expect(
    t.deps.db.$client
      .query<{ used_count: number }, [string]>('SELECT used_count FROM discounts WHERE id = ?')
      .get(d.id)!.used_count,
  ).toBe(3)
  expect(ordersOf(store.id)).toBe(3)
})

test('identical concurrent status moves → exactly one 200, the rest 409 INVALID_STATUS_TRANSITION', async () => {
  const { store, key, cat } = shop()
  const [, created] = await post(orderBody(store.id, cat))
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      t.api.put(`/api/v1/orders/${created.id}${i % 2 ? '' : '/status'}`, { status: 'confirmed' }, { key }),
    ),
  )
  expect(tally(results.map(([r]) => r.status))).toEqual({ 200: 1, 409: 9 })
  expect(
    results
      .filter(([r]) => r.status === 409)
      .every(([, b]) => b.code === 'INVALID_STATUS_TRANSITION' && b.details.from === 'confirmed'),
  ).toBe(true)
  const counts = Object.fromEntries(
    t.deps.db.$client
      .query<{ status: string; count: number }, [string]>('SELECT status, count FROM order_counts WHERE store_id = ?')
      .all(store.id)
      .map((r) => [r.status, r.count]),
  )
  expect(counts).toEqual({ pending: 0, confirmed: 1 })
})

test('identical orders from 4 processes on one database file → exactly one created', async () => {
  const { store, cat } = shop()
  const body = JSON.stringify(orderBody(store.id, cat))
  const startAt = String(Date.now() + 1500)
  const worker = path.join(import.meta.dir, '../helpers/order-worker.ts')
  const procs = Array.from({ length: 4 }, () =>
    Bun.spawn(['bun', worker, t.config.dataDir, startAt, body], { stdout: 'pipe', stderr: 'pipe' }),
  )
  const outs = await Promise.all(procs.map(async (p) => JSON.parse((await new Response(p.stdout).text()).trim())))
  expect(tally(outs.map((o) => o.status))).toEqual({ 201: 1, 409: 3 })
  expect(outs.filter((o) => o.status === 409).every((o) => o.code === 'DUPLICATE_ORDER')).toBe(true)
  expect(ordersOf(store.id)).toBe(1)
}, 30_000)
