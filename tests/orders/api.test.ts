/** GET /api/v1/orders, GET /api/v1/orders/:id, PUT /api/v1/orders/:id[/status]. */
import { describe, expect, test } from 'bun:test'
import { createId } from '@paralleldrive/cuid2'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody, uniqPhone, placeOrder } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'

const clock = fixedClock(Date.UTC(2026, 3, 1))
const t = appForFile({ rateLimitOrders: 100_000, rateLimitKey: 100_000 }, { clock })

/** A shop with `n` orders, one a minute; returns ids newest first. */
function shopWithOrders(n: number) {
  const s = makeShop(t.deps)
  const cat = makeCatalog(t.deps, s.store.id)
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    clock.advance(60_000)
    ids.unshift(
      placeOrder(
        t.deps,
        orderBody(s.store.id, cat, { phone: uniqPhone(), notes: `n${i}`, shippingOptionId: cat.courier.id }),
      ).body.id,
    )
  }
  return { ...s, cat, ids }
}

const LIST_KEYS = [
  'createdAt',
  'currency',
  'customerName',
  'customerPhone',
  'id',
  'items',
  'notes',
  'orderNumber',
  'status',
  'total',
]
const DETAIL_KEYS = [
  ...LIST_KEYS,
  'customerAddress',
  'customerId',
  'discount',
  'shippingOption',
  'subtotal',
  'tracking',
  'updatedAt',
].sort()

describe('GET /api/v1/orders', () => {
  test('list form, newest first, with limit/offset and the total', async () => {
    const { key, ids } = shopWithOrders(5)
    const [res, body] = await t.api.get('/api/v1/orders?limit=2&offset=1', { key })
    expectStatus(res, body).toBe(200)
    expect(body).toMatchObject({ total: 5, limit: 2, offset: 1 })
    expect(body.data.map((o: { id: string }) => o.id)).toEqual(ids.slice(1, 3))
    const o = body.data[0]
    expect(Object.keys(o).sort()).toEqual(LIST_KEYS)
    expect(Object.keys(o.items[0]).sort()).toEqual(['productName', 'quantity', 'subtotal', 'unitPrice', 'variantName'])
    expect(o).toMatchObject({ status: 'pending', total: 39, currency: 'USD', notes: 'n3' })
    expect(o.orderNumber).toMatch(/^ORD-\d{6}$/)

    const [, all] = await t.api.get('/api/v1/orders', { key })
    expect(all).toMatchObject({ total: 5, limit: 50, offset: 0 })
    expect(all.data.map((x: { id: string }) => x.id)).toEqual(ids)
  })

  test('orders created in the same millisecond keep a stable newest-first order', async () => {
    const s = makeShop(t.deps)
    const cat = makeCatalog(t.deps, s.store.id)
    const numbers = Array.from(
      { length: 4 },
      () => placeOrder(t.deps, orderBody(s.store.id, cat, { phone: uniqPhone() })).body.orderNumber,
    )
    const [, body] = await t.api.get('/api/v1/orders', { key: s.key })
    expect(body.data.map((o: { orderNumber: string }) => o.orderNumber)).toEqual(numbers.reverse())
  })

  test('status filter with per-status totals; createdSince / updatedSince', async () => {
    const { key, ids } = shopWithOrders(4)
    const since = clock.now()
    clock.advance(1000)
    await t.api.put(`/api/v1/orders/${ids[3]}/status`, { status: 'confirmed' }, { key })
    await t.api.put(`/api/v1/orders/${ids[2]}/status`, { status: 'cancelled' }, { key })

    const [, pending] = await t.api.get('/api/v1/orders?status=pending', { key })
    expect(pending.total).toBe(2)
    expect(pending.data.map((o: { id: string }) => o.id)).toEqual(ids.slice(0, 2))
    const [, confirmed] = await t.api.get('/api/v1/orders?status=confirmed', { key })
    expect([confirmed.total, confirmed.data[0].id]).toEqual([1, ids[3]])
    const [, delivered] = await t.api.get('/api/v1/orders?status=delivered', { key })
    expect([delivered.total, delivered.data]).toEqual([0, []])

    const [, updated] = await t.api.get(`/api/v1/orders?updatedSince=${new Date(since + 1).toISOString()}`, { key })
    expect([updated.total, updated.data.map((o: { id: string }) => o.id)]).toEqual([2, [ids[2], ids[3]]])
    const [, created] = await t.api.get(`/api/v1/orders?createdSince=${new Date(since - 60_000).toISOString()}`, {
      key,
    })
    expect([created.total, created.data.map((o: { id: string }) => o.id)]).toEqual([2, ids.slice(0, 2)])
  })

  test('another store’s orders never show', async () => {
    shopWithOrders(2)
    const { key } = makeShop(t.deps)
    const [, body] = await t.api.get('/api/v1/orders', { key })
    expect(body).toEqual({ data: [], total: 0, limit: 50, offset: 0 })
  })

  test.each([
    ['limit=101', 'limit', 'out_of_range'],
    ['limit=0', 'limit', 'out_of_range'],
    ['offset=-1', 'offset', 'out_of_range'],
    ['status=lost', 'status', 'invalid_format'],
    ['createdSince=yesterday', 'createdSince', 'invalid_format'],
  ])('400 for %s', async (qs, field, reason) => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.get(`/api/v1/orders?${qs}`, { key })
    expectStatus(res, body).toBe(400)
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason } })
  })
})

