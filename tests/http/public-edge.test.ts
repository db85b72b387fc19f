/**
 * The public edge: abuse an anonymous caller can't do. Each test here
 * fails on the base commit 88d40c8.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, makeCatalog, orderBody, uniqPhone } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { ConfigError, loadConfig } from '../../src/config'
import { ipBucket, peerIp, stripPort } from '../../src/lib/client-ip'
import { expirePendingOrders } from '../../src/jobs/expire-orders'

const clock = fixedClock(Date.UTC(2026, 10, 1, 12))
const t = appForFile({ rateLimitOrders: 100_000 }, { clock })

const post = (body: unknown) => t.api.post('/api/orders', body)
const stockOf = (id: string) =>
  t.deps.db.$client.query<{ stock: number | null }, [string]>('SELECT stock FROM products WHERE id = ?').get(id)!.stock

describe('stock hoarding', () => {
  test('one order holds at most ORDER_MAX_UNITS units in all → 400 out_of_range at items; no stock taken', async () => {
    const { store } = makeShop(t.deps)
    const big = addProduct(t.deps, store.id, { price: 100, name: 'Beans' })
    t.deps.db.$client.run('UPDATE products SET stock = 50000 WHERE id = ?', [big.id])
    const lines = Array.from({ length: 5 }, () => ({ productId: big.id, quantity: 10_000 }))
    const [res, body] = await post({ storeId: store.id, name: 'Hoarder', phone: uniqPhone(), items: lines })
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({ field: 'items', reason: 'out_of_range', max: 500 })
    expect(stockOf(big.id)).toBe(50000)
    // 500 units spread over lines is still one order's worth; 501 is not.
    const [ok, okBody] = await post({
      storeId: store.id,
      name: 'Shopper',
      phone: uniqPhone(),
      items: [
        { productId: big.id, quantity: 250 },
        { productId: big.id, quantity: 250 },
      ],
    })
    expectStatus(ok, okBody).toBe(201)
    expect(stockOf(big.id)).toBe(49500)
    const [over] = await post({
      storeId: store.id,
      name: 'Shopper',
      phone: uniqPhone(),
      items: [
        { productId: big.id, quantity: 250 },
        { productId: big.id, quantity: 251 },
      ],
    })
    expect(over.status).toBe(400)
  })

  test(
    'lines naming the same item are merged: [{q:1},{q:1}] is a duplicate of [{q:2}]; ' +
      'error fields keep the body index',
    async () => {
      const { store } = makeShop(t.deps)
      const cat = makeCatalog(t.deps, store.id)
      const phone = uniqPhone()
      const [r1] = await post(orderBody(store.id, cat, { phone, items: [{ productId: cat.mug.id, quantity: 2 }] }))
      expect(r1.status).toBe(201)
      const [r2, b2] = await post(
        orderBody(store.id, cat, {
          phone,
          items: [
            { productId: cat.mug.id, quantity: 1 },
            { productId: cat.mug.id, quantity: 1 },
          ],
        }),
      )
      expectStatus(r2, b2).toBe(409)
      expect(b2.code).toBe('DUPLICATE_ORDER')
      const [r3, b3] = await post(
        orderBody(store.id, cat, {
          items: [
            { productId: cat.mug.id, quantity: 1 },
            { productId: cat.mug.id, quantity: 1 },
            { productId: 'nope', quantity: 1 },
          ],
        }),
      )
      expectStatus(r3, b3).toBe(400)
      expect(b3.details.field).toBe('items[2].productId')
    },
  )

  test('merged lines take their stock once: two lines of 3 against 5 units → 409 at the first line', async () => {
    const { store } = makeShop(t.deps)
    const p = addProduct(t.deps, store.id, { price: 100, name: 'Rare' })
    t.deps.db.$client.run('UPDATE products SET stock = 5 WHERE id = ?', [p.id])
    const [res, body] = await post({
      storeId: store.id,
      name: 'A',
      phone: uniqPhone(),
      items: [
        { productId: p.id, quantity: 3 },
        { productId: p.id, quantity: 3 },
      ],
    })
    expectStatus(res, body).toBe(409)
    expect(body.details).toEqual({ field: 'items[0].productId', available: 5 })
    expect(stockOf(p.id)).toBe(5)
  })
})

describe('customer records', () => {
  test('an anonymous order with the same phone in another format never overwrites the name or address', async () => {
    const { store, key } = makeShop(t.deps)
    const cat = makeCatalog(t.deps, store.id)
    await post(orderBody(store.id, cat, { phone: '+14155550177', name: 'Real Customer', address: '1 Real St' }))
    clock.advance(60_000)
    const [res, body] = await post(
      orderBody(store.id, cat, {
        phone: '(415) 555-0177'.replace('(', '+1 ('),
        name: 'Attacker',
        address: '9 Evil Rd',
        items: [{ productId: cat.mug.id, quantity: 1 }],
      }),
    )
    expectStatus(res, body).toBe(201)
    const [, list] = await t.api.get('/api/v1/customers', { key })
    expect(list.data).toHaveLength(1)
    expect(list.data[0]).toMatchObject({ name: 'Real Customer', address: '1 Real St', ordersCount: 2 })
    // Each order keeps its own name and address.
    const [, order] = await t.api.get(`/api/v1/orders/${body.id}`, { key })
    expect(order.data).toMatchObject({ customerName: 'Attacker', customerAddress: '9 Evil Rd' })
  })

  test('a first order without an address leaves it blank; a later one fills it once', async () => {
    const { store, key } = makeShop(t.deps)
    const cat = makeCatalog(t.deps, store.id)
    await post(orderBody(store.id, cat, { phone: '+14155550178', address: undefined }))
    await post(
      orderBody(store.id, cat, {
        phone: '+14155550178',
        address: '2 First St',
        items: [{ productId: cat.mug.id, quantity: 1 }],
      }),
    )
    await post(
      orderBody(store.id, cat, {
        phone: '+14155550178',
        address: '3 Other St',
        items: [{ productId: cat.mug.id, quantity: 2 }],
      }),
    )
    const [, list] = await t.api.get('/api/v1/customers', { key })
    expect(list.data[0]).toMatchObject({ address: '2 First St', ordersCount: 3 })
  })
})

describe('products', () => {
  test('comparePrice must be greater than price, on create and on the values a partial update leaves', async () => {
    const { key } = makeShop(t.deps)
    const [r1, b1] = await t.api.post('/api/v1/products', { name: 'Lamp', price: 20, comparePrice: 20 }, { key })
    expectStatus(r1, b1).toBe(400)
    expect(b1.details).toMatchObject({ field: 'comparePrice', reason: 'out_of_range' })
    const [r2, b2] = await t.api.post('/api/v1/products', { name: 'Lamp', price: 20, comparePrice: 25 }, { key })
    expectStatus(r2, b2).toBe(201)
    const id = b2.data.id
    const [r3, b3] = await t.api.put(`/api/v1/products/${id}`, { price: 30 }, { key })
    expectStatus(r3, b3).toBe(400)
    expect(b3.details.field).toBe('comparePrice')
    const [r4, b4] = await t.api.put(`/api/v1/products/${id}`, { price: 30, comparePrice: null }, { key })
    expectStatus(r4, b4).toBe(200)
    expect(b4.data).toMatchObject({ price: 30, comparePrice: null })
  })
})

describe('proxy mode', () => {
  test('TRUST_PROXY=1 without PUBLIC_URL is refused with a clear message', () => {
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(ConfigError)
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY=1 needs PUBLIC_URL/)
    expect(loadConfig({ TRUST_PROXY: '1', PUBLIC_URL: 'https://shop.example.com' }).trustProxy).toBe(true)
  })

  test('X-Forwarded-For entries with a port count as their address', () => {
    expect(stripPort('203.0.113.7:51234')).toBe('203.0.113.7')
    expect(stripPort('[2001:db8::1]:443')).toBe('2001:db8::1')
    expect(stripPort('2001:db8::1')).toBe('2001:db8::1')
    expect(stripPort('203.0.113.7')).toBe('203.0.113.7')
    const ip = (xff: string) => peerIp(new Request('http://x/', { headers: { 'x-forwarded-for': xff } }), null, true)
    const buckets = new Set(
      ['1.2.3.4:1000', '1.2.3.4:1001', 'evil, 1.2.3.4:2000', '1.2.3.4'].map((x) => ipBucket(ip(x))),
    )
    expect([...buckets]).toEqual(['1.2.3.4'])
    expect(ipBucket(ip('[2001:db8:1:2::5]:1'))).toBe(ipBucket(ip('[2001:db8:1:2::6]:2')))
  })
})

describe('pending orders expire', () => {
  test('GET/PUT /api/v1/store pendingOrderTtlHours: 72 by default, 0–8760', async () => {
    const { key } = makeShop(t.deps)
    const [, got] = await t.api.get('/api/v1/store', { key })
    expect(got.data.pendingOrderTtlHours).toBe(72)
    const [r1, b1] = await t.api.put('/api/v1/store', { pendingOrderTtlHours: 0 }, { key })
    expectStatus(r1, b1).toBe(200)
    expect(b1.data.pendingOrderTtlHours).toBe(0)
    const [r2, b2] = await t.api.put('/api/v1/store', { pendingOrderTtlHours: 8761 }, { key })
    expectStatus(r2, b2).toBe(400)
    expect(b2.details.field).toBe('pendingOrderTtlHours')
  })

  test(
    'an order still pending after the TTL is cancelled by the system, ' +
      'its stock back and order.updated sent; others stay',
    async () => {
      const { store, key } = makeShop(t.deps)
      const p = addProduct(t.deps, store.id, { price: 100, name: 'Scarce' })
      t.deps.db.$client.run('UPDATE products SET stock = 10 WHERE id = ?', [p.id])
      await t.api.put('/api/v1/store', { pendingOrderTtlHours: 2 }, { key })
      const place = async (q: number) =>
        (await post({ storeId: store.id, name: 'A', phone: uniqPhone(), items: [{ productId: p.id, quantity: q }] }))[1]
          .id as string
      const old = await place(3)
      const confirmed = await place(2)
      await t.api.put(`/api/v1/orders/${confirmed}/status`, { status: 'confirmed' }, { key })
      clock.advance(60 * 60_000)
      const fresh = await place(1)
      expect(stockOf(p.id)).toBe(4)
      const events = () =>
        t.deps.db.$client
          .query<{ n: number }, [string]>(
            'SELECT (SELECT count(*) FROM webhook_outbox WHERE store_id = ?1) + (SELECT count(*) ' +
              'FROM webhook_deliveries WHERE store_id = ?1) AS n',
          )
          .get(store.id)!.n
      t.deps.db.$client.run(
        'INSERT INTO webhooks (id, store_id, url, events, is_active, secret, created_at, updated_at) ' +
          "VALUES ('wh-exp', ?, 'https://hooks.example.com/x', '[\"order.updated\"]', 1, 'enc:test', 0, 0)",
        [store.id],
      )
      const before = events()

      clock.advance(60 * 60_000 - 1)
      expect(expirePendingOrders(t.deps)).toBe(0)
      clock.advance(1)
      expect(expirePendingOrders(t.deps)).toBe(1)
      const status = async (id: string) => (await t.api.get(`/api/v1/orders/${id}`, { key }))[1].data.status
      expect([await status(old), await status(confirmed), await status(fresh)]).toEqual([
        'cancelled',
        'confirmed',
        'pending',
      ])
      expect(stockOf(p.id)).toBe(7)
      expect(events()).toBe(before + 1)
      // The history names the system as the actor (the activity log).
      expect(
        t.deps.db.$client.query('SELECT actor, verb, record_type AS type FROM activity WHERE record_id = ?').get(old),
      ).toEqual({ actor: 'system', verb: 'cancel', type: 'order' })
      expect(expirePendingOrders(t.deps)).toBe(0)
    },
  )

  test('0 hours: never', async () => {
    const { store, key } = makeShop(t.deps)
    const cat = makeCatalog(t.deps, store.id)
    await t.api.put('/api/v1/store', { pendingOrderTtlHours: 0 }, { key })
    const [, body] = await post(orderBody(store.id, cat))
    clock.advance(400 * 24 * 3_600_000)
    expirePendingOrders(t.deps)
    expect((await t.api.get(`/api/v1/orders/${body.id}`, { key }))[1].data.status).toBe('pending')
  })
})
