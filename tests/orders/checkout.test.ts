/** POST /api/orders: order of checks, references, money from the database, customers, dedup, idempotency, outbox. */
import { drainOutbox } from '../helpers/outbox'
import { describe, expect, test } from 'bun:test'
import { createId } from '@paralleldrive/cuid2'
import { appForFile, makeApp, expectStatus, windowStartClock } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addDiscount, addProduct, addShipping, addVariant, makeCatalog, orderBody } from '../helpers/factories'
import { suspendStore } from '../../src/modules/platform-stores/service'
import { fixedClock } from '../../src/lib/time'

const clock = fixedClock(Date.UTC(2026, 2, 1, 12))
const t = appForFile({ rateLimitOrders: 100_000 }, { clock })

const post = (body: unknown, headers?: Record<string, string>) => t.api.post('/api/orders', body, { headers })
const sqlOne = <T = number>(q: string, ...params: (string | number)[]) =>
  Object.values(t.deps.db.$client.query(q).get(...params) as object)[0] as T

function shop(input: Parameters<typeof makeShop>[1] = {}) {
  const s = makeShop(t.deps, input)
  return { ...s, cat: makeCatalog(t.deps, s.store.id) }
}

/** Row counts of every table an order writes; a rejected order must leave all of them unchanged. */
function footprint(storeId: string) {
  return {
    orders: sqlOne('SELECT count(*) FROM orders WHERE store_id = ?', storeId),
    items: sqlOne(
      'SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.store_id = ?',
      storeId,
    ),
    customers: sqlOne('SELECT count(*) FROM customers WHERE store_id = ?', storeId),
    idempotency: sqlOne('SELECT count(*) FROM idempotency_keys WHERE store_id = ?', storeId),
    discountUses: sqlOne('SELECT coalesce(sum(used_count), 0) FROM discounts WHERE store_id = ?', storeId),
    seq: sqlOne('SELECT order_seq FROM stores WHERE id = ?', storeId),
    counts: sqlOne('SELECT coalesce(sum(count), 0) FROM order_counts WHERE store_id = ?', storeId),
    events: sqlOne(
      'SELECT (SELECT count(*) FROM webhook_outbox WHERE store_id = ?1) + (SELECT count(*) ' +
        'FROM webhook_deliveries WHERE store_id = ?1)',
      storeId,
    ),
  }
}

function addWebhook(storeId: string, events = ['order.created', 'order.updated']) {
  const id = createId()
  const now = clock.now()
  t.deps.db.$client.run(
    'INSERT INTO webhooks (id, store_id, url, events, is_active, secret, created_at, updated_at) ' +
      'VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
    [id, storeId, 'https://hooks.example.com/x', JSON.stringify(events), 'enc:test', now, now],
  )
  return id
}

