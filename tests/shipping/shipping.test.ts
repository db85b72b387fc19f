/** /api/v1/shipping: fields, validation, list, hard delete with the order snapshot kept. */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { makeShipping } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { orders } from '../../src/db/schema'

const clock = fixedClock(Date.UTC(2026, 4, 1, 9))
const t = appForFile({}, { clock })

const FIELDS = ['id', 'name', 'price', 'description', 'estimatedDays', 'isActive', 'createdAt', 'updatedAt']
const storedPrice = (id: string) =>
  t.deps.db.$client.query<{ price: number }, [string]>('SELECT price FROM shipping_options WHERE id = ?').get(id)!.price

describe('POST /api/v1/shipping', () => {
  test('creates an option on the free plan with every contract field; price stored in minor units', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    const [res, body] = await t.api.post(
      '/api/v1/shipping',
      { name: 'Express', price: 7.99, description: 'Next day', estimatedDays: 1 },
      { key },
    )
    expectStatus(res, body).toBe(201)
    expect(Object.keys(body.data).sort()).toEqual([...FIELDS].sort())
    expect(body.data).toMatchObject({
      name: 'Express',
      price: 7.99,
      description: 'Next day',
      estimatedDays: 1,
      isActive: true,
      createdAt: new Date(clock.now()).toISOString(),
    })
    expect(storedPrice(body.data.id)).toBe(799)
  })

  test('defaults: description and estimatedDays null, active; free shipping (0) and 0 days are allowed', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.post('/api/v1/shipping', { name: 'Pickup', price: 0, estimatedDays: 0 }, { key })
    expectStatus(res, body).toBe(201)
    expect(body.data).toMatchObject({ price: 0, description: null, estimatedDays: 0, isActive: true })
    const [, bare] = await t.api.post('/api/v1/shipping', { name: 'Post', price: 3 }, { key })
    expect(bare.data).toMatchObject({ description: null, estimatedDays: null })
  })

  test('validation names the field', async () => {
    const { key } = makeShop(t.deps)
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: 5 }, 'name', 'required'],
      [{ name: 'A' }, 'price', 'required'],
      [{ name: '', price: 5 }, 'name', 'out_of_range'],
      [{ name: '   ', price: 5 }, 'name', 'required'],
      [{ name: 'n'.repeat(201), price: 5 }, 'name', 'out_of_range'],
      [{ name: 'A', price: -1 }, 'price', 'out_of_range'],
      [{ name: 'A', price: 4.999 }, 'price', 'invalid_format'],
      [{ name: 'A', price: '5' }, 'price', 'invalid_type'],
      [{ name: 'A', price: 5, estimatedDays: -1 }, 'estimatedDays', 'out_of_range'],
      [{ name: 'A', price: 5, estimatedDays: 366 }, 'estimatedDays', 'out_of_range'],
      [{ name: 'A', price: 5, isActive: 'yes' }, 'isActive', 'invalid_type'],
      [{ name: 'A', price: 5, description: 'd'.repeat(2001) }, 'description', 'out_of_range'],
    ]
    for (const [input, field, reason] of cases) {
      const [res, body] = await t.api.post('/api/v1/shipping', input, { key })
      expect({ input, status: res.status, ...body.details }).toEqual({ input, status: 400, field, reason })
    }
    const [res, body] = await t.api.post('/api/v1/shipping', { name: 'A', price: 5, estimatedDays: 1.5 }, { key })
    expectStatus(res, body).toBe(400)
    expect(body.details.field).toBe('estimatedDays')
  })

  test('a zero-decimal currency takes whole amounts only', async () => {
    const { key } = makeShop(t.deps, { currency: 'JPY' })
    const [ok, okBody] = await t.api.post('/api/v1/shipping', { name: 'Yamato', price: 800 }, { key })
    expectStatus(ok, okBody).toBe(201)
    expect(storedPrice(okBody.data.id)).toBe(800)
    const [res, body] = await t.api.post('/api/v1/shipping', { name: 'Yamato', price: 800.5 }, { key })
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({ field: 'price', reason: 'invalid_format' })
  })
})

