/**
 * Inventory: stock set through the API and shown as inStock everywhere,
 * taken by POST /api/orders in the order's transaction (exact under races, in-process and across
 * processes), nothing written for a short order, units back on cancellation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createId } from '@paralleldrive/cuid2'
import path from 'node:path'
import { expectStatus, makeApp, type Json, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addDiscount, uniqPhone } from '../helpers/factories'
import { commitOrders } from '../../src/checkout-batcher'
import { prepareOrder } from '../../src/modules/orders/checkout/prepare'
import { TOOLS_BY_NAME } from '../../src/mcp/tools'

let t: TestApp
beforeAll(() => {
  t = makeApp({ rateLimitOrders: 1_000_000 })
  // No webhook sends from these tests: outbox rows are only counted.
  t.deps.onOutbox = () => {}
})
afterAll(() => t.close())

const sqlOne = (q: string, ...params: string[]) =>
  Object.values(t.deps.db.$client.query(q).get(...params) as object)[0] as number | null
const variantStock = (id: string) => sqlOne('SELECT stock FROM variants WHERE id = ?', id)
const productStock = (id: string) => sqlOne('SELECT stock FROM products WHERE id = ?', id)
const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {})

/** A pro store with a tracked shirt (variant M: `m` units, variant L untracked) and a tracked mug (`mug` units). */
async function shop(stock: { m?: number | null; mug?: number | null } = {}) {
  const { store, key } = makeShop(t.deps)
  const [r1, shirt] = await t.api.post(
    '/api/v1/products',
    {
      name: 'Shirt',
      price: 20,
      variants: [
        { name: 'M', price: 20, stock: stock.m === undefined ? 7 : stock.m },
        { name: 'L', price: 22 },
      ],
    },
    { key },
  )
  expectStatus(r1, shirt).toBe(201)
  const [r2, mug] = await t.api.post(
    '/api/v1/products',
    { name: 'Mug', price: 8, stock: stock.mug === undefined ? 3 : stock.mug },
    { key },
  )
  expectStatus(r2, mug).toBe(201)
  const m = shirt.data.variants[0]
  const l = shirt.data.variants[1]
  return { store, key, shirt: shirt.data, m, l, mug: mug.data }
}

const order = (storeId: string, items: Json[], extra: Json = {}) => ({
  storeId,
  name: 'Ana',
  phone: uniqPhone(),
  items,
  ...extra,
})
const postOrder = (body: Json, headers?: Record<string, string>) => t.api.post('/api/orders', body, { headers })

function footprint(storeId: string) {
  return {
    orders: sqlOne('SELECT count(*) FROM orders WHERE store_id = ?', storeId),
    items: sqlOne(
      'SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.store_id = ?',
      storeId,
    ),
    customers: sqlOne('SELECT count(*) FROM customers WHERE store_id = ?', storeId),
    discountUses: sqlOne('SELECT coalesce(sum(used_count), 0) FROM discounts WHERE store_id = ?', storeId),
    seq: sqlOne('SELECT order_seq FROM stores WHERE id = ?', storeId),
    events: sqlOne(
      'SELECT (SELECT count(*) FROM webhook_outbox WHERE store_id = ?1) + (SELECT count(*) ' +
        'FROM webhook_deliveries WHERE store_id = ?1)',
      storeId,
    ),
    stock: sqlOne(
      'SELECT group_concat(coalesce(stock, -1)) FROM (SELECT v.stock FROM variants v ' +
        'JOIN products p ON p.id = v.product_id WHERE p.store_id = ?1 UNION ALL SELECT stock FROM products ' +
        'WHERE store_id = ?1)',
      storeId,
    ),
  }
}