describe('GET /api/v1/orders/:id', () => {
  test('detail form with address, item ids, shipping snapshot and updatedAt', async () => {
    const { key, ids, cat } = shopWithOrders(1)
    const [res, body] = await t.api.get(`/api/v1/orders/${ids[0]}`, { key })
    expectStatus(res, body).toBe(200)
    expect(Object.keys(body.data).sort()).toEqual(DETAIL_KEYS)
    expect(body.data).toMatchObject({
      customerAddress: 'Calle 1, Lima',
      shippingOption: { name: 'Courier', price: 5 },
      subtotal: 34,
      total: 39,
      discount: null,
    })
    expect(body.data.items[1]).toEqual({
      productId: cat.mug.id,
      productName: 'Mug',
      variantId: null,
      variantName: null,
      quantity: 1,
      unitPrice: 10,
      subtotal: 10,
    })

    // The shipping snapshot survives a later price change.
    t.deps.db.$client.run('UPDATE shipping_options SET price = 999, name = ? WHERE id = ?', ['Renamed', cat.courier.id])
    const [, again] = await t.api.get(`/api/v1/orders/${ids[0]}`, { key })
    expect(again.data.shippingOption).toEqual({ name: 'Courier', price: 5 })
  })

  test('404 for an unknown id, 403 for another store’s order', async () => {
    const { key } = makeShop(t.deps)
    const [r1, b1] = await t.api.get(`/api/v1/orders/${createId()}`, { key })
    expectStatus(r1, b1).toBe(404)
    expect(b1.code).toBe('NOT_FOUND')
    const other = shopWithOrders(1)
    const [r2, b2] = await t.api.get(`/api/v1/orders/${other.ids[0]}`, { key })
    expectStatus(r2, b2).toBe(403)
    expect(b2.code).toBe('FORBIDDEN')
  })
})