describe('PUT /api/v1/shipping/:id', () => {
  test('is partial; null clears description and estimatedDays', async () => {
    const { store, key } = makeShop(t.deps)
    const s = makeShipping(t.deps, store.id, { description: 'Tracked' })
    clock.advance(1000)
    const [res, body] = await t.api.put(`/api/v1/shipping/${s.id}`, { price: 5.25 }, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({ ...s, price: 5.25, updatedAt: new Date(clock.now()).toISOString() })
    expect(storedPrice(s.id)).toBe(525)
    const [, cleared] = await t.api.put(
      `/api/v1/shipping/${s.id}`,
      { description: null, estimatedDays: null, isActive: false },
      { key },
    )
    expect(cleared.data).toMatchObject({
      description: null,
      estimatedDays: null,
      isActive: false,
      price: 5.25,
      name: s.name,
    })
  })

  test('validation and 404', async () => {
    const { store, key } = makeShop(t.deps)
    const s = makeShipping(t.deps, store.id)
    const [res, body] = await t.api.put(`/api/v1/shipping/${s.id}`, { estimatedDays: -2 }, { key })
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({ field: 'estimatedDays', reason: 'out_of_range' })
    const [r404, b404] = await t.api.put('/api/v1/shipping/unknown', { price: 1 }, { key })
    expectStatus(r404, b404).toBe(404)
    expect(b404.code).toBe('NOT_FOUND')
  })
})

describe('GET /api/v1/shipping', () => {
  test('newest first, paginated, isActive filter, createdSince, only the caller store', async () => {
    const { store, key } = makeShop(t.deps)
    const other = makeShop(t.deps)
    makeShipping(t.deps, other.store.id)
    const start = clock.now()
    const made = []
    for (let i = 0; i < 4; i++) {
      clock.advance(60_000)
      made.push(makeShipping(t.deps, store.id, { isActive: i !== 1 }))
    }
    const [res, body] = await t.api.get('/api/v1/shipping', { key })
    expectStatus(res, body).toBe(200)
    expect(body).toMatchObject({ total: 4, limit: 50, offset: 0 })
    expect(body.data.map((s: { id: string }) => s.id)).toEqual(made.map((s) => s.id).reverse())
    const [, paged] = await t.api.get('/api/v1/shipping?limit=1&offset=3', { key })
    expect(paged.data.map((s: { id: string }) => s.id)).toEqual([made[0]!.id])
    const [, inactive] = await t.api.get('/api/v1/shipping?isActive=false', { key })
    expect(inactive.data.map((s: { id: string }) => s.id)).toEqual([made[1]!.id])
    const [, since] = await t.api.get(`/api/v1/shipping?createdSince=${new Date(start + 3 * 60_000).toISOString()}`, {
      key,
    })
    expect(since.total).toBe(2)
    const [r400, b400] = await t.api.get('/api/v1/shipping?limit=500', { key })
    expectStatus(r400, b400).toBe(400)
    expect(b400.details.field).toBe('limit')
  })

  test('GET by id', async () => {
    const { store, key } = makeShop(t.deps)
    const s = makeShipping(t.deps, store.id)
    const [res, body] = await t.api.get(`/api/v1/shipping/${s.id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual(s)
    expect((await t.api.get('/api/v1/shipping/unknown', { key }))[0].status).toBe(404)
  })
})

describe('DELETE /api/v1/shipping/:id', () => {
  test('hard-deletes; an order placed with it keeps its { name, price } snapshot', async () => {
    const { store, key } = makeShop(t.deps)
    const s = makeShipping(t.deps, store.id, { name: 'Courier X', price: 650 })
    const orderId = uniq('order')
    const now = clock.now()
    t.deps.db
      .insert(orders)
      .values({
        id: orderId,
        storeId: store.id,
        orderNumber: 'ORD-000001',
        customerName: 'Bo',
        customerPhone: '+14155550102',
        currency: 'USD',
        itemsSubtotal: 1000,
        shippingOptionId: s.id,
        shippingName: s.name,
        shippingPrice: 650,
        total: 1650,
        dedupHash: 'y',
        createdAt: now,
        updatedAt: now,
      })
      .run()
    const [res, body] = await t.api.delete(`/api/v1/shipping/${s.id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({ data: { id: s.id, deleted: true } })
    expect(t.deps.db.$client.query('SELECT 1 FROM shipping_options WHERE id = ?').get(s.id)).toBeNull()
    const order = t.deps.db.$client
      .query('SELECT shipping_option_id, shipping_name, shipping_price, total FROM orders WHERE id = ?')
      .get(orderId)
    expect(order).toEqual({ shipping_option_id: null, shipping_name: 'Courier X', shipping_price: 650, total: 1650 })
    expect((await t.api.get(`/api/v1/shipping/${s.id}`, { key }))[0].status).toBe(404)
    expect((await t.api.delete(`/api/v1/shipping/${s.id}`, { key }))[0].status).toBe(404)
    const [, list] = await t.api.get('/api/v1/shipping', { key })
    expect(list.total).toBe(0)
  })
})