describe('stock on products and variants', () => {
  test('set on create, shown with inStock; untracked by default', async () => {
    const { shirt, m, l, mug } = await shop({ m: 7, mug: 0 })
    expect([m.stock, m.inStock, l.stock, l.inStock]).toEqual([7, true, null, true])
    expect([mug.stock, mug.inStock]).toEqual([0, false])
    // A product with variants is in stock when one of its variants is.
    expect([shirt.stock, shirt.inStock]).toEqual([null, true])
  })

  test('update sets and clears stock; a variants array without stock keeps the counts', async () => {
    const { key, shirt, m, l, mug } = await shop()
    const [r1, b1] = await t.api.put(`/api/v1/products/${mug.id}`, { stock: 12 }, { key })
    expectStatus(r1, b1).toBe(200)
    expect([b1.data.stock, b1.data.inStock]).toEqual([12, true])
    const [, b2] = await t.api.put(`/api/v1/products/${mug.id}`, { stock: null }, { key })
    expect(b2.data.stock).toBeNull()
    const [r3, b3] = await t.api.put(
      `/api/v1/products/${shirt.id}`,
      {
        variants: [
          { id: m.id, name: 'M', price: 20 },
          { id: l.id, name: 'L', price: 22, stock: 0 },
        ],
      },
      { key },
    )
    expectStatus(r3, b3).toBe(200)
    expect(b3.data.variants.map((v: Json) => [v.stock, v.inStock])).toEqual([
      [7, true],
      [0, false],
    ])
    const [, b4] = await t.api.put(
      `/api/v1/products/${shirt.id}`,
      {
        variants: [
          { id: m.id, name: 'M', price: 20, stock: 0 },
          { id: l.id, name: 'L', price: 22 },
        ],
      },
      { key },
    )
    expect(b4.data.inStock).toBe(false)
  })

  test.each([[-1], [1.5], ['3'], [1e10]])('stock %p → 400 naming the field', async (bad) => {
    const { key, mug, shirt, m } = await shop()
    const [r1, b1] = await t.api.put(`/api/v1/products/${mug.id}`, { stock: bad }, { key })
    expectStatus(r1, b1).toBe(400)
    expect(b1.details.field).toBe('stock')
    const [r2, b2] = await t.api.put(
      `/api/v1/products/${shirt.id}`,
      { variants: [{ id: m.id, name: 'M', price: 20, stock: bad }] },
      { key },
    )
    expectStatus(r2, b2).toBe(400)
    expect(b2.details.field).toBe('variants[0].stock')
  })

  test('the public store read shows inStock, and stock only when the store opts in; the list shows both', async () => {
    const { store, key, mug } = await shop({ mug: 0 })
    await t.api.put('/api/v1/store', { isPublished: true }, { key })
    const [res, body] = await t.api.get(`/api/v1/stores/${store.slug}`)
    expectStatus(res, body).toBe(200)
    const pub = body.data.products.find((p: Json) => p.id === mug.id)
    // How many are left is the seller's business unless the store shows it.
    expect([pub.stock, pub.inStock]).toEqual([undefined, false])
    for (const p of body.data.products) for (const v of p.variants) expect(v.stock).toBeUndefined()
    await t.api.put('/api/v1/store', { showStockCount: true }, { key })
    const [, shown] = await t.api.get(`/api/v1/stores/${store.slug}`)
    const shownMug = shown.data.products.find((p: Json) => p.id === mug.id)
    expect([shownMug.stock, shownMug.inStock]).toEqual([0, false])
    const shirt = shown.data.products.find((p: Json) => p.name === 'Shirt')
    expect(shirt.variants.map((v: Json) => v.inStock)).toEqual([true, true])
    const [, list] = await t.api.get('/api/v1/products', { key })
    expect(list.data.find((p: Json) => p.id === mug.id).inStock).toBe(false)
  })
})

test('the assistant tools take stock on products and variants (their schemas are the API models)', () => {
  for (const name of ['create_product', 'update_product']) {
    const props = TOOLS_BY_NAME.get(name)!.inputSchema.properties as Json
    for (const stock of [props.stock, props.variants.items.properties.stock]) {
      expect(stock.anyOf).toEqual([
        expect.objectContaining({ type: 'number', multipleOf: 1, minimum: 0 }),
        { type: 'null' },
      ])
    }
  }
})