describe('PUT /api/v1/orders/:id/status', () => {
  test('pending → confirmed → shipped → delivered, updatedAt moving; delivered is final', async () => {
    const { key, ids } = shopWithOrders(1)
    const id = ids[0]
    const [, before] = await t.api.get(`/api/v1/orders/${id}`, { key })
    let last = before.data.updatedAt
    for (const [path, status] of [
      ['/status', 'confirmed'],
      ['', 'shipped'],
      ['/status', 'delivered'],
    ] as const) {
      clock.advance(1000)
      const [res, body] = await t.api.put(`/api/v1/orders/${id}${path}`, { status }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.status).toBe(status)
      expect(Object.keys(body.data).sort()).toEqual(DETAIL_KEYS)
      expect(body.data.updatedAt).toBe(new Date(clock.now()).toISOString())
      expect(body.data.updatedAt > last).toBe(true)
      expect(body.data.createdAt).toBe(before.data.createdAt)
      last = body.data.updatedAt
    }
    for (const status of ['cancelled', 'delivered', 'pending', 'shipped']) {
      const [res, body] = await t.api.put(`/api/v1/orders/${id}/status`, { status }, { key })
      expectStatus(res, body).toBe(409)
      expect(body).toMatchObject({ code: 'INVALID_STATUS_TRANSITION', details: { from: 'delivered', to: status } })
    }
    const [, after] = await t.api.get(`/api/v1/orders/${id}`, { key })
    expect([after.data.status, after.data.updatedAt]).toEqual(['delivered', last])
  })

  test('cancel from pending, confirmed and shipped; nothing leaves cancelled; skipping a step is 409', async () => {
    const { key, ids } = shopWithOrders(4)
    const put = (id: string, status: string) => t.api.put(`/api/v1/orders/${id}/status`, { status }, { key })
    expect((await put(ids[0]!, 'cancelled'))[0].status).toBe(200)
    await put(ids[1]!, 'confirmed')
    expect((await put(ids[1]!, 'cancelled'))[0].status).toBe(200)
    await put(ids[2]!, 'confirmed')
    await put(ids[2]!, 'shipped')
    expect((await put(ids[2]!, 'cancelled'))[0].status).toBe(200)
    const [r1, b1] = await put(ids[0]!, 'pending')
    expect([r1.status, b1.details]).toEqual([409, { from: 'cancelled', to: 'pending' }])
    const [r2, b2] = await put(ids[3]!, 'shipped')
    expect([r2.status, b2.details]).toEqual([409, { from: 'pending', to: 'shipped' }])
    const [r3, b3] = await put(ids[3]!, 'pending')
    expect([r3.status, b3.code]).toEqual([409, 'INVALID_STATUS_TRANSITION'])
  })

  test('400 for an unknown or missing status; 404 unknown order; 403 another store’s', async () => {
    const { key, ids } = shopWithOrders(1)
    const [r1, b1] = await t.api.put(`/api/v1/orders/${ids[0]}/status`, { status: 'lost' }, { key })
    expectStatus(r1, b1).toBe(400)
    expect(b1.details).toEqual({ field: 'status', reason: 'invalid_format' })
    const [r2, b2] = await t.api.put(`/api/v1/orders/${ids[0]}`, {}, { key })
    expectStatus(r2, b2).toBe(400)
    expect(b2.details).toEqual({ field: 'status', reason: 'required' })
    const [r3] = await t.api.put(`/api/v1/orders/${createId()}/status`, { status: 'confirmed' }, { key })
    expect(r3.status).toBe(404)
    const other = makeShop(t.deps)
    const [r4] = await t.api.put(`/api/v1/orders/${ids[0]}/status`, { status: 'confirmed' }, { key: other.key })
    expect(r4.status).toBe(403)
    const [, still] = await t.api.get(`/api/v1/orders/${ids[0]}`, { key })
    expect(still.data.status).toBe('pending')
  })

  test('an order.updated outbox row commits with the change; a refused move writes none', async () => {
    const { key, ids, store } = shopWithOrders(1)
    const now = clock.now()
    t.deps.db.$client.run(
      'INSERT INTO webhooks (id, store_id, url, events, is_active, secret, created_at, updated_at) ' +
        'VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
      [createId(), store.id, 'https://hooks.example.com/x', JSON.stringify(['order.updated']), 'enc:test', now, now],
    )
    const calls: string[] = []
    const original = t.deps.onOutbox
    t.deps.onOutbox = (id) => calls.push(id)
    try {
      clock.advance(5000)
      const [res, body] = await t.api.put(`/api/v1/orders/${ids[0]}/status`, { status: 'confirmed' }, { key })
      expectStatus(res, body).toBe(200)
      await t.api.put(`/api/v1/orders/${ids[0]}/status`, { status: 'delivered' }, { key })
      const rows = t.deps.db.$client
        .query<{ event_type: string; payload: string }, [string]>(
          'SELECT event_type, payload FROM webhook_outbox WHERE store_id = ?',
        )
        .all(store.id)
      expect(rows.map((r) => r.event_type)).toEqual(['order.updated'])
      expect(JSON.parse(rows[0]!.payload)).toEqual({
        type: 'order.updated',
        event: 'order.updated',
        timestamp: new Date(clock.now()).toISOString(),
        storeId: store.id,
        data: {
          id: ids[0],
          orderNumber: body.data.orderNumber,
          previousStatus: 'pending',
          newStatus: 'confirmed',
          updatedAt: new Date(clock.now()).toISOString(),
        },
      })
      expect(calls).toEqual([store.id])
    } finally {
      t.deps.onOutbox = original
    }
  })
})

test('order_counts agree with COUNT(*) after creations and moves', async () => {
  const { key, ids, store } = shopWithOrders(6)
  const moves: [number, string][] = [
    [0, 'confirmed'],
    [0, 'shipped'],
    [1, 'cancelled'],
    [2, 'confirmed'],
    [0, 'delivered'],
    [3, 'delivered'],
  ]
  for (const [i, status] of moves) await t.api.put(`/api/v1/orders/${ids[i]}/status`, { status }, { key })
  const actual = t.deps.db.$client
    .query<{ status: string; n: number }, [string]>(
      'SELECT status, count(*) AS n FROM orders WHERE store_id = ? GROUP BY status',
    )
    .all(store.id)
  for (const { status, n } of actual) {
    const [, body] = await t.api.get(`/api/v1/orders?status=${status}`, { key })
    expect([status, body.total]).toEqual([status, n])
  }
  const [, all] = await t.api.get('/api/v1/orders', { key })
  expect(all.total).toBe(6)
})
