/** GET / PUT /api/v1/store: fields, partial update, validation, 409s, plan independence. */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { makeDiscount, makeShipping } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'

const clock = fixedClock(Date.UTC(2026, 2, 1, 12))
const t = appForFile({}, { clock })

const STORE_FIELDS = [
  'id',
  'name',
  'slug',
  'whatsappNumber',
  'currency',
  'whatsappTemplate',
  'description',
  'language',
  'isPublished',
  'isMaintenance',
  'pendingOrderTtlHours',
  'showStockCount',
  'timezone',
  'plan',
  'status',
  'productCount',
  'categoryCount',
  'orderCount',
  'createdAt',
  'updatedAt',
]

describe('GET /api/v1/store', () => {
  test('returns exactly the documented fields, on the free plan too', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'free', description: 'Mugs and more' })
    const [res, body] = await t.api.get('/api/v1/store', { key })
    expectStatus(res, body).toBe(200)
    expect(Object.keys(body.data).sort()).toEqual([...STORE_FIELDS].sort())
    expect(body.data).toMatchObject({
      id: store.id,
      name: store.name,
      slug: store.slug,
      whatsappNumber: '+14155550100',
      currency: 'USD',
      whatsappTemplate: null,
      description: 'Mugs and more',
      language: 'en',
      isPublished: true,
      isMaintenance: false,
      plan: 'free',
      status: 'active',
      createdAt: new Date(clock.now()).toISOString(),
    })
  })
})

