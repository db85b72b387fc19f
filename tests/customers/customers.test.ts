/** GET /api/v1/customers and GET /api/v1/customers/:id (with order history). */
import { describe, expect, test } from 'bun:test'
import { createId } from '@paralleldrive/cuid2'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'

const clock = fixedClock(Date.UTC(2026, 4, 1))
const t = appForFile({ rateLimitKey: 100_000 }, { clock })

const KEYS = [
  'address',
  'createdAt',
  'firstOrderAt',
  'id',
  'lastOrderAt',
  'name',
  'ordersCount',
  'phone',
  'totalSpent',
  'updatedAt',
]

function shop() {
  const s = makeShop(t.deps)
  const cat = makeCatalog(t.deps, s.store.id)
  const order = (phone: string, name: string, qty = 1) => {
    clock.advance(60_000)
    return placeOrder(
      t.deps,
      orderBody(s.store.id, cat, { phone, name, items: [{ productId: cat.mug.id, quantity: qty }] }),
    ).body
  }
  return { ...s, cat, order }
}

describe('GET /api/v1/customers', () => {
  test('one per phone, newest first, paginated, with the fields in major units', async () => {
    const { key, order } = shop()
    order('+14155550101', 'Ana')
    order('+14155550102', 'Bruno')
    order('+14155550101', 'Ana B', 2)
    order('+14155550103', 'Carla')
    const [res, body] = await t.api.get('/api/v1/customers?limit=2', { key })
    expectStatus(res, body).toBe(200)
    expect(body).toMatchObject({ total: 3, limit: 2, offset: 0 })
    expect(body.data.map((c: { name: string }) => c.name)).toEqual(['Carla', 'Bruno'])
    expect(Object.keys(body.data[0]).sort()).toEqual(KEYS)
    const [, rest] = await t.api.get('/api/v1/customers?limit=2&offset=2', { key })
    expect(rest.data).toHaveLength(1)
    // A later order never renames the customer.
    expect(rest.data[0]).toMatchObject({ name: 'Ana', phone: '+14155550101', ordersCount: 2, totalSpent: 30 })
  })

  test('q matches a name or phone substring, case-insensitively; LIKE wildcards are literal', async () => {
    const { key, order } = shop()
    order('+14155550201', 'María López')
    order('+14155550202', 'Pedro')
    order('+14155550203', '100% Juan')
    const names = async (q: string) =>
      (await t.api.get(`/api/v1/customers?q=${encodeURIComponent(q)}`, { key }))[1].data.map(
        (c: { name: string }) => c.name,
      )
    expect(await names('lópez')).toEqual(['María López'])
    expect(await names('0202')).toEqual(['Pedro'])
    expect(await names('%')).toEqual(['100% Juan'])
    expect(await names('_')).toEqual([])
    const [, body] = await t.api.get('/api/v1/customers?q=pedro', { key })
    expect(body.total).toBe(1)
  })

  test('createdSince / updatedSince; another store’s customers never show', async () => {
    const { key, order } = shop()
    order('+14155550301', 'Old')
    const mark = clock.now()
    order('+14155550302', 'New')
    order('+14155550301', 'Old again', 3)
    const [, created] = await t.api.get(`/api/v1/customers?createdSince=${new Date(mark + 1).toISOString()}`, { key })
    expect(created.data.map((c: { name: string }) => c.name)).toEqual(['New'])
    const [, updated] = await t.api.get(`/api/v1/customers?updatedSince=${new Date(mark + 1).toISOString()}`, { key })
    // a later order moves updatedAt but keeps the first name
    expect(updated.data.map((c: { name: string }) => c.name).sort()).toEqual(['New', 'Old'])
    const other = makeShop(t.deps)
    const [, none] = await t.api.get('/api/v1/customers', { key: other.key })
    expect(none).toEqual({ data: [], total: 0, limit: 50, offset: 0 })
  })

  test(
    'a returning customer: an address fills a blank one and is never replaced; ' +
      'its orders of one batch share the record',
    async () => {
      const { key, cat, store } = shop()
      const post = (extra: Record<string, unknown>) =>
        t.api.post('/api/orders', orderBody(store.id, cat, { phone: '+14155550601', ...extra }))
      // Two posts in one event-loop turn commit in one batch: the second finds the customer the first made.
      const [[r1, b1], [r2, b2]] = await Promise.all([
        post({ name: 'Fe', address: undefined, items: [{ productId: cat.mug.id, quantity: 1 }] }),
        post({ name: 'Fe later', address: undefined, items: [{ productId: cat.mug.id, quantity: 2 }] }),
      ])
      expectStatus(r1, b1).toBe(201)
      expectStatus(r2, b2).toBe(201)
      const customer = async () => (await t.api.get('/api/v1/customers?q=0601', { key }))[1].data
      const [first] = await customer()
      expect(first).toMatchObject({ name: 'Fe', address: null, ordersCount: 2 })
      clock.advance(60_000)
      const [r3, b3] = await post({ name: 'Fe', address: 'Jr. Uno 1', items: [{ productId: cat.mug.id, quantity: 3 }] })
      expectStatus(r3, b3).toBe(201)
      clock.advance(60_000)
      const [r4, b4] = await post({ name: 'Fe', address: 'Jr. Dos 2', items: [{ productId: cat.mug.id, quantity: 4 }] })
      expectStatus(r4, b4).toBe(201)
      const all = await customer()
      expect(all).toHaveLength(1)
      expect(all[0]).toMatchObject({
        id: first.id,
        name: 'Fe',
        address: 'Jr. Uno 1',
        ordersCount: 4,
        updatedAt: new Date(clock.now()).toISOString(),
      })
      expect(all[0].createdAt).toBe(first.createdAt)
    },
  )

  test('400 for limit over 100', async () => {
    const { key } = shop()
    const [res, body] = await t.api.get('/api/v1/customers?limit=101', { key })
    expectStatus(res, body).toBe(400)
    expect(body.details).toEqual({ field: 'limit', reason: 'out_of_range' })
  })
})

