/** /api/v1/discounts: fields, value rules per type, unique codes ignoring case, list, hard delete. */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { makeDiscount, uniqCode } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { orders } from '../../src/db/schema'

const clock = fixedClock(Date.UTC(2026, 3, 1, 9))
const t = appForFile({}, { clock })

const FIELDS = [
  'id',
  'code',
  'type',
  'value',
  'minOrderAmount',
  'maxUses',
  'usedCount',
  'expiresAt',
  'isActive',
  'createdAt',
  'updatedAt',
]
const stored = (id: string) =>
  t.deps.db.$client
    .query<{ value: number; code_key: string; min_order_amount: number | null; used_count: number }, [string]>(
      'SELECT value, code_key, min_order_amount, used_count FROM discounts WHERE id = ?',
    )
    .get(id)!

describe('POST /api/v1/discounts', () => {
  test('creates a percentage discount on the free plan, with every contract field', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    const code = uniqCode()
    const [res, body] = await t.api.post(
      '/api/v1/discounts',
      { code, type: 'percentage', value: 12.5, minOrderAmount: 20, maxUses: 100, expiresAt: '2026-12-31T23:59:59Z' },
      { key },
    )
    expectStatus(res, body).toBe(201)
    expect(Object.keys(body.data).sort()).toEqual([...FIELDS].sort())
    expect(body.data).toMatchObject({
      code,
      type: 'percentage',
      value: 12.5,
      minOrderAmount: 20,
      maxUses: 100,
      usedCount: 0,
      expiresAt: '2026-12-31T23:59:59.000Z',
      isActive: true,
      createdAt: new Date(clock.now()).toISOString(),
    })
    // Hundredths of a percent and minor units inside; the key is upper-cased.
    expect(stored(body.data.id)).toEqual({
      value: 1250,
      code_key: code.toUpperCase(),
      min_order_amount: 2000,
      used_count: 0,
    })
  })

  test('creates a fixed discount in minor units of the store currency', async () => {
    const usd = makeShop(t.deps)
    const [r1, b1] = await t.api.post(
      '/api/v1/discounts',
      { code: uniqCode(), type: 'fixed', value: 5.5 },
      { key: usd.key },
    )
    expectStatus(r1, b1).toBe(201)
    expect(b1.data.value).toBe(5.5)
    expect(stored(b1.data.id).value).toBe(550)

    const jpy = makeShop(t.deps, { currency: 'JPY' })
    const [r2, b2] = await t.api.post(
      '/api/v1/discounts',
      { code: uniqCode(), type: 'fixed', value: 500 },
      { key: jpy.key },
    )
    expectStatus(r2, b2).toBe(201)
    expect(stored(b2.data.id).value).toBe(500)
    const [r3, b3] = await t.api.post(
      '/api/v1/discounts',
      { code: uniqCode(), type: 'fixed', value: 5.5 },
      { key: jpy.key },
    )
    expectStatus(r3, b3).toBe(400)
    expect(b3.details).toMatchObject({ field: 'value', reason: 'invalid_format' })
  })

  test('percentage: 100 and 0.01 are fine; 0, negatives, above 100 and 3 decimals are 400 on value', async () => {
    const { key } = makeShop(t.deps)
    for (const value of [100, 0.01, 33.33]) {
      const [res, body] = await t.api.post(
        '/api/v1/discounts',
        { code: uniqCode(), type: 'percentage', value },
        { key },
      )
      expectStatus(res, body).toBe(201)
      expect(body.data.value).toBe(value)
    }
    const bad: [number, string][] = [
      [0, 'out_of_range'],
      [-5, 'out_of_range'],
      [100.01, 'out_of_range'],
      [150, 'out_of_range'],
      [12.345, 'invalid_format'],
    ]
    for (const [value, reason] of bad) {
      const [res, body] = await t.api.post(
        '/api/v1/discounts',
        { code: uniqCode(), type: 'percentage', value },
        { key },
      )
      expectStatus(res, body).toBe(400)
      expect(body.details).toEqual({ field: 'value', reason })
    }
  })

  test('fixed: must be more than 0 and fit the currency decimals', async () => {
    const { key } = makeShop(t.deps)
    for (const [value, reason] of [
      [0, 'out_of_range'],
      [-1, 'out_of_range'],
      [0.001, 'invalid_format'],
    ] as const) {
      const [res, body] = await t.api.post('/api/v1/discounts', { code: uniqCode(), type: 'fixed', value }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.details).toMatchObject({ field: 'value', reason })
    }
  })

  test('required fields and formats', async () => {
    const { key } = makeShop(t.deps)
    const cases: [Record<string, unknown>, string, string][] = [
      [{ type: 'percentage', value: 10 }, 'code', 'required'],
      [{ code: uniqCode(), value: 10 }, 'type', 'required'],
      [{ code: uniqCode(), type: 'percentage' }, 'value', 'required'],
      [{ code: 'has space', type: 'percentage', value: 10 }, 'code', 'invalid_format'],
      [{ code: 'ÑOÑO', type: 'percentage', value: 10 }, 'code', 'invalid_format'],
      [{ code: 'A', type: 'percentage', value: 10 }, 'code', 'out_of_range'],
      [{ code: 'A'.repeat(41), type: 'percentage', value: 10 }, 'code', 'out_of_range'],
      [{ code: uniqCode(), type: 'bogus', value: 10 }, 'type', 'invalid_format'],
      [{ code: uniqCode(), type: 'percentage', value: '10' }, 'value', 'invalid_type'],
      [{ code: uniqCode(), type: 'percentage', value: 10, maxUses: 0 }, 'maxUses', 'out_of_range'],
      [{ code: uniqCode(), type: 'percentage', value: 10, minOrderAmount: -1 }, 'minOrderAmount', 'out_of_range'],
      [{ code: uniqCode(), type: 'percentage', value: 10, minOrderAmount: 1.234 }, 'minOrderAmount', 'invalid_format'],
      [{ code: uniqCode(), type: 'percentage', value: 10, expiresAt: 'next tuesday' }, 'expiresAt', 'invalid_format'],
    ]
    // A fraction for an integer: the field is named; the reason is left to the shared mapper.
    const [rf, bf] = await t.api.post(
      '/api/v1/discounts',
      { code: uniqCode(), type: 'percentage', value: 10, maxUses: 1.5 },
      { key },
    )
    expectStatus(rf, bf).toBe(400)
    expect(bf.details.field).toBe('maxUses')
    for (const [input, field, reason] of cases) {
      const [res, body] = await t.api.post('/api/v1/discounts', input, { key })
      expect({ input, status: res.status }).toEqual({ input, status: 400 })
      expect({ input, ...body.details }).toEqual({ input, field, reason })
    }
  })

  test('codes are unique per store ignoring case → 409 DUPLICATE_CODE; another store may reuse it', async () => {
    const a = makeShop(t.deps)
    const b = makeShop(t.deps)
    const code = `Summer-${uniq('s').slice(-6)}`
    expect(
      (await t.api.post('/api/v1/discounts', { code, type: 'percentage', value: 10 }, { key: a.key }))[0].status,
    ).toBe(201)
    const [res, body] = await t.api.post(
      '/api/v1/discounts',
      { code: code.toLowerCase(), type: 'fixed', value: 3 },
      { key: a.key },
    )
    expectStatus(res, body).toBe(409)
    expect(body).toMatchObject({ code: 'DUPLICATE_CODE', details: { field: 'code' } })
    const [res2, body2] = await t.api.post(
      '/api/v1/discounts',
      { code: code.toUpperCase(), type: 'percentage', value: 10 },
      { key: b.key },
    )
    expectStatus(res2, body2).toBe(201)
  })

  test('concurrent creates of one code: exactly one 201', async () => {
    const { key } = makeShop(t.deps)
    const code = uniqCode()
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.api.post(
          '/api/v1/discounts',
          { code: i % 2 ? code.toLowerCase() : code, type: 'percentage', value: 5 },
          { key },
        ),
      ),
    )
    expect(results.map(([r]) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
  })

  test('usedCount is read-only', async () => {
    const { key } = makeShop(t.deps)
    const [, body] = await t.api.post(
      '/api/v1/discounts',
      { code: uniqCode(), type: 'percentage', value: 10, usedCount: 7 },
      { key },
    )
    expect(body.data.usedCount).toBe(0)
    const [, upd] = await t.api.put(`/api/v1/discounts/${body.data.id}`, { usedCount: 9 }, { key })
    expect(upd.data.usedCount).toBe(0)
    expect(stored(body.data.id).used_count).toBe(0)
  })
})

