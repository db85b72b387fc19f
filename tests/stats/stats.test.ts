import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop, makeStore, uniq } from '../helpers/factories'
import { makeProduct } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { catalogVisits, orderItems, orders, ORDER_STATUSES, type OrderStatus } from '../../src/db/schema'
import { DAY_MS } from '../../src/lib/time'
import { figuresFor, plainFigures, rollupFigures, type Figures } from '../../src/modules/stats/rollup'
import { TOP_PRODUCTS } from '../../src/modules/stats/service'
import { immediate } from '../../src/db/client'

const clock = fixedClock(Date.UTC(2026, 5, 1))
const t = appForFile({ rateLimitKey: 100_000 }, { clock })

let seq = 0
/** An order with its items, inserted directly (minor units). Total = Σ subtotals + extra. */
function addOrder(
  storeId: string,
  at: number,
  status: OrderStatus,
  items: { productId: string; quantity: number; unitPrice: number }[],
  extra = 0,
) {
  const subtotal = items.reduce((n, i) => n + i.quantity * i.unitPrice, 0)
  const o = t.deps.db
    .insert(orders)
    .values({
      storeId,
      orderNumber: `ORD-${String(++seq).padStart(6, '0')}`,
      status,
      customerName: 'Ana',
      customerPhone: '+14155550100',
      currency: 'USD',
      itemsSubtotal: subtotal,
      total: subtotal + extra,
      dedupHash: uniq('h'),
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get()
  if (items.length)
    t.deps.db
      .insert(orderItems)
      .values(
        items.map((i, n) => ({
          orderId: o.id,
          productId: i.productId,
          productName: 'snapshot',
          quantity: i.quantity,
          unitPrice: i.unitPrice,
          subtotal: i.quantity * i.unitPrice,
          position: n,
        })),
      )
      .run()
  return o
}
const addVisits = (storeId: string, at: number, n = 1) => {
  for (let i = 0; i < n; i++) t.deps.db.insert(catalogVisits).values({ storeId, createdAt: at }).run()
}
const stats = (key: string, qs = '') => t.api.get(`/api/v1/stats${qs}`, { key })
const D = (day: number, h = 0, m = 0) => Date.UTC(2026, 0, day, h, m)

describe('GET /api/v1/stats', () => {
  test('every field, all time and windows with partial days, cancelled orders excluded from money', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro' })
    const A = makeProduct(t.deps, store.id, { name: 'Apple' })
    const B = makeProduct(t.deps, store.id, { name: 'Bread' })
    const C = makeProduct(t.deps, store.id, { name: 'Cheese' })
    addOrder(store.id, D(1, 10), 'pending', [
      { productId: A.id, quantity: 2, unitPrice: 300 },
      { productId: B.id, quantity: 1, unitPrice: 400 },
    ]) // 10.00
    addOrder(store.id, D(2, 0, 0), 'delivered', [
      { productId: A.id, quantity: 1, unitPrice: 300 },
      { productId: C.id, quantity: 5, unitPrice: 450 },
    ]) // 25.50
    addOrder(store.id, D(2, 13), 'cancelled', [{ productId: B.id, quantity: 10, unitPrice: 1000 }]) // 100.00, cancelled
    // 7.00 (5.00 shipping)
    addOrder(store.id, D(5, 23, 59), 'shipped', [{ productId: B.id, quantity: 1, unitPrice: 200 }], 500)
    addOrder(store.id, D(10, 8), 'confirmed', [{ productId: C.id, quantity: 1, unitPrice: 100 }]) // 1.00
    addVisits(store.id, D(1, 9), 3)
    addVisits(store.id, D(2, 12), 3)
    addVisits(store.id, D(9), 2)
    // Another store's orders and visits never count.
    const other = makeStore(t.deps)
    addOrder(other.id, D(2, 5), 'pending', [
      { productId: makeProduct(t.deps, other.id).id, quantity: 9, unitPrice: 999 },
    ])
    addVisits(other.id, D(2, 5), 5)

    let [res, body] = await stats(key)
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({
      totalOrders: 5,
      revenue: 43.5,
      averageOrderValue: 10.88, // 43.50 / 4 non-cancelled orders, rounded to the cent
      ordersByStatus: { pending: 1, confirmed: 1, shipped: 1, delivered: 1, cancelled: 1 },
      topProducts: [
        { productId: C.id, productName: 'Cheese', quantity: 6, revenue: 23.5 },
        { productId: A.id, productName: 'Apple', quantity: 3, revenue: 9 },
        { productId: B.id, productName: 'Bread', quantity: 2, revenue: 6 },
      ],
      visits: 8,
      conversionRate: 5 / 8,
      from: null,
      to: null,
    })

    // [Jan 2 00:00, Jan 5 12:00): the two Jan 2 orders (one cancelled), not the Jan 5 23:59 one.
    ;[res, body] = await stats(key, `?from=2026-01-02T00:00:00.000Z&to=2026-01-05T12:00:00Z`)
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({
      totalOrders: 2,
      revenue: 25.5,
      averageOrderValue: 25.5,
      ordersByStatus: { pending: 0, confirmed: 0, shipped: 0, delivered: 1, cancelled: 1 },
      topProducts: [
        { productId: C.id, productName: 'Cheese', quantity: 5, revenue: 22.5 },
        { productId: A.id, productName: 'Apple', quantity: 1, revenue: 3 },
      ],
      visits: 3,
      conversionRate: 2 / 3,
      from: '2026-01-02T00:00:00.000Z',
      to: '2026-01-05T12:00:00.000Z',
    })

    // `to` is exclusive to the millisecond; `from` inclusive.
    ;[res, body] = await stats(key, `?from=2026-01-01T10:00:00.001Z&to=2026-01-02T00:00:00.000Z`)
    expect(body.data).toMatchObject({
      totalOrders: 0,
      revenue: 0,
      averageOrderValue: 0,
      topProducts: [],
      visits: 0,
      conversionRate: null,
    })
    ;[res, body] = await stats(key, `?from=2026-01-01T10:00:00.000Z&to=2026-01-02T00:00:00.001Z`)
    expect(body.data).toMatchObject({ totalOrders: 2, revenue: 35.5, visits: 0, conversionRate: null })

    // Only one bound.
    ;[res, body] = await stats(key, `?from=2026-01-05`)
    expect(body.data).toMatchObject({
      totalOrders: 2,
      revenue: 8,
      ordersByStatus: { shipped: 1, confirmed: 1 },
      visits: 2,
      conversionRate: 1,
      from: '2026-01-05T00:00:00.000Z',
      to: null,
    })
    ;[res, body] = await stats(key, `?to=2026-01-02`)
    expect(body.data).toMatchObject({
      totalOrders: 1,
      revenue: 10,
      visits: 3,
      from: null,
      to: '2026-01-02T00:00:00.000Z',
    })

    // Empty window (from == to).
    ;[res, body] = await stats(key, `?from=2026-01-02&to=2026-01-02`)
    expectStatus(res, body).toBe(200)
    expect(body.data.totalOrders).toBe(0)
    expect(Object.keys(body.data.ordersByStatus).sort()).toEqual([...ORDER_STATUSES].sort())
  })

  test('status changes move the figures: a cancellation leaves revenue and top products, not totalOrders', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'lifetime' })
    const P = makeProduct(t.deps, store.id, { name: 'Pen' })
    const o = addOrder(store.id, D(3, 12), 'pending', [{ productId: P.id, quantity: 4, unitPrice: 250 }])
    let [, body] = await stats(key)
    expect(body.data).toMatchObject({
      totalOrders: 1,
      revenue: 10,
      topProducts: [{ productId: P.id, quantity: 4, revenue: 10 }],
    })
    for (const s of ['confirmed', 'cancelled'] as const)
      t.deps.db.update(orders).set({ status: s, updatedAt: clock.now() }).where(eq(orders.id, o.id)).run()
    ;[, body] = await stats(key)
    expect(body.data).toMatchObject({
      totalOrders: 1,
      revenue: 0,
      averageOrderValue: 0,
      topProducts: [],
      ordersByStatus: { pending: 0, confirmed: 0, cancelled: 1 },
    })
    // The partial-day path agrees.
    ;[, body] = await stats(key, '?from=2026-01-03T06:00:00Z&to=2026-01-03T18:00:00Z')
    expect(body.data).toMatchObject({ totalOrders: 1, revenue: 0, topProducts: [], ordersByStatus: { cancelled: 1 } })
  })

  test(`top products: at most ${TOP_PRODUCTS}, by quantity, then revenue, then id`, async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro' })
    const ps = Array.from({ length: TOP_PRODUCTS + 3 }, (_, i) => makeProduct(t.deps, store.id, { name: `P${i}` }))
    ps.forEach((p, i) =>
      addOrder(store.id, D(4), 'pending', [{ productId: p.id, quantity: 1 + (i % 5), unitPrice: 100 + i }]),
    )
    const [, body] = await stats(key)
    const top = body.data.topProducts as { productId: string; quantity: number; revenue: number }[]
    expect(top).toHaveLength(TOP_PRODUCTS)
    const expected = ps
      .map((p, i) => ({
        productId: p.id,
        productName: p.name,
        quantity: 1 + (i % 5),
        revenue: ((1 + (i % 5)) * (100 + i)) / 100,
      }))
      .sort((a, b) => b.quantity - a.quantity || b.revenue - a.revenue)
      .slice(0, TOP_PRODUCTS)
    expect(top).toEqual(expected)
  })

  test('money follows the store currency (JPY has no minor unit)', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro', currency: 'JPY' })
    const P = makeProduct(t.deps, store.id)
    addOrder(store.id, D(6), 'pending', [{ productId: P.id, quantity: 1, unitPrice: 1000 }])
    addOrder(store.id, D(6), 'pending', [{ productId: P.id, quantity: 1, unitPrice: 1001 }])
    const [, body] = await stats(key)
    expect(body.data).toMatchObject({ revenue: 2001, averageOrderValue: 1001 })
  })

  test('400 for an invalid from/to (naming the field) and for from after to', async () => {
    const { key } = makeShop(t.deps, { plan: 'pro' })
    for (const [qs, field] of [
      ['?from=yesterday', 'from'],
      ['?to=2026-13-45', 'to'],
      ['?from=2026-01-01&to=nope', 'to'],
    ] as const) {
      const [res, body] = await stats(key, qs)
      expectStatus(res, body).toBe(400)
      expect(body.code).toBe('VALIDATION_ERROR')
      expect(body.details.field).toBe(field)
    }
    const [res, body] = await stats(key, '?from=2026-02-01&to=2026-01-01')
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({ field: 'from', reason: 'out_of_range' })
  })

  test('the free plan gets 403 PLAN_REQUIRED advancedAnalytics', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    const [res, body] = await stats(key)
    expectStatus(res, body).toBe(403)
    expect(body).toMatchObject({
      error: 'plan_required',
      code: 'PLAN_REQUIRED',
      feature: 'advancedAnalytics',
      upgradeUrl: t.config.upgradeUrl,
    })
  })
})