describe('201', () => {
  test('creates a pending order with ORD- numbers per store, prices from the database and a wa.me link', async () => {
    const { store, key, cat } = shop({ name: 'Tienda Sol', whatsapp: '+51 987 654 321' })
    const [res, body] = await post({
      ...orderBody(store.id, cat, { name: 'Luis' }),
      unitPrice: 0,
      total: 1,
      items: [{ variantId: cat.large.id, quantity: 2, unitPrice: 0.01 }],
    })
    expectStatus(res, body).toBe(201)
    expect(Object.keys(body).sort()).toEqual(['currency', 'id', 'orderNumber', 'statusUrl', 'total', 'whatsappUrl'])
    expect(body.orderNumber).toBe('ORD-000001')
    expect(body).toMatchObject({ total: 24, currency: 'USD' })
    const url = new URL(body.whatsappUrl)
    expect(url.origin + url.pathname).toBe('https://wa.me/51987654321')
    const text = url.searchParams.get('text')!
    expect(text).toContain('Tienda Sol')
    expect(text).toContain('Luis')
    expect(text).toContain('2 x Shirt (Large): 24.00 USD')
    expect(text).toContain('24.00 USD')

    const [r2, b2] = await post(orderBody(store.id, cat))
    expectStatus(r2, b2).toBe(201)
    expect(b2.orderNumber).toBe('ORD-000002')
    const other = shop()
    const [r3, b3] = await post(orderBody(other.store.id, other.cat))
    expect(b3.orderNumber).toBe('ORD-000001')
    expect(r3.status).toBe(201)

    const [, detail] = await t.api.get(`/api/v1/orders/${body.id}`, { key })
    expect(detail.data).toMatchObject({
      status: 'pending',
      customerName: 'Luis',
      subtotal: 24,
      total: 24,
      shippingOption: null,
      discount: null,
    })
    expect(detail.data.items).toEqual([
      {
        productId: cat.shirt.id,
        productName: 'Shirt',
        variantId: cat.large.id,
        variantName: 'Large',
        quantity: 2,
        unitPrice: 12,
        subtotal: 24,
      },
    ])
  })

  test("renders the store's template; whatsappUrl is null without a store number", async () => {
    const { store, cat } = shop()
    t.deps.db.$client.run('UPDATE stores SET whatsapp_template = ? WHERE id = ?', [
      '{nombre} @ {tienda}: {productos} = {total}',
      store.id,
    ])
    const [, body] = await post(
      orderBody(store.id, cat, { name: 'Eva', items: [{ productId: cat.mug.id, quantity: 3 }] }),
    )
    // The store's template, then the order's status page on a line of its own.
    expect(new URL(body.whatsappUrl).searchParams.get('text')).toBe(
      `Eva @ ${store.name}: - 3 x Mug: 30.00 USD = 30.00 USD\n\n${body.statusUrl}`,
    )

    const none = shop()
    t.deps.db.$client.run('UPDATE stores SET whatsapp_number = NULL WHERE id = ?', [none.store.id])
    const [res, b2] = await post(orderBody(none.store.id, none.cat))
    expectStatus(res, b2).toBe(201)
    expect(b2.whatsappUrl).toBeNull()
  })

  test('total = items + shipping − percentage discount (half up, items only); usedCount counts the use', async () => {
    const { store, key, cat } = shop()
    const p = addProduct(t.deps, store.id, { price: 1010 })
    const d = addDiscount(t.deps, store.id, { type: 'percentage', value: 1500, code: 'Summer15' })
    const [res, body] = await post(
      orderBody(store.id, cat, {
        items: [{ productId: p.id, quantity: 1 }],
        shippingOptionId: cat.courier.id,
        discountCode: 'summer15',
      }),
    )
    expectStatus(res, body).toBe(201)
    const [, detail] = await t.api.get(`/api/v1/orders/${body.id}`, { key })
    // 10.10 × 15 % = 1.515 → 1.52; 10.10 + 5.00 − 1.52
    expect(detail.data).toMatchObject({
      subtotal: 10.1,
      shippingOption: { name: 'Courier', price: 5 },
      discount: { code: 'Summer15', amount: 1.52 },
      total: 13.58,
    })
    expect(sqlOne('SELECT used_count FROM discounts WHERE id = ?', d.id)).toBe(1)
  })

  test('a fixed discount never takes the items below zero; shipping is still paid', async () => {
    const { store, key, cat } = shop()
    addDiscount(t.deps, store.id, { type: 'fixed', value: 100_000, code: 'HUGE' })
    const [, body] = await post(orderBody(store.id, cat, { shippingOptionId: cat.courier.id, discountCode: 'HUGE' }))
    const [, detail] = await t.api.get(`/api/v1/orders/${body.id}`, { key })
    expect(detail.data).toMatchObject({ subtotal: 34, discount: { code: 'HUGE', amount: 34 }, total: 5 })
  })

  test('minOrderAmount compares with the items subtotal: equal qualifies, below is 400 below_minimum', async () => {
    const { store, cat } = shop()
    // Items 34.00 + shipping 5.00; the minimum ignores shipping.
    addDiscount(t.deps, store.id, { type: 'fixed', value: 100, code: 'MIN34', minOrderAmount: 3400 })
    addDiscount(t.deps, store.id, { type: 'fixed', value: 100, code: 'MIN35', minOrderAmount: 3500 })
    const [ok, okBody] = await post(
      orderBody(store.id, cat, { shippingOptionId: cat.courier.id, discountCode: 'MIN34' }),
    )
    expectStatus(ok, okBody).toBe(201)
    const [res, body] = await post(
      orderBody(store.id, cat, { shippingOptionId: cat.courier.id, discountCode: 'MIN35' }),
    )
    expectStatus(res, body).toBe(400)
    expect(body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'discountCode', reason: 'below_minimum', minOrderAmount: 35 },
    })
  })

  test('a productId line works for a product whose variants are all inactive', async () => {
    const { store, cat } = shop()
    const p = addProduct(t.deps, store.id, { price: 700 })
    addVariant(t.deps, p.id, { isActive: false })
    const [res, body] = await post(orderBody(store.id, cat, { items: [{ productId: p.id, quantity: 1 }] }))
    expectStatus(res, body).toBe(201)
  })

  test('the phone is stored as E.164', async () => {
    const { store, key, cat } = shop()
    const [, body] = await post(orderBody(store.id, cat, { phone: '+1 (415) 555-2671' }))
    const [, detail] = await t.api.get(`/api/v1/orders/${body.id}`, { key })
    expect(detail.data.customerPhone).toBe('+14155552671')
  })
})