describe('PUT /api/v1/store', () => {
  test('is partial: only the given fields change, updatedAt moves, the next GET shows it', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    const [, before] = await t.api.get('/api/v1/store', { key })
    clock.advance(5000)
    const [res, body] = await t.api.put('/api/v1/store', { name: 'New Name', description: 'Fresh' }, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({
      ...before.data,
      name: 'New Name',
      description: 'Fresh',
      updatedAt: new Date(clock.now()).toISOString(),
    })
    const [, after] = await t.api.get('/api/v1/store', { key })
    expect(after.data).toEqual(body.data)
  })

  test('an empty body changes nothing', async () => {
    const { key } = makeShop(t.deps)
    const [, before] = await t.api.get('/api/v1/store', { key })
    clock.advance(1000)
    const [res, body] = await t.api.put('/api/v1/store', {}, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual(before.data)
  })

  test('plan, status, id and unknown fields are ignored', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'free' })
    const [res, body] = await t.api.put(
      '/api/v1/store',
      { plan: 'lifetime', status: 'suspended', id: 'hacked', orderSeq: 99, name: 'Still free' },
      { key },
    )
    expectStatus(res, body).toBe(200)
    expect(body.data).toMatchObject({ id: store.id, plan: 'free', status: 'active', name: 'Still free' })
    const row = t.deps.db.$client
      .query<{ plan: string; status: string; order_seq: number }, [string]>(
        'SELECT plan, status, order_seq FROM stores WHERE id = ?',
      )
      .get(store.id)!
    expect(row).toEqual({ plan: 'free', status: 'active', order_seq: 0 })
  })

  test('isPublished and isMaintenance toggle', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.put('/api/v1/store', { isPublished: false, isMaintenance: true }, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toMatchObject({ isPublished: false, isMaintenance: true })
    const [res2, body2] = await t.api.put('/api/v1/store', { isPublished: 'yes' }, { key })
    expectStatus(res2, body2).toBe(400)
    expect(body2.details).toMatchObject({ field: 'isPublished', reason: 'invalid_type' })
  })

  describe('slug', () => {
    test('changes to a free slug', async () => {
      const { key } = makeShop(t.deps)
      const slug = uniq('renamed').toLowerCase()
      const [res, body] = await t.api.put('/api/v1/store', { slug }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.slug).toBe(slug)
    })

    test("another store's slug → 409 DUPLICATE_SLUG, nothing else changes", async () => {
      const a = makeShop(t.deps)
      const b = makeShop(t.deps)
      const [res, body] = await t.api.put(
        '/api/v1/store',
        { slug: a.store.slug, name: 'Should not stick' },
        { key: b.key },
      )
      expectStatus(res, body).toBe(409)
      expect(body.code).toBe('DUPLICATE_SLUG')
      expect(body.details).toMatchObject({ field: 'slug' })
      const [, after] = await t.api.get('/api/v1/store', { key: b.key })
      expect(after.data).toMatchObject({ slug: b.store.slug, name: b.store.name })
    })

    test('its own current slug is fine', async () => {
      const { store, key } = makeShop(t.deps)
      const [res, body] = await t.api.put('/api/v1/store', { slug: store.slug }, { key })
      expectStatus(res, body).toBe(200)
    })

    test('concurrent renames to the same slug: exactly one wins', async () => {
      const shops = Array.from({ length: 5 }, () => makeShop(t.deps))
      const slug = uniq('race').toLowerCase()
      const results = await Promise.all(shops.map((s) => t.api.put('/api/v1/store', { slug }, { key: s.key })))
      expect(results.map(([r]) => r.status).sort()).toEqual([200, 409, 409, 409, 409])
    })

    for (const bad of ['Bad Slug', 'UPPER', 'a--b', '-lead', 'trail-', 'under_score']) {
      test(`ill-formed '${bad}' → 400 on slug`, async () => {
        const { key } = makeShop(t.deps)
        const [res, body] = await t.api.put('/api/v1/store', { slug: bad }, { key })
        expectStatus(res, body).toBe(400)
        expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'slug', reason: 'invalid_format' } })
      })
    }
    test('too short or too long → 400 on slug', async () => {
      const { key } = makeShop(t.deps)
      for (const slug of ['ab', 'a'.repeat(51)]) {
        const [res, body] = await t.api.put('/api/v1/store', { slug }, { key })
        expectStatus(res, body).toBe(400)
        expect(body.details.field).toBe('slug')
      }
    })
  })

  describe('whatsappNumber', () => {
    test('stored and returned as E.164', async () => {
      const { key } = makeShop(t.deps)
      const [res, body] = await t.api.put('/api/v1/store', { whatsappNumber: '+44 20 7946 0958' }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.whatsappNumber).toBe('+442079460958')
    })
    test('null clears it', async () => {
      const { key } = makeShop(t.deps)
      const [res, body] = await t.api.put('/api/v1/store', { whatsappNumber: null }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.whatsappNumber).toBeNull()
    })
    for (const bad of ['12345', 'not a phone', '+1 555', '0044207946']) {
      test(`'${bad}' → 400 on whatsappNumber`, async () => {
        const { key } = makeShop(t.deps)
        const [res, body] = await t.api.put('/api/v1/store', { whatsappNumber: bad }, { key })
        expectStatus(res, body).toBe(400)
        expect(body.details).toMatchObject({ field: 'whatsappNumber', reason: 'invalid_format' })
      })
    }
    test('wrong type → 400 invalid_type', async () => {
      const { key } = makeShop(t.deps)
      const [res, body] = await t.api.put('/api/v1/store', { whatsappNumber: 14155550100 }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.details).toMatchObject({ field: 'whatsappNumber', reason: 'invalid_type' })
    })
  })

  describe('currency', () => {
    test('a store without priced records can change it (lower case accepted, stored upper)', async () => {
      const { store, key } = makeShop(t.deps)
      makeDiscount(t.deps, store.id, { type: 'percentage', value: 10 }) // percent without minimum: no money
      const [res, body] = await t.api.put('/api/v1/store', { currency: 'eur' }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.currency).toBe('EUR')
    })

    for (const bad of ['XYZ', 'US', 'USDX', '123']) {
      test(`'${bad}' → 400 on currency`, async () => {
        const { key } = makeShop(t.deps)
        const [res, body] = await t.api.put('/api/v1/store', { currency: bad }, { key })
        expectStatus(res, body).toBe(400)
        expect(body.details.field).toBe('currency')
      })
    }

    const lockers: [string, (storeId: string, key: string) => Promise<void> | void][] = [
      [
        'a product',
        async (_id, key) => void (await t.api.post('/api/v1/products', { name: 'Mug', price: 10 }, { key })),
      ],
      ['a shipping option', (id) => void makeShipping(t.deps, id)],
      ['a fixed discount', (id) => void makeDiscount(t.deps, id, { type: 'fixed', value: 500 })],
      [
        'a percentage discount with a minimum order',
        (id) => void makeDiscount(t.deps, id, { type: 'percentage', value: 5, minOrderAmount: 2000 }),
      ],
      [
        'an order',
        (id) =>
          void t.deps.db.$client.run(
            'INSERT INTO orders (id, store_id, order_number, customer_name, customer_phone, currency, ' +
              'items_subtotal, total, dedup_hash, created_at, updated_at) ' +
              "VALUES (?, ?, 'ORD-000001', 'Ann', '+14155550101', 'USD', 100, 100, 'h', ?, ?)",
            [uniq('o'), id, clock.now(), clock.now()],
          ),
      ],
    ]
    for (const [what, add] of lockers) {
      test(`locked once the store has ${what} → 409 CURRENCY_LOCKED`, async () => {
        const { store, key } = makeShop(t.deps)
        await add(store.id, key)
        const [res, body] = await t.api.put('/api/v1/store', { currency: 'JPY', name: 'Not applied' }, { key })
        expectStatus(res, body).toBe(409)
        expect(body).toMatchObject({ code: 'CURRENCY_LOCKED', details: { field: 'currency', currency: 'USD' } })
        const [, after] = await t.api.get('/api/v1/store', { key })
        expect(after.data).toMatchObject({ currency: 'USD', name: store.name })
        // Re-stating the current currency is not a change.
        const [res2, body2] = await t.api.put('/api/v1/store', { currency: 'usd' }, { key })
        expectStatus(res2, body2).toBe(200)
      })
    }

    test('a soft-deleted product no longer locks it', async () => {
      const { key } = makeShop(t.deps)
      const [, created] = await t.api.post('/api/v1/products', { name: 'Mug', price: 10 }, { key })
      await t.api.delete(`/api/v1/products/${created.data.id}`, { key })
      const [res, body] = await t.api.put('/api/v1/store', { currency: 'GBP' }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.currency).toBe('GBP')
    })
  })

  describe('whatsappTemplate', () => {
    test('known shortcodes are saved; null resets to the default', async () => {
      const { key } = makeShop(t.deps)
      const template = 'Hi {tienda}! {nombre} orders:\n{productos}\nTotal {total}'
      const [res, body] = await t.api.put('/api/v1/store', { whatsappTemplate: template }, { key })
      expectStatus(res, body).toBe(200)
      expect(body.data.whatsappTemplate).toBe(template)
      const [, reset] = await t.api.put('/api/v1/store', { whatsappTemplate: null }, { key })
      expect(reset.data.whatsappTemplate).toBeNull()
    })

    test('unknown shortcodes → 400 invalid_format naming them', async () => {
      const { key } = makeShop(t.deps)
      const [res, body] = await t.api.put(
        '/api/v1/store',
        { whatsappTemplate: 'Hola {tienda}, precio {precio} {Total}' },
        { key },
      )
      expectStatus(res, body).toBe(400)
      expect(body).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: { field: 'whatsappTemplate', reason: 'invalid_format', shortcodes: ['{precio}', '{Total}'] },
      })
      expect(body.error).toContain('{precio}')
      expect(body.error).toContain('{Total}')
    })

    test('longer than 1000 characters → 400 out_of_range', async () => {
      const { key } = makeShop(t.deps)
      const [res, body] = await t.api.put('/api/v1/store', { whatsappTemplate: 'x'.repeat(1001) }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.details).toMatchObject({ field: 'whatsappTemplate', reason: 'out_of_range' })
    })
  })

  test('name: blank → 400 required, too long → 400 out_of_range', async () => {
    const { key } = makeShop(t.deps)
    const [r1, b1] = await t.api.put('/api/v1/store', { name: '   ' }, { key })
    expectStatus(r1, b1).toBe(400)
    expect(b1.details).toMatchObject({ field: 'name', reason: 'required' })
    const [r2, b2] = await t.api.put('/api/v1/store', { name: 'n'.repeat(201) }, { key })
    expectStatus(r2, b2).toBe(400)
    expect(b2.details).toMatchObject({ field: 'name', reason: 'out_of_range' })
  })

  test('malformed JSON → 400', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.put('/api/v1/store', undefined, { key, raw: '{nope' })
    expectStatus(res, body).toBe(400)
    expect(body.code).toBe('VALIDATION_ERROR')
  })

  test('a key with only store:read cannot write; store:write alone cannot read', async () => {
    const { makeKey } = await import('../helpers/factories')
    const { store } = makeShop(t.deps)
    const reader = makeKey(t.deps, store.id, ['store:read'])
    const writer = makeKey(t.deps, store.id, ['store:write'])
    expect((await t.api.put('/api/v1/store', { name: 'x' }, { key: reader }))[0].status).toBe(403)
    expect((await t.api.get('/api/v1/store', { key: writer }))[0].status).toBe(403)
    expect((await t.api.get('/api/v1/store', { key: reader }))[0].status).toBe(200)
    expect((await t.api.put('/api/v1/store', { name: 'x' }, { key: writer }))[0].status).toBe(200)
  })
})