describe('rollup == plain aggregates', () => {
  const norm = (f: Figures) => ({
    byStatus: f.byStatus,
    products: [...f.products]
      .filter(([, p]) => p.quantity !== 0 || p.revenue !== 0)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
    visits: f.visits,
  })

  test('after random inserts, status changes, item edits and deletes, for random windows', () => {
    const { store } = makeShop(t.deps, { plan: 'pro' })
    const ps = Array.from({ length: 6 }, () => makeProduct(t.deps, store.id).id)
    let r = 12345
    const rnd = (n: number) => ((r = (r * 1103515245 + 12345) % 2 ** 31), Math.floor((r / 2 ** 31) * n))
    const start = D(1)
    const span = 20 * DAY_MS
    const made: string[] = []
    // One transaction per phase: the test is about the figures, not about commit latency.
    const db = t.deps.db
    immediate(db, () => {
      for (let i = 0; i < 400; i++) {
        const at = start + rnd(span)
        const items = Array.from({ length: 1 + rnd(3) }, () => ({
          productId: ps[rnd(ps.length)]!,
          quantity: 1 + rnd(4),
          unitPrice: 100 + rnd(900),
        }))
        made.push(addOrder(store.id, at, ORDER_STATUSES[rnd(5)]!, items, rnd(3) * 100).id)
        if (rnd(3) === 0) addVisits(store.id, start + rnd(span), 1 + rnd(3))
      }
    })
    immediate(db, () => {
      for (let i = 0; i < 150; i++) {
        const id = made[rnd(made.length)]!
        db.update(orders)
          .set({ status: ORDER_STATUSES[rnd(5)]! })
          .where(eq(orders.id, id))
          .run()
      }
      for (let i = 0; i < 20; i++)
        db.delete(orders)
          .where(eq(orders.id, made.splice(rnd(made.length), 1)[0]!))
          .run()
      for (let i = 0; i < 20; i++) {
        const item = db
          .select()
          .from(orderItems)
          .where(eq(orderItems.orderId, made[rnd(made.length)]!))
          .get()!
        if (rnd(2))
          db.update(orderItems)
            .set({ quantity: item.quantity + 1, subtotal: item.subtotal + item.unitPrice })
            .where(eq(orderItems.id, item.id))
            .run()
        else db.delete(orderItems).where(eq(orderItems.id, item.id)).run()
      }
      for (let i = 0; i < 5; i++)
        db.update(orders)
          .set({ createdAt: start + rnd(span) })
          .where(eq(orders.id, made[rnd(made.length)]!))
          .run()
    })

    const sqlite = db.$client
    // Whole days: the rollup alone equals the plain query.
    expect(norm(rollupFigures(sqlite, store.id, start / DAY_MS, start / DAY_MS + 20))).toEqual(
      norm(plainFigures(sqlite, store.id, start, start + span)),
    )
    expect(norm(figuresFor(sqlite, store.id, null, null))).toEqual(norm(plainFigures(sqlite, store.id, 0, 8.64e15)))
    for (let i = 0; i < 60; i++) {
      const a = start - DAY_MS + rnd(span + 2 * DAY_MS)
      const b = a + rnd(i % 3 === 0 ? DAY_MS : span)
      expect(norm(figuresFor(sqlite, store.id, a, b))).toEqual(norm(plainFigures(sqlite, store.id, a, b)))
    }
    // The figures really are non-trivial.
    const all = plainFigures(sqlite, store.id, 0, 8.64e15)
    expect(all.byStatus.cancelled.orders).toBeGreaterThan(0)
    expect(all.products.size).toBe(ps.length)
  }, 30_000)
})