describe('customers', () => {
  test('one per (store, E.164 phone): a later order keeps the name and address; counters, dates follow', async () => {
    const { store, key, cat } = shop()
    const start = clock.now()
    await post(
      orderBody(store.id, cat, {
        phone: '+14155552671',
        name: 'Ana',
        address: 'Calle 1',
        items: [{ productId: cat.mug.id, quantity: 1 }],
      }),
    )
    clock.advance(60_000)
    const [res, body] = await post(
      orderBody(store.id, cat, {
        phone: '+1 415-555-2671',
        name: 'Ana María',
        address: undefined,
        items: [{ productId: cat.mug.id, quantity: 2 }],
      }),
    )
    expectStatus(res, body).toBe(201)
    const [, list] = await t.api.get('/api/v1/customers', { key })
    expect(list.total).toBe(1)
    expect(list.data[0]).toMatchObject({
      name: 'Ana',
      phone: '+14155552671',
      address: 'Calle 1',
      ordersCount: 2,
      totalSpent: 30,
      firstOrderAt: new Date(start).toISOString(),
      lastOrderAt: new Date(start + 60_000).toISOString(),
    })
    const [, other] = await post(orderBody(store.id, cat, { phone: '+14155552672' }))
    expect(other.id).toBeString()
    expect(sqlOne('SELECT count(*) FROM customers WHERE store_id = ?', store.id)).toBe(2)
  })
})

describe('order of checks', () => {
  test('429 (per IP) comes before 400', async () => {
    const t2 = makeApp({ rateLimitOrders: 2 }, { clock: windowStartClock() })
    try {
      for (let i = 0; i < 2; i++) {
        const [res] = await t2.api.post('/api/orders', { nonsense: true })
        expect(res.status).toBe(400)
      }
      const [res, body] = await t2.api.post('/api/orders', { nonsense: true })
      expectStatus(res, body).toBe(429)
      expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    } finally {
      t2.close()
    }
  })

  test('400 body → 402 suspended → 404 unknown / unpublished / maintenance → 400 references', async () => {
    const suspended = shop()
    suspendStore({ ctx: { db: t.deps.db, clock }, input: { storeId: suspended.store.id, reason: 'unpaid' } })
    t.deps.cache.clear()
    // A bad body is 400 even for a suspended store.
    const [r1, b1] = await post({ ...orderBody(suspended.store.id, suspended.cat), items: [] })
    expectStatus(r1, b1).toBe(400)
    expect(b1.details).toEqual({ field: 'items', reason: 'out_of_range' })
    // A well-formed body for a suspended store is 402, even with bad references or unpublished.
    t.deps.db.$client.run('UPDATE stores SET is_published = 0 WHERE id = ?', [suspended.store.id])
    const [r2, b2] = await post({
      ...orderBody(suspended.store.id, suspended.cat),
      items: [{ variantId: 'nope', quantity: 1 }],
    })
    expectStatus(r2, b2).toBe(402)
    expect(b2).toEqual({
      error: 'payment_required',
      message: expect.any(String),
      state: 'suspended',
      upgradeUrl: t.config.upgradeUrl,
    })

    const [r3, b3] = await post({
      ...orderBody('no-such-store', suspended.cat),
      items: [{ variantId: 'nope', quantity: 1 }],
    })
    expectStatus(r3, b3).toBe(404)
    expect(b3.code).toBe('NOT_FOUND')

    for (const column of ['is_published = 0', 'is_maintenance = 1']) {
      const s = shop()
      t.deps.db.$client.run(`UPDATE stores SET ${column} WHERE id = ?`, [s.store.id])
      const [res, body] = await post(orderBody(s.store.id, s.cat))
      expectStatus(res, body).toBe(404)
    }

    const live = shop()
    const [r4, b4] = await post({ ...orderBody(live.store.id, live.cat), items: [{ variantId: 'nope', quantity: 1 }] })
    expectStatus(r4, b4).toBe(400)
    expect(b4.details).toEqual({ field: 'items[0].variantId', reason: 'not_found' })
  })
})