describe('PUT /api/v1/discounts/:id', () => {
  test('is partial', async () => {
    const { store, key } = makeShop(t.deps)
    const d = makeDiscount(t.deps, store.id, { type: 'percentage', value: 10, maxUses: 5 })
    clock.advance(1000)
    const [res, body] = await t.api.put(
      `/api/v1/discounts/${d.id}`,
      { isActive: false, expiresAt: '2027-01-01' },
      { key },
    )
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({
      ...d,
      isActive: false,
      expiresAt: '2027-01-01T00:00:00.000Z',
      updatedAt: new Date(clock.now()).toISOString(),
    })
    const [, cleared] = await t.api.put(
      `/api/v1/discounts/${d.id}`,
      { expiresAt: null, maxUses: null, minOrderAmount: null },
      { key },
    )
    expect(cleared.data).toMatchObject({ expiresAt: null, maxUses: null, minOrderAmount: null })
  })

  test('re-checks the value against the resulting type', async () => {
    const { store, key } = makeShop(t.deps)
    const fixed = makeDiscount(t.deps, store.id, { type: 'fixed', value: 15000 })
    const [r1, b1] = await t.api.put(`/api/v1/discounts/${fixed.id}`, { type: 'percentage' }, { key })
    expectStatus(r1, b1).toBe(400)
    expect(b1.details).toEqual({ field: 'value', reason: 'out_of_range' })
    const [r2, b2] = await t.api.put(`/api/v1/discounts/${fixed.id}`, { type: 'percentage', value: 15 }, { key })
    expectStatus(r2, b2).toBe(200)
    expect(b2.data).toMatchObject({ type: 'percentage', value: 15 })
    expect(stored(fixed.id).value).toBe(1500)
    const [r3, b3] = await t.api.put(`/api/v1/discounts/${fixed.id}`, { value: 101 }, { key })
    expectStatus(r3, b3).toBe(400)
    expect(b3.details).toEqual({ field: 'value', reason: 'out_of_range' })
    // Percentage → fixed keeps the number the API shows: 15 % becomes 15.00 off.
    const [r4, b4] = await t.api.put(`/api/v1/discounts/${fixed.id}`, { type: 'fixed' }, { key })
    expectStatus(r4, b4).toBe(200)
    expect(b4.data).toMatchObject({ type: 'fixed', value: 15 })
    expect(stored(fixed.id).value).toBe(1500)
    const [r5, b5] = await t.api.put(`/api/v1/discounts/${fixed.id}`, { value: 2.25 }, { key })
    expectStatus(r5, b5).toBe(200)
    expect(stored(fixed.id).value).toBe(225)
  })

  test("renaming onto another discount's code (any case) → 409; its own code is fine", async () => {
    const { store, key } = makeShop(t.deps)
    const a = makeDiscount(t.deps, store.id)
    const b = makeDiscount(t.deps, store.id)
    const [res, body] = await t.api.put(`/api/v1/discounts/${b.id}`, { code: a.code.toLowerCase() }, { key })
    expectStatus(res, body).toBe(409)
    expect(body.code).toBe('DUPLICATE_CODE')
    const [res2, body2] = await t.api.put(`/api/v1/discounts/${b.id}`, { code: b.code.toLowerCase() }, { key })
    expectStatus(res2, body2).toBe(200)
    expect(body2.data.code).toBe(b.code.toLowerCase())
  })

  test('unknown id → 404', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.put('/api/v1/discounts/nope', { value: 5 }, { key })
    expectStatus(res, body).toBe(404)
    expect(body.code).toBe('NOT_FOUND')
  })
})