describe('checkout takes stock', () => {
  test(
    'an order takes its units; lines of one item add up; asking for more → 409 OUT_OF_STOCK with field and ' +
      'available',
    async () => {
      const { store, m, mug } = await shop({ m: 7, mug: 3 })
      const [r1, b1] = await postOrder(
        order(store.id, [
          { variantId: m.id, quantity: 2 },
          { productId: mug.id, quantity: 1 },
          { variantId: m.id, quantity: 3 },
        ]),
      )
      expectStatus(r1, b1).toBe(201)
      expect([variantStock(m.id), productStock(mug.id)]).toEqual([2, 2])
      const [r2, b2] = await postOrder(
        order(store.id, [
          { productId: mug.id, quantity: 1 },
          { variantId: m.id, quantity: 3 },
        ]),
      )
      expectStatus(r2, b2).toBe(409)
      expect(b2).toMatchObject({ code: 'OUT_OF_STOCK', details: { field: 'items[1].variantId', available: 2 } })
      const [r3, b3] = await postOrder(order(store.id, [{ productId: mug.id, quantity: 5 }]))
      expectStatus(r3, b3).toBe(409)
      expect(b3.details).toEqual({ field: 'items[0].productId', available: 2 })
    },
  )

  test(
    'a mixed order with one short line writes nothing: no order, customer, discount use, ' +
      'outbox row or stock change',
    async () => {
      const { store, m, l, mug } = await shop({ m: 7, mug: 1 })
      addDiscount(t.deps, store.id, { code: 'TEN' })
      const now = Date.now()
      t.deps.db.$client.run(
        'INSERT INTO webhooks (id, store_id, url, events, is_active, secret, created_at, updated_at) ' +
          'VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
        [createId(), store.id, 'https://hooks.example.com/x', '["order.created"]', 'enc:test', now, now],
      )
      const before = footprint(store.id)
      const [res, body] = await postOrder(
        order(
          store.id,
          [
            { variantId: m.id, quantity: 2 },
            { variantId: l.id, quantity: 1 },
            { productId: mug.id, quantity: 2 },
          ],
          { discountCode: 'TEN' },
        ),
      )
      expectStatus(res, body).toBe(409)
      expect(body.details).toEqual({ field: 'items[2].productId', available: 1 })
      expect(footprint(store.id)).toEqual(before)
      // The same order within stock goes through, with its outbox row.
      const [ok, created] = await postOrder(
        order(
          store.id,
          [
            { variantId: m.id, quantity: 2 },
            { variantId: l.id, quantity: 1 },
            { productId: mug.id, quantity: 1 },
          ],
          { discountCode: 'TEN' },
        ),
      )
      expectStatus(ok, created).toBe(201)
      expect(footprint(store.id).events).toBe(before.events! + 1)
    },
  )

  test('untracked items are never refused', async () => {
    const { store, l, mug } = await shop({ mug: null })
    for (let i = 0; i < 3; i++) {
      const [res, body] = await postOrder(
        order(store.id, [
          { variantId: l.id, quantity: 250 },
          { productId: mug.id, quantity: 250 },
        ]),
      )
      expectStatus(res, body).toBe(201)
    }
    expect([variantStock(l.id), productStock(mug.id)]).toEqual([null, null])
  })

  test('an idempotent replay and a refused duplicate take no stock', async () => {
    const { store, m } = await shop({ m: 7 })
    const body = order(store.id, [{ variantId: m.id, quantity: 2 }])
    const [r1] = await postOrder(body, { 'idempotency-key': 'k1' })
    const [r2, b2] = await postOrder(body, { 'idempotency-key': 'k1' })
    expect([r1.status, r2.status, r2.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true'])
    const [r3, b3] = await postOrder(body)
    expectStatus(r3, b3).toBe(409)
    expect(b3.code).toBe('DUPLICATE_ORDER')
    expect(variantStock(m.id)).toBe(5)
    expect(b2.id).toBeDefined()
  })

  test('in one group-committed batch a short order rolls back alone', async () => {
    const { store, m } = await shop({ m: 3 })
    const batch = [2, 2, 1].map((q) =>
      prepareOrder(order(store.id, [{ variantId: m.id, quantity: q }]) as never, undefined, 500),
    )
    const { outcomes } = commitOrders(t.deps, batch)
    expect(outcomes.map((o) => (o.ok ? 201 : (o.error as { code: string }).code))).toEqual([201, 'OUT_OF_STOCK', 201])
    expect(variantStock(m.id)).toBe(0)
    expect(footprint(store.id).orders).toBe(2)
  })
})

describe('races', () => {
  test('50 concurrent posts for a variant of 7 units → 7 orders, stock 0; cancelling them all → 7 again', async () => {
    const { store, key, m } = await shop({ m: 7 })
    const results = await Promise.all(
      Array.from({ length: 50 }, () => postOrder(order(store.id, [{ variantId: m.id, quantity: 1 }]))),
    )
    expect(tally(results.map(([r]) => r.status))).toEqual({ 201: 7, 409: 43 })
    expect(
      results
        .filter(([r]) => r.status === 409)
        .every(([, b]) => b.code === 'OUT_OF_STOCK' && b.details.available === 0),
    ).toBe(true)
    expect(variantStock(m.id)).toBe(0)
    expect(footprint(store.id).orders).toBe(7)

    const ids = results.filter(([r]) => r.status === 201).map(([, b]) => b.id as string)
    // Other moves leave stock alone; cancelling (from any state before delivered) puts units back.
    const [rc, bc] = await t.api.put(`/api/v1/orders/${ids[0]}/status`, { status: 'confirmed' }, { key })
    expectStatus(rc, bc).toBe(200)
    expect(variantStock(m.id)).toBe(0)
    const cancels = await Promise.all(
      ids.map((id) => t.api.put(`/api/v1/orders/${id}/status`, { status: 'cancelled' }, { key })),
    )
    expect(cancels.every(([r]) => r.status === 200)).toBe(true)
    expect(variantStock(m.id)).toBe(7)
    // A second cancel is refused and puts nothing back.
    const [again] = await t.api.put(`/api/v1/orders/${ids[0]}/status`, { status: 'cancelled' }, { key })
    expect(again.status).toBe(409)
    expect(variantStock(m.id)).toBe(7)
  })

  test('cancelling puts back only what was taken: an item tracked after the order stays as set', async () => {
    const { store, key, shirt, m, l } = await shop({ m: 7 })
    const [, created] = await postOrder(
      order(store.id, [
        { variantId: m.id, quantity: 2 },
        { variantId: l.id, quantity: 4 },
      ]),
    )
    await t.api.put(
      `/api/v1/products/${shirt.id}`,
      {
        variants: [
          { id: m.id, name: 'M', price: 20 },
          { id: l.id, name: 'L', price: 22, stock: 10 },
        ],
      },
      { key },
    )
    const [res, body] = await t.api.put(`/api/v1/orders/${created.id}/status`, { status: 'cancelled' }, { key })
    expectStatus(res, body).toBe(200)
    expect([variantStock(m.id), variantStock(l.id)]).toEqual([7, 10])
  })

  test('50 orders from 5 processes on one database file for 7 units → exactly 7 created, stock 0', async () => {
    const { store, m } = await shop({ m: 7 })
    const startAt = String(Date.now() + 2000)
    const worker = path.join(import.meta.dir, '../helpers/order-worker.ts')
    const procs = Array.from({ length: 5 }, () => {
      const bodies = Array.from({ length: 10 }, () => order(store.id, [{ variantId: m.id, quantity: 1 }]))
      return Bun.spawn(['bun', worker, t.config.dataDir, startAt, JSON.stringify(bodies)], {
        stdout: 'pipe',
        stderr: 'pipe',
      })
    })
    const outs = (
      await Promise.all(
        procs.map(
          async (p) => JSON.parse((await new Response(p.stdout).text()).trim()) as { status: number; code?: string }[],
        ),
      )
    ).flat()
    expect(tally(outs.map((o) => o.status))).toEqual({ 201: 7, 409: 43 })
    expect(outs.filter((o) => o.status === 409).every((o) => o.code === 'OUT_OF_STOCK')).toBe(true)
    expect(variantStock(m.id)).toBe(0)
    expect(footprint(store.id).orders).toBe(7)
  }, 60_000)
})