describe('400 body', () => {
  const cases: [string, (b: Record<string, unknown>) => unknown, { field: string; reason: string }][] = [
    ['missing name', ({ name: _, ...b }) => b, { field: 'name', reason: 'required' }],
    ['blank name', (b) => ({ ...b, name: '   ' }), { field: 'name', reason: 'required' }],
    ['name too long', (b) => ({ ...b, name: 'x'.repeat(201) }), { field: 'name', reason: 'out_of_range' }],
    ['missing phone', ({ phone: _, ...b }) => b, { field: 'phone', reason: 'required' }],
    ['invalid phone', (b) => ({ ...b, phone: '+1 123' }), { field: 'phone', reason: 'invalid_format' }],
    ['letters as phone', (b) => ({ ...b, phone: 'call me' }), { field: 'phone', reason: 'invalid_format' }],
    ['missing storeId', ({ storeId: _, ...b }) => b, { field: 'storeId', reason: 'required' }],
    ['no items', (b) => ({ ...b, items: [] }), { field: 'items', reason: 'out_of_range' }],
    [
      '101 items',
      (b) => ({ ...b, items: Array.from({ length: 101 }, () => ({ variantId: 'v', quantity: 1 })) }),
      { field: 'items', reason: 'out_of_range' },
    ],
    [
      'quantity 0',
      (b) => ({ ...b, items: [{ variantId: 'v', quantity: 0 }] }),
      { field: 'items[0].quantity', reason: 'out_of_range' },
    ],
    [
      'quantity 10001',
      (b) => ({ ...b, items: [{ variantId: 'v', quantity: 10_001 }] }),
      { field: 'items[0].quantity', reason: 'out_of_range' },
    ],
    [
      'fractional quantity',
      (b) => ({ ...b, items: [{ variantId: 'v', quantity: 1.5 }] }),
      { field: 'items[0].quantity', reason: 'invalid_type' },
    ],
    [
      'missing quantity',
      (b) => ({ ...b, items: [{ variantId: 'v' }] }),
      { field: 'items[0].quantity', reason: 'required' },
    ],
    ['neither id', (b) => ({ ...b, items: [{ quantity: 1 }] }), { field: 'items[0].variantId', reason: 'required' }],
    [
      'both ids',
      (b) => ({ ...b, items: [{ variantId: 'v', productId: 'p', quantity: 1 }] }),
      { field: 'items[0].productId', reason: 'not_allowed' },
    ],
    ['notes too long', (b) => ({ ...b, notes: 'x'.repeat(2001) }), { field: 'notes', reason: 'out_of_range' }],
  ]
  test.each(cases)('%s', async (_name, mutate, details) => {
    const { store, cat } = shop()
    const before = footprint(store.id)
    const [res, body] = await post(mutate(orderBody(store.id, cat) as unknown as Record<string, unknown>))
    expectStatus(res, body).toBe(400)
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details })
    expect(footprint(store.id)).toEqual(before)
  })

  test('malformed JSON', async () => {
    const [res, body] = await t.api.post('/api/orders', undefined, { raw: '{"storeId":' })
    expectStatus(res, body).toBe(400)
    expect(body.code).toBe('VALIDATION_ERROR')
  })
})