describe('GET /api/v1/discounts', () => {
  test('newest first, paginated, filtered by isActive and createdSince/updatedSince', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'free' })
    const start = clock.now()
    const made = []
    for (let i = 0; i < 5; i++) {
      clock.advance(60_000)
      made.push(makeDiscount(t.deps, store.id, { isActive: i % 2 === 0 }))
    }
    const [res, body] = await t.api.get('/api/v1/discounts', { key })
    expectStatus(res, body).toBe(200)
    expect(body.total).toBe(5)
    expect(body.limit).toBe(50)
    expect(body.offset).toBe(0)
    expect(body.data.map((d: { id: string }) => d.id)).toEqual(made.map((d) => d.id).reverse())

    const [, paged] = await t.api.get('/api/v1/discounts?limit=2&offset=1', { key })
    expect(paged).toMatchObject({ total: 5, limit: 2, offset: 1 })
    expect(paged.data.map((d: { id: string }) => d.id)).toEqual([made[3]!.id, made[2]!.id])

    const [, active] = await t.api.get('/api/v1/discounts?isActive=true', { key })
    expect(active.total).toBe(3)
    expect(active.data.every((d: { isActive: boolean }) => d.isActive)).toBe(true)
    const [, inactive] = await t.api.get('/api/v1/discounts?isActive=false', { key })
    expect(inactive.total).toBe(2)

    const since = new Date(start + 3 * 60_000).toISOString()
    const [, recent] = await t.api.get(`/api/v1/discounts?createdSince=${since}`, { key })
    expect(recent.data.map((d: { id: string }) => d.id)).toEqual([made[4]!.id, made[3]!.id, made[2]!.id])

    clock.advance(60_000)
    await t.api.put(`/api/v1/discounts/${made[0]!.id}`, { maxUses: 3 }, { key })
    const [, updated] = await t.api.get(`/api/v1/discounts?updatedSince=${new Date(clock.now()).toISOString()}`, {
      key,
    })
    expect(updated.data.map((d: { id: string }) => d.id)).toEqual([made[0]!.id])
  })

  test('only the caller store’s discounts', async () => {
    const a = makeShop(t.deps)
    const b = makeShop(t.deps)
    makeDiscount(t.deps, b.store.id)
    const [, body] = await t.api.get('/api/v1/discounts', { key: a.key })
    expect(body.total).toBe(0)
  })

  test('bad query → 400 naming the field', async () => {
    const { key } = makeShop(t.deps)
    for (const [q, field] of [
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['offset=-1', 'offset'],
      ['isActive=maybe', 'isActive'],
      ['createdSince=yesterday', 'createdSince'],
    ]) {
      const [res, body] = await t.api.get(`/api/v1/discounts?${q}`, { key })
      expectStatus(res, body).toBe(400)
      expect(body.details.field).toBe(field)
    }
  })

  test('GET by id; unknown → 404', async () => {
    const { store, key } = makeShop(t.deps)
    const d = makeDiscount(t.deps, store.id)
    const [res, body] = await t.api.get(`/api/v1/discounts/${d.id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual(d)
    expect((await t.api.get('/api/v1/discounts/missing', { key }))[0].status).toBe(404)
  })
})

describe('DELETE /api/v1/discounts/:id', () => {
  test('hard-deletes; orders keep their discount snapshot', async () => {
    const { store, key } = makeShop(t.deps)
    const d = makeDiscount(t.deps, store.id, { type: 'fixed', value: 300 })
    const now = clock.now()
    const orderId = uniq('order')
    t.deps.db
      .insert(orders)
      .values({
        id: orderId,
        storeId: store.id,
        orderNumber: 'ORD-000001',
        customerName: 'Ann',
        customerPhone: '+14155550101',
        currency: 'USD',
        itemsSubtotal: 2000,
        discountId: d.id,
        discountCode: d.code,
        discountAmount: 300,
        total: 1700,
        dedupHash: 'x',
        createdAt: now,
        updatedAt: now,
      })
      .run()
    const [res, body] = await t.api.delete(`/api/v1/discounts/${d.id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({ data: { id: d.id, deleted: true } })
    expect(t.deps.db.$client.query('SELECT 1 FROM discounts WHERE id = ?').get(d.id)).toBeNull()
    const order = t.deps.db.$client
      .query('SELECT discount_id, discount_code, discount_amount, total FROM orders WHERE id = ?')
      .get(orderId)
    expect(order).toEqual({ discount_id: null, discount_code: d.code, discount_amount: 300, total: 1700 })
    expect((await t.api.get(`/api/v1/discounts/${d.id}`, { key }))[0].status).toBe(404)
    expect((await t.api.delete(`/api/v1/discounts/${d.id}`, { key }))[0].status).toBe(404)
    // The code is free again.
    expect(
      (await t.api.post('/api/v1/discounts', { code: d.code, type: 'percentage', value: 5 }, { key }))[0].status,
    ).toBe(201)
  })
})