describe('GET /api/v1/customers/:id', () => {
  test('adds the order history in list form, newest first, paged by ordersLimit / ordersOffset', async () => {
    const { key, order } = shop()
    const placed = [1, 2, 3, 4].map((q) => order('+14155550401', 'Dana', q))
    order('+14155550402', 'Someone else')
    const [, list] = await t.api.get('/api/v1/customers?q=Dana', { key })
    const id = list.data[0].id
    const [res, body] = await t.api.get(`/api/v1/customers/${id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(Object.keys(body.data).sort()).toEqual([...KEYS, 'orders'].sort())
    expect(body.data).toMatchObject({ name: 'Dana', ordersCount: 4, totalSpent: 100 })
    expect(body.data.orders.map((o: { id: string }) => o.id)).toEqual(placed.map((p) => p.id).reverse())
    expect(Object.keys(body.data.orders[0]).sort()).toEqual([
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
    ])
    const [, paged] = await t.api.get(`/api/v1/customers/${id}?ordersLimit=2&ordersOffset=1`, { key })
    expect(paged.data.orders.map((o: { id: string }) => o.id)).toEqual([placed[2]!.id, placed[1]!.id])
    const [bad, badBody] = await t.api.get(`/api/v1/customers/${id}?ordersLimit=101`, { key })
    expectStatus(bad, badBody).toBe(400)
    expect(badBody.details.field).toBe('ordersLimit')
  })

  test('404 unknown, 403 another store’s', async () => {
    const { key } = shop()
    const [r1, b1] = await t.api.get(`/api/v1/customers/${createId()}`, { key })
    expectStatus(r1, b1).toBe(404)
    const other = shop()
    other.order('+14155550501', 'Eve')
    const [, theirs] = await t.api.get('/api/v1/customers', { key: other.key })
    const [r2, b2] = await t.api.get(`/api/v1/customers/${theirs.data[0].id}`, { key })
    expectStatus(r2, b2).toBe(403)
    expect(b2.code).toBe('FORBIDDEN')
  })
})