describe('400 references (nothing written)', () => {
  test(
    'variants, products, shipping options and discounts that are unknown, foreign, inactive, deleted, ' +
      'expired or exhausted',
    async () => {
      const { store, cat } = shop()
      const other = shop()
      const inactiveVariant = addVariant(t.deps, cat.shirt.id, { isActive: false })
      const inactiveProduct = addProduct(t.deps, store.id, { isActive: false })
      const inactiveProductVariant = addVariant(t.deps, inactiveProduct.id)
      const inactiveSimple = addProduct(t.deps, store.id, { isActive: false })
      const deleted = addProduct(t.deps, store.id, { deletedAt: clock.now() })
      const deletedVariant = addVariant(t.deps, deleted.id)
      const offShipping = addShipping(t.deps, store.id, { isActive: false })
      addDiscount(t.deps, store.id, { code: 'OFF', isActive: false })
      addDiscount(t.deps, store.id, { code: 'OLD', expiresAt: clock.now() })
      addDiscount(t.deps, store.id, { code: 'USED', maxUses: 2, usedCount: 2 })
      addDiscount(t.deps, other.store.id, { code: 'THEIRS' })

      const line = (l: Record<string, unknown>) => ({
        items: [
          { productId: cat.mug.id, quantity: 1 },
          { ...l, quantity: 1 },
        ],
      })
      const cases: [Record<string, unknown>, string, string][] = [
        [line({ variantId: 'unknown' }), 'items[1].variantId', 'not_found'],
        [line({ variantId: other.cat.large.id }), 'items[1].variantId', 'not_found'],
        [line({ variantId: inactiveVariant.id }), 'items[1].variantId', 'inactive'],
        [line({ variantId: inactiveProductVariant.id }), 'items[1].variantId', 'inactive'],
        [line({ variantId: deletedVariant.id }), 'items[1].variantId', 'not_found'],
        [line({ productId: 'unknown' }), 'items[1].productId', 'not_found'],
        [line({ productId: other.cat.mug.id }), 'items[1].productId', 'not_found'],
        [line({ productId: inactiveSimple.id }), 'items[1].productId', 'inactive'],
        [line({ productId: deleted.id }), 'items[1].productId', 'not_found'],
        // A product with active variants must be ordered by variant.
        [line({ productId: cat.shirt.id }), 'items[1].variantId', 'required'],
        [{ shippingOptionId: 'unknown' }, 'shippingOptionId', 'not_found'],
        [{ shippingOptionId: other.cat.courier.id }, 'shippingOptionId', 'not_found'],
        [{ shippingOptionId: offShipping.id }, 'shippingOptionId', 'inactive'],
        [{ discountCode: 'NOPE' }, 'discountCode', 'not_found'],
        [{ discountCode: 'THEIRS' }, 'discountCode', 'not_found'],
        [{ discountCode: 'off' }, 'discountCode', 'inactive'],
        [{ discountCode: 'OLD' }, 'discountCode', 'expired'],
        [{ discountCode: 'USED' }, 'discountCode', 'exhausted'],
      ]
      for (const [patch, field, reason] of cases) {
        const before = footprint(store.id)
        const [res, body] = await post({ ...orderBody(store.id, cat), ...patch })
        expectStatus(res, body).toBe(400)
        expect([field, body.code, body.details]).toEqual([field, 'VALIDATION_ERROR', { field, reason }])
        expect(footprint(store.id)).toEqual(before)
      }
    },
  )

  test('a discount expiring later still applies', async () => {
    const { store, cat } = shop()
    addDiscount(t.deps, store.id, { code: 'SOON', expiresAt: clock.now() + 1 })
    const [res, body] = await post(orderBody(store.id, cat, { discountCode: 'SOON' }))
    expectStatus(res, body).toBe(201)
  })
})

describe('duplicates (5-minute window)', () => {
  test(
    'same phone and same multiset of lines → 409 DUPLICATE_ORDER, nothing written; ' +
      'the window ends after 5 minutes',
    async () => {
      const { store, cat } = shop()
      const body = orderBody(store.id, cat, { phone: '+14155550123' })
      const [r1, b1] = await post(body)
      expectStatus(r1, b1).toBe(201)

      const before = footprint(store.id)
      // Same lines in another order, the phone in another format, another name: still the same order.
      const again = { ...body, name: 'Someone', phone: '+1 415 555 0123', items: [...body.items].reverse() }
      const [r2, b2] = await post(again)
      expectStatus(r2, b2).toBe(409)
      expect(b2.code).toBe('DUPLICATE_ORDER')
      expect(footprint(store.id)).toEqual(before)

      // Not duplicates: another quantity, another phone. The same item split over two lines is the
      // same order as one line with the sum.
      const [r3] = await post({
        ...body,
        items: [
          { variantId: cat.large.id, quantity: 3 },
          { productId: cat.mug.id, quantity: 1 },
        ],
      })
      expect(r3.status).toBe(201)
      const [rSplit, bSplit] = await post({
        ...body,
        items: [
          { variantId: cat.large.id, quantity: 1 },
          { productId: cat.mug.id, quantity: 1 },
          { variantId: cat.large.id, quantity: 2 },
        ],
      })
      expect(rSplit.status).toBe(409)
      expect(bSplit.code).toBe('DUPLICATE_ORDER')
      const [r4] = await post({ ...body, phone: '+14155550124' })
      expect(r4.status).toBe(201)

      clock.advance(5 * 60_000 - 1)
      const [r6] = await post(body)
      expect(r6.status).toBe(409)
      clock.advance(1)
      const [r7, b7] = await post(body)
      expectStatus(r7, b7).toBe(201)
    },
  )
})

describe('Idempotency-Key', () => {
  test(
    'same key and body → the first 201 replayed with Idempotent-Replayed; ' +
      'another body → 409 IDEMPOTENCY_KEY_REUSED',
    async () => {
      const { store, cat } = shop()
      const body = orderBody(store.id, cat)
      const [r1, b1] = await post(body, { 'idempotency-key': 'k-1' })
      expectStatus(r1, b1).toBe(201)
      expect(r1.headers.get('idempotent-replayed')).toBeNull()
      const before = footprint(store.id)

      // The same body with its keys in another order is the same request; a replay is not a duplicate.
      const reordered = Object.fromEntries(Object.entries(body).reverse())
      const [r2, b2] = await post(reordered, { 'idempotency-key': 'k-1' })
      expectStatus(r2, b2).toBe(201)
      expect(r2.headers.get('idempotent-replayed')).toBe('true')
      expect(b2).toEqual(b1)
      expect(footprint(store.id)).toEqual(before)

      const [r3, b3] = await post({ ...body, notes: 'changed' }, { 'idempotency-key': 'k-1' })
      expectStatus(r3, b3).toBe(409)
      expect(b3.code).toBe('IDEMPOTENCY_KEY_REUSED')

      // Without the key the same post is a duplicate.
      const [r4, b4] = await post(body)
      expectStatus(r4, b4).toBe(409)
      expect(b4.code).toBe('DUPLICATE_ORDER')
    },
  )

  test('keys are per store, error answers are not stored, and records expire after 24 h', async () => {
    const a = shop()
    const b = shop()
    const [ra] = await post(orderBody(a.store.id, a.cat), { 'idempotency-key': 'shared' })
    const [rb, bb] = await post(orderBody(b.store.id, b.cat), { 'idempotency-key': 'shared' })
    expect(ra.status).toBe(201)
    expectStatus(rb, bb).toBe(201)
    expect(rb.headers.get('idempotent-replayed')).toBeNull()

    const body = orderBody(a.store.id, a.cat, { discountCode: 'LATER' })
    const [e1, eb1] = await post(body, { 'idempotency-key': 'retry-me' })
    expectStatus(e1, eb1).toBe(400)
    addDiscount(t.deps, a.store.id, { code: 'LATER' })
    const [e2, eb2] = await post(body, { 'idempotency-key': 'retry-me' })
    expectStatus(e2, eb2).toBe(201)
    expect(e2.headers.get('idempotent-replayed')).toBeNull()

    clock.advance(24 * 3_600_000 + 1)
    const [e3, eb3] = await post({ ...body, notes: 'a day later' }, { 'idempotency-key': 'retry-me' })
    expectStatus(e3, eb3).toBe(201)
    expect(eb3.id).not.toBe(eb2.id)
  })

  test('a key over 255 characters is 400 naming Idempotency-Key', async () => {
    const { store, cat } = shop()
    const [res, body] = await post(orderBody(store.id, cat), { 'idempotency-key': 'k'.repeat(256) })
    expectStatus(res, body).toBe(400)
    expect(body.details).toEqual({ field: 'Idempotency-Key', reason: 'out_of_range' })
    const [ok] = await post(orderBody(store.id, cat), { 'idempotency-key': 'k'.repeat(255) })
    expect(ok.status).toBe(201)
  })
})

describe('webhook outbox', () => {
  test(
    'order.created rows commit with the order; the body, rendered at the move, is the order as created; ' +
      'onOutbox is called after',
    async () => {
      const { store, key, cat } = shop()
      const hook = addWebhook(store.id)
      addWebhook(store.id, ['review.created'])
      const calls: string[] = []
      const original = t.deps.onOutbox
      t.deps.onOutbox = (id) => calls.push(id)
      try {
        const [res, body] = await post(orderBody(store.id, cat, { shippingOptionId: cat.courier.id }))
        expectStatus(res, body).toBe(201)
        // In the outbox (onOutbox is replaced here, so nothing moves it): it names the order; the
        // checkout neither builds nor stores the body.
        const rows = t.deps.db.$client
          .query<{ webhook_id: string; event_type: string; payload: string | null; subject_id: string }, [string]>(
            'SELECT * FROM webhook_outbox WHERE store_id = ?',
          )
          .all(store.id)
        expect(rows.map((r) => [r.webhook_id, r.event_type, r.payload, r.subject_id])).toEqual([
          [hook, 'order.created', null, body.id],
        ])
        expect(calls).toEqual([store.id])
        const [, created] = await t.api.get(`/api/v1/orders/${body.id}`, { key })

        // The order moves on before the event is sent: the event still shows it as created.
        clock.advance(60_000)
        const [moved] = await t.api.put(`/api/v1/orders/${body.id}/status`, { status: 'confirmed' }, { key })
        expect(moved.status).toBe(200)
        drainOutbox(t.deps.db.$client)
        const delivery = t.deps.db.$client
          .query<{ payload: string; created_at: number }, [string, string]>(
            'SELECT payload, created_at FROM webhook_deliveries WHERE webhook_id = ? AND event_type = ?',
          )
          .get(hook, 'order.created')!
        expect(JSON.parse(delivery.payload)).toEqual({
          type: 'order.created',
          event: 'order.created',
          timestamp: created.data.createdAt,
          storeId: store.id,
          data: created.data,
        })
        expect(created.data.status).toBe('pending')
        expect(delivery.created_at).toBe(Date.parse(created.data.createdAt))

        // A rejected order writes no event and wakes nobody.
        expect(calls).toEqual([store.id, store.id]) // order.created, then the order.updated of the move
        const [r2] = await post(orderBody(store.id, cat, { shippingOptionId: 'nope' }))
        expect(r2.status).toBe(400)
        expect(sqlOne('SELECT count(*) FROM webhook_outbox WHERE store_id = ?', store.id)).toBe(0)
        expect(calls).toEqual([store.id, store.id])
      } finally {
        t.deps.onOutbox = original
      }
    },
  )
})
