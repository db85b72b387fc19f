/**
 * The products API over HTTP (docs/api.md: products, variants, errors, limits, plan caps): envelopes and paging,
 * filters, fields and money, validation, slugs, partial updates with variant sync, soft delete, plan caps, body
 * handling, cache freshness and concurrency.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { makeApp, expectStatus, type Json, type TestApp } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { ctxFor } from '../../src/kernel/context'
import { createProduct } from '../../src/modules/products/service'
import { createCategory } from '../../src/modules/categories/service'
import type { Plan, Store } from '../../src/db/schema'

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0, 0)
const clock = fixedClock(T0)
let t: TestApp
beforeAll(() => {
  // A generous per-key limit: this file is about the catalog rules, not rate limiting.
  t = makeApp({ rateLimitKey: 100_000 }, { clock })
})
afterAll(() => t.close())

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const CUID = /^[a-z][a-z0-9]{23}$/
const PRODUCT_KEYS = [
  'id',
  'name',
  'slug',
  'description',
  'price',
  'comparePrice',
  'imageUrl',
  'images',
  'isActive',
  'stock',
  'inStock',
  'categoryId',
  'variants',
  'createdAt',
  'updatedAt',
].sort()

function shop(plan: Plan = 'pro', currency = 'USD') {
  return makeShop(t.deps, { plan, currency })
}
/** Creates through the service, bypassing HTTP (setup only). */
function seed(store: Store, input: Partial<Parameters<typeof createProduct>[0]['input']> = {}) {
  return createProduct({ ctx: ctxFor(t.deps, store), input: { name: uniq('Product'), price: 10, ...input } })
}
const post = (key: string, body: unknown) => t.api.post('/api/v1/products', body, { key })
const row = (id: string) =>
  t.deps.db.$client.query<Record<string, Json>, [string]>('SELECT * FROM products WHERE id = ?').get(id)
const variantRows = (productId: string) =>
  t.deps.db.$client
    .query<Record<string, Json>, [string]>('SELECT * FROM variants WHERE product_id = ? ORDER BY position')
    .all(productId)

function expectValidation(res: Response, body: Json, field: string, reason?: string) {
  expectStatus(res, body).toBe(400)
  expect(body.code).toBe('VALIDATION_ERROR')
  expect(typeof body.error).toBe('string')
  expect(body.details.field).toBe(field)
  if (reason) expect(body.details.reason).toBe(reason)
}

describe('GET /api/v1/products — envelope, paging, order', () => {
  test('list envelope, newest first, total counted before pagination', async () => {
    const { store, key } = shop()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      clock.advance(1000)
      ids.push(seed(store, { name: `Item ${i}` }).id)
    }
    const [res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'offset', 'total'])
    expect(body).toMatchObject({ total: 5, limit: 50, offset: 0 })
    expect(body.data.map((p: Json) => p.id)).toEqual([...ids].reverse())

    const [res2, page] = await t.api.get('/api/v1/products?limit=2&offset=1', { key })
    expectStatus(res2, page).toBe(200)
    expect(page).toMatchObject({ total: 5, limit: 2, offset: 1 })
    expect(page.data.map((p: Json) => p.id)).toEqual([ids[3], ids[2]])

    const [, beyond] = await t.api.get('/api/v1/products?offset=10', { key })
    expect(beyond).toMatchObject({ data: [], total: 5, offset: 10 })
  })

  test('products created in the same millisecond still come newest first', async () => {
    const { store, key } = shop()
    const ids = [seed(store).id, seed(store).id, seed(store).id, seed(store).id]
    const [, body] = await t.api.get('/api/v1/products', { key })
    expect(body.data.map((p: Json) => p.id)).toEqual([...ids].reverse())
  })

  test('default limit is 50 and the maximum is 100', async () => {
    const { store, key } = shop()
    for (let i = 0; i < 105; i++) seed(store)
    const [, def] = await t.api.get('/api/v1/products', { key })
    expect(def.data).toHaveLength(50)
    expect(def).toMatchObject({ total: 105, limit: 50 })
    const [, max] = await t.api.get('/api/v1/products?limit=100', { key })
    expect(max.data).toHaveLength(100)
    expect(max).toMatchObject({ total: 105, limit: 100 })
    const [res, tooMany] = await t.api.get('/api/v1/products?limit=101', { key })
    expectValidation(res, tooMany, 'limit', 'out_of_range')
  })

  test.each([
    ['limit=0', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=abc', 'offset'],
    ['limit=10&offset=-5', 'offset'],
  ])('?%s → 400 naming %s', async (qs, field) => {
    const { key } = shop()
    const [res, body] = await t.api.get(`/api/v1/products?${qs}`, { key })
    expectValidation(res, body, field)
  })

  test('other stores’ products are never listed', async () => {
    const a = shop()
    const b = shop()
    seed(a.store)
    seed(b.store)
    const [, body] = await t.api.get('/api/v1/products?isActive=all', { key: a.key })
    expect(body.total).toBe(1)
    expect(body.data[0].id).not.toBe(undefined)
    expect(row(body.data[0].id)!.store_id).toBe(a.store.id)
  })
})

describe('GET /api/v1/products — filters', () => {
  test('isActive: active only by default, false → inactive only, all → both, invalid → 400', async () => {
    const { store, key } = shop()
    const active = seed(store, { isActive: true })
    const inactive = seed(store, { isActive: false })
    const ids = async (qs: string) => {
      const [res, body] = await t.api.get(`/api/v1/products${qs}`, { key })
      expectStatus(res, body).toBe(200)
      expect(body.total).toBe(body.data.length)
      return body.data.map((p: Json) => p.id).sort()
    }
    expect(await ids('')).toEqual([active.id])
    expect(await ids('?isActive=true')).toEqual([active.id])
    expect(await ids('?isActive=false')).toEqual([inactive.id])
    expect(await ids('?isActive=all')).toEqual([active.id, inactive.id].sort())
    for (const bad of ['yes', '1', 'TRUE', '']) {
      const [res, body] = await t.api.get(`/api/v1/products?isActive=${bad}`, { key })
      expectValidation(res, body, 'isActive')
    }
  })

  test('createdSince / updatedSince are inclusive ISO 8601 bounds', async () => {
    const { store, key } = shop()
    const base = Date.UTC(2026, 5, 1, 0, 0, 0)
    clock.set(base)
    const p1 = seed(store, { name: 'First' })
    clock.set(base + 3_600_000)
    const p2 = seed(store, { name: 'Second' })
    clock.set(base + 7_200_000)
    const p3 = seed(store, { name: 'Third' })
    clock.set(base + 10_800_000)
    const [ur, upd] = await t.api.put(`/api/v1/products/${p1.id}`, { name: 'First again' }, { key })
    expectStatus(ur, upd).toBe(200)
    clock.set(T0)

    const ids = async (qs: string) => {
      const [res, body] = await t.api.get(`/api/v1/products?${qs}`, { key })
      expectStatus(res, body).toBe(200)
      expect(body.total).toBe(body.data.length)
      return body.data.map((p: Json) => p.id)
    }
    expect(await ids('createdSince=2026-06-01T01:00:00.000Z')).toEqual([p3.id, p2.id])
    expect(await ids('createdSince=2026-06-01T01:00:00.001Z')).toEqual([p3.id])
    expect(await ids('createdSince=2026-06-01')).toEqual([p3.id, p2.id, p1.id])
    // No offset means UTC, and an explicit offset is honoured.
    expect(await ids('createdSince=2026-06-01T02:00:00')).toEqual([p3.id])
    expect(await ids(`createdSince=${encodeURIComponent('2026-06-01T02:00:00+01:00')}`)).toEqual([p3.id, p2.id])
    expect(await ids('updatedSince=2026-06-01T02:00:00Z')).toEqual([p3.id, p1.id])
    expect(await ids('updatedSince=2026-06-01T03:00:00Z')).toEqual([p1.id])
    expect(await ids('createdSince=2026-06-01T01:00:00Z&updatedSince=2026-06-01T03:00:00Z')).toEqual([])
  })

  test.each([
    ['createdSince=yesterday', 'createdSince'],
    ['createdSince=2026-02-30', 'createdSince'],
    ['createdSince=2026-13-01', 'createdSince'],
    ['createdSince=1767225600000', 'createdSince'],
    ['updatedSince=2026-01-01T25:00:00Z', 'updatedSince'],
  ])('?%s → 400 invalid_format', async (qs, field) => {
    const { key } = shop()
    const [res, body] = await t.api.get(`/api/v1/products?${qs}`, { key })
    expectValidation(res, body, field, 'invalid_format')
  })
})

describe('product fields and money', () => {
  test('POST answers 201 with exactly the documented fields; variants carry theirs, active only', async () => {
    const { key } = shop()
    clock.set(T0 + 1234)
    const [res, body] = await post(key, {
      name: 'Linen Shirt',
      description: 'Soft',
      price: 49.9,
      comparePrice: 59.9,
      imageUrl: 'https://cdn.example.com/shirt.jpg',
      variants: [
        { name: 'S', price: 49.9 },
        { name: 'M', price: 52, isActive: false },
        { name: 'L', price: 54.5, isActive: true },
      ],
    })
    clock.set(T0)
    expectStatus(res, body).toBe(201)
    const p = body.data
    expect(Object.keys(body)).toEqual(['data'])
    expect(Object.keys(p).sort()).toEqual(PRODUCT_KEYS)
    expect(p).toMatchObject({
      name: 'Linen Shirt',
      slug: 'linen-shirt',
      description: 'Soft',
      price: 49.9,
      comparePrice: 59.9,
      imageUrl: 'https://cdn.example.com/shirt.jpg',
      isActive: true,
      categoryId: null,
    })
    expect(p.id).toMatch(CUID)
    expect(p.createdAt).toMatch(ISO_MS)
    expect(p.createdAt).toBe(new Date(T0 + 1234).toISOString())
    expect(p.updatedAt).toBe(p.createdAt)
    expect(p.variants.map((v: Json) => v.name)).toEqual(['S', 'L'])
    for (const v of p.variants) {
      expect(Object.keys(v).sort()).toEqual(['id', 'inStock', 'isActive', 'name', 'price', 'stock'])
      expect(v.id).toMatch(CUID)
      expect(v.isActive).toBe(true)
    }
    expect(p.variants[1].price).toBe(54.5)
    // The inactive variant exists in the database but is never shown.
    expect(variantRows(p.id).map((v) => [v.name, v.is_active])).toEqual([
      ['S', 1],
      ['M', 0],
      ['L', 1],
    ])

    const [gr, got] = await t.api.get(`/api/v1/products/${p.id}`, { key })
    expectStatus(gr, got).toBe(200)
    expect(got).toEqual({ data: p })
    const [, listed] = await t.api.get('/api/v1/products', { key })
    expect(listed.data[0]).toEqual(p)
  })

  test('optional fields default to null / true / []', async () => {
    const { key } = shop()
    const [res, body] = await post(key, { name: 'Plain', price: 3 })
    expectStatus(res, body).toBe(201)
    expect(body.data).toMatchObject({
      description: null,
      comparePrice: null,
      imageUrl: null,
      isActive: true,
      categoryId: null,
      variants: [],
    })
  })

  test('USD: two decimals, stored as integer cents, float artefacts absorbed', async () => {
    const { key } = shop('pro', 'USD')
    // comparePrice must exceed price, so the price sits just under it.
    const [res, body] = await post(key, { name: uniq('Usd'), price: 0.29, comparePrice: 0.1 + 0.2 })
    expectStatus(res, body).toBe(201)
    expect(body.data.price).toBe(0.29)
    expect(body.data.comparePrice).toBe(0.3)
    expect(row(body.data.id)).toMatchObject({ price: 29, compare_price: 30 })
    const [r1, b1] = await post(key, { name: uniq('Usd'), price: 19.99 })
    expect(r1.status).toBe(201)
    expect(b1.data.price).toBe(19.99)
    const [r2, b2] = await post(key, { name: uniq('Usd'), price: 12345.678 })
    expectValidation(r2, b2, 'price', 'invalid_format')
  })

  test('JPY: no decimals', async () => {
    const { key } = shop('pro', 'JPY')
    const [res, body] = await post(key, { name: uniq('Yen'), price: 1500, variants: [{ name: 'Big', price: 2000 }] })
    expectStatus(res, body).toBe(201)
    expect(body.data.price).toBe(1500)
    expect(body.data.variants[0].price).toBe(2000)
    expect(row(body.data.id)!.price).toBe(1500)
    const [r2, b2] = await post(key, { name: uniq('Yen'), price: 1.5 })
    expectValidation(r2, b2, 'price', 'invalid_format')
    const [r3, b3] = await post(key, { name: uniq('Yen'), price: 100, comparePrice: 120.5 })
    expectValidation(r3, b3, 'comparePrice', 'invalid_format')
    const [r4, b4] = await post(key, {
      name: uniq('Yen'),
      price: 100,
      variants: [
        { name: 'A', price: 100 },
        { name: 'B', price: 0.5 },
      ],
    })
    expectValidation(r4, b4, 'variants[1].price', 'invalid_format')
    const [r5, b5] = await t.api.put(`/api/v1/products/${body.data.id}`, { price: 99.9 }, { key })
    expectValidation(r5, b5, 'price', 'invalid_format')
  })

  test('KWD: three decimals', async () => {
    const { key } = shop('pro', 'KWD')
    const [res, body] = await post(key, { name: uniq('Kwd'), price: 1.234 })
    expectStatus(res, body).toBe(201)
    expect(body.data.price).toBe(1.234)
    expect(row(body.data.id)!.price).toBe(1234)
    const [r2, b2] = await post(key, { name: uniq('Kwd'), price: 1.2345 })
    expectValidation(r2, b2, 'price', 'invalid_format')
  })

  test('GET by id returns an inactive product; a wrong id is 404; another store’s is 403', async () => {
    const { store, key } = shop()
    const p = seed(store, { isActive: false })
    const [res, body] = await t.api.get(`/api/v1/products/${p.id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data.isActive).toBe(false)
    const [r404, b404] = await t.api.get('/api/v1/products/nosuchproduct0000000000', { key })
    expectStatus(r404, b404).toBe(404)
    expect(b404.code).toBe('NOT_FOUND')
    const other = shop()
    const [r403, b403] = await t.api.get(`/api/v1/products/${p.id}`, { key: other.key })
    expectStatus(r403, b403).toBe(403)
    expect(b403.code).toBe('FORBIDDEN')
  })
})

describe('POST /api/v1/products — validation', () => {
  test.each<[string, Json, string, string]>([
    ['missing name', { price: 1 }, 'name', 'required'],
    ['missing price', { name: 'Mug' }, 'price', 'required'],
    ['name not a string', { name: 5, price: 1 }, 'name', 'invalid_type'],
    ['price as a string', { name: 'Mug', price: '10' }, 'price', 'invalid_type'],
    ['price null', { name: 'Mug', price: null }, 'price', 'invalid_type'],
    ['negative price', { name: 'Mug', price: -1 }, 'price', 'out_of_range'],
    ['negative comparePrice', { name: 'Mug', price: 1, comparePrice: -0.01 }, 'comparePrice', 'out_of_range'],
    ['empty name', { name: '', price: 1 }, 'name', 'out_of_range'],
    ['name over 200', { name: 'x'.repeat(201), price: 1 }, 'name', 'out_of_range'],
    [
      'description over 10000',
      { name: 'Mug', price: 1, description: 'x'.repeat(10_001) },
      'description',
      'out_of_range',
    ],
    ['isActive not boolean', { name: 'Mug', price: 1, isActive: 'yes' }, 'isActive', 'invalid_type'],
    ['imageUrl not http(s)', { name: 'Mug', price: 1, imageUrl: 'javascript:alert(1)' }, 'imageUrl', 'invalid_format'],
    // Elysia wraps a lone value into an array, so the error names its first element.
    ['variants not an array', { name: 'Mug', price: 1, variants: 5 }, 'variants', 'invalid_type'],
    ['variant without price', { name: 'Mug', price: 1, variants: [{ name: 'S' }] }, 'variants[0].price', 'required'],
    [
      'variant name too long',
      { name: 'Mug', price: 1, variants: [{ name: 'x'.repeat(101), price: 1 }] },
      'variants[0].name',
      'out_of_range',
    ],
  ])('%s → 400', async (_label, body, field, reason) => {
    const { key } = shop()
    const [res, out] = await post(key, body)
    expectValidation(res, out, field, reason)
  })

  test('a body that is not an object → 400', async () => {
    const { key } = shop()
    const [res, body] = await t.api.post('/api/v1/products', undefined, { key, raw: '[1,2]' })
    expectStatus(res, body).toBe(400)
    expect(body.code).toBe('VALIDATION_ERROR')
    expect(typeof body.details.field).toBe('string')
  })

  test('unknown body fields are ignored, including ones that look like internal columns', async () => {
    const a = shop()
    const b = shop()
    const [res, body] = await post(a.key, {
      name: 'Cup',
      price: 2,
      id: 'chosen-id',
      storeId: b.store.id,
      deletedAt: 1,
      createdAt: '2000-01-01T00:00:00.000Z',
      color: 'red',
    })
    expectStatus(res, body).toBe(201)
    expect(body.data.id).not.toBe('chosen-id')
    expect(body.data).not.toHaveProperty('color')
    expect(body.data.createdAt).not.toBe('2000-01-01T00:00:00.000Z')
    expect(row(body.data.id)).toMatchObject({ store_id: a.store.id, deleted_at: null })
    const [pr, put] = await t.api.put(
      `/api/v1/products/${body.data.id}`,
      { storeId: b.store.id, price: 3, extra: true },
      { key: a.key },
    )
    expectStatus(pr, put).toBe(200)
    expect(row(body.data.id)).toMatchObject({ store_id: a.store.id, price: 300 })
  })
})

describe('slugs', () => {
  test('derived from the name when absent, accents folded', async () => {
    const { key } = shop()
    const [res, body] = await post(key, { name: 'Crème Brûlée à la Française', price: 5 })
    expectStatus(res, body).toBe(201)
    expect(body.data.slug).toBe('creme-brulee-a-la-francaise')
    const [r2, b2] = await post(key, { name: 'TV', price: 5 })
    expectStatus(r2, b2).toBe(201)
    expect(b2.data.slug).toMatch(/^tv-[a-z0-9]{6}$/)
  })

  test('an explicit slug is used as given', async () => {
    const { key } = shop()
    const [res, body] = await post(key, { name: 'Whatever', slug: 'my-mug-2', price: 5 })
    expectStatus(res, body).toBe(201)
    expect(body.data.slug).toBe('my-mug-2')
  })

  test.each(['ab', 'a'.repeat(51), 'Bad-Slug', 'has space', '-lead', 'trail-', 'dou--ble', 'under_score', 'crème', ''])(
    'explicit slug %p → 400 slug',
    async (slug) => {
      const { key } = shop()
      const [res, body] = await post(key, { name: 'Mug', slug, price: 5 })
      expectValidation(res, body, 'slug')
    },
  )

  test('PUT validates the slug too', async () => {
    const { store, key } = shop()
    const p = seed(store)
    const [res, body] = await t.api.put(`/api/v1/products/${p.id}`, { slug: 'No Good' }, { key })
    expectValidation(res, body, 'slug')
  })

  test('duplicate slug on create (explicit or derived) and on update → 409 DUPLICATE_SLUG', async () => {
    const { key } = shop()
    const [r1, first] = await post(key, { name: 'Mug', price: 5 })
    expectStatus(r1, first).toBe(201)
    const [r2, dupDerived] = await post(key, { name: 'MUG!', price: 6 })
    expectStatus(r2, dupDerived).toBe(409)
    expect(dupDerived.code).toBe('DUPLICATE_SLUG')
    expect(dupDerived.details).toMatchObject({ field: 'slug', slug: 'mug' })
    const [r3, dupExplicit] = await post(key, { name: 'Other', slug: 'mug', price: 6 })
    expectStatus(r3, dupExplicit).toBe(409)
    expect(dupExplicit.code).toBe('DUPLICATE_SLUG')

    const [r4, second] = await post(key, { name: 'Cup', price: 5 })
    expectStatus(r4, second).toBe(201)
    const [r5, dupUpdate] = await t.api.put(`/api/v1/products/${second.data.id}`, { slug: 'mug' }, { key })
    expectStatus(r5, dupUpdate).toBe(409)
    expect(dupUpdate.code).toBe('DUPLICATE_SLUG')
    expect(row(second.data.id)!.slug).toBe('cup')
    // Re-sending its own slug is not a conflict.
    const [r6, same] = await t.api.put(`/api/v1/products/${second.data.id}`, { slug: 'cup', name: 'Cup 2' }, { key })
    expectStatus(r6, same).toBe(200)
    expect(same.data).toMatchObject({ slug: 'cup', name: 'Cup 2' })
  })

  test('slugs are unique per store, not globally', async () => {
    const a = shop()
    const b = shop()
    const [r1, b1] = await post(a.key, { name: 'Shared', slug: 'shared-slug', price: 1 })
    const [r2, b2] = await post(b.key, { name: 'Shared', slug: 'shared-slug', price: 1 })
    expectStatus(r1, b1).toBe(201)
    expectStatus(r2, b2).toBe(201)
  })

  test('a soft-deleted product frees its slug (its row keeps it)', async () => {
    const { key } = shop()
    const [, first] = await post(key, { name: 'Lamp', price: 5 })
    const [dr, del] = await t.api.delete(`/api/v1/products/${first.data.id}`, { key })
    expectStatus(dr, del).toBe(200)
    const [res, again] = await post(key, { name: 'Lamp', price: 7 })
    expectStatus(res, again).toBe(201)
    expect(again.data.slug).toBe('lamp')
    expect(again.data.id).not.toBe(first.data.id)
    expect(row(first.data.id)).toMatchObject({ slug: 'lamp', deleted_at: expect.any(Number) })
    // and an update can take a deleted product's slug too
    const [, other] = await post(key, { name: 'Shade', price: 1 })
    await t.api.delete(`/api/v1/products/${again.data.id}`, { key })
    const [ur, upd] = await t.api.put(`/api/v1/products/${other.data.id}`, { slug: 'lamp' }, { key })
    expectStatus(ur, upd).toBe(200)
    expect(upd.data.slug).toBe('lamp')
  })
})

describe('categoryId', () => {
  test('must name a category of this store (create and update); null clears it', async () => {
    const { store, key } = shop()
    const other = shop()
    const mine = createCategory({ ctx: ctxFor(t.deps, store), input: { name: uniq('Cat') } })
    const theirs = createCategory({ ctx: ctxFor(t.deps, other.store), input: { name: uniq('Cat') } })

    const [ok, created] = await post(key, { name: 'In cat', price: 1, categoryId: mine.id })
    expectStatus(ok, created).toBe(201)
    expect(created.data.categoryId).toBe(mine.id)

    for (const categoryId of [theirs.id, 'nosuchcategory000000000']) {
      const [res, body] = await post(key, { name: uniq('x'), price: 1, categoryId })
      expectValidation(res, body, 'categoryId', 'not_found')
      const [pr, pb] = await t.api.put(`/api/v1/products/${created.data.id}`, { categoryId }, { key })
      expectValidation(pr, pb, 'categoryId', 'not_found')
    }
    expect(row(created.data.id)!.category_id).toBe(mine.id)

    const [cr, cleared] = await t.api.put(`/api/v1/products/${created.data.id}`, { categoryId: null }, { key })
    expectStatus(cr, cleared).toBe(200)
    expect(cleared.data.categoryId).toBeNull()
  })
})

describe('PUT /api/v1/products/:id', () => {
  test('partial: only the given fields change; updatedAt moves, createdAt stays', async () => {
    const { key } = shop()
    clock.set(T0)
    const [, created] = await post(key, {
      name: 'Teapot',
      description: 'Blue',
      price: 20,
      comparePrice: 25,
      imageUrl: 'https://x.test/a.png',
    })
    clock.set(T0 + 60_000)
    const [res, body] = await t.api.put(`/api/v1/products/${created.data.id}`, { price: 18.5 }, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({ ...created.data, price: 18.5, updatedAt: new Date(T0 + 60_000).toISOString() })

    clock.set(T0 + 120_000)
    const [r2, b2] = await t.api.put(
      `/api/v1/products/${created.data.id}`,
      { description: null, comparePrice: null, isActive: false, name: 'Teapot XL' },
      { key },
    )
    expectStatus(r2, b2).toBe(200)
    expect(b2.data).toEqual({
      ...created.data,
      name: 'Teapot XL',
      price: 18.5,
      description: null,
      comparePrice: null,
      isActive: false,
      updatedAt: new Date(T0 + 120_000).toISOString(),
    })
    // The slug does not follow a renamed product (links stay valid).
    expect(b2.data.slug).toBe('teapot')
    clock.set(T0)

    const [r3, b3] = await t.api.put(`/api/v1/products/${created.data.id}`, {}, { key })
    expectStatus(r3, b3).toBe(200)
    expect(b3.data.name).toBe('Teapot XL')
  })

  test('validation applies to the given fields', async () => {
    const { store, key } = shop()
    const p = seed(store)
    const [r1, b1] = await t.api.put(`/api/v1/products/${p.id}`, { price: -5 }, { key })
    expectValidation(r1, b1, 'price', 'out_of_range')
    const [r2, b2] = await t.api.put(`/api/v1/products/${p.id}`, { name: '' }, { key })
    expectValidation(r2, b2, 'name', 'out_of_range')
    const [r3, b3] = await t.api.put(`/api/v1/products/${p.id}`, { name: null }, { key })
    expectValidation(r3, b3, 'name', 'invalid_type')
  })

  test('a missing product is 404, another store’s is 403, and nothing changes', async () => {
    const { key } = shop()
    const other = shop()
    const p = seed(other.store)
    const [r1, b1] = await t.api.put('/api/v1/products/nosuchproduct0000000000', { name: 'x' }, { key })
    expectStatus(r1, b1).toBe(404)
    expect(b1.code).toBe('NOT_FOUND')
    const [r2, b2] = await t.api.put(`/api/v1/products/${p.id}`, { name: 'hijack' }, { key })
    expectStatus(r2, b2).toBe(403)
    expect(row(p.id)!.name).toBe(p.name)
    const [r3, b3] = await t.api.delete(`/api/v1/products/${p.id}`, { key })
    expectStatus(r3, b3).toBe(403)
    expect(row(p.id)!.deleted_at).toBeNull()
  })

  test('variants: those with an id updated, those without created, the rest deactivated — never deleted', async () => {
    const { key } = shop('pro')
    const [, created] = await post(key, {
      name: 'Tee',
      price: 10,
      variants: [
        { name: 'S', price: 10 },
        { name: 'M', price: 11 },
        { name: 'L', price: 12 },
      ],
    })
    const [s, m, l] = created.data.variants
    expect(variantRows(created.data.id)).toHaveLength(3)

    const [res, body] = await t.api.put(
      `/api/v1/products/${created.data.id}`,
      {
        variants: [
          { id: s.id, name: 'Small', price: 9.5 },
          { name: 'XL', price: 13 },
          { id: m.id, name: 'M', price: 11, isActive: false },
        ],
      },
      { key },
    )
    expectStatus(res, body).toBe(200)
    expect(body.data.variants.map((v: Json) => [v.name, v.price])).toEqual([
      ['Small', 9.5],
      ['XL', 13],
    ])
    expect(body.data.variants[0].id).toBe(s.id)
    const rows = variantRows(created.data.id)
    expect(rows).toHaveLength(4)
    const byId = new Map(rows.map((r) => [r.id, r]))
    expect(byId.get(s.id)).toMatchObject({ name: 'Small', price: 950, is_active: 1 })
    expect(byId.get(m.id)).toMatchObject({ is_active: 0 })
    expect(byId.get(l.id)).toMatchObject({ name: 'L', is_active: 0 })

    // Omitting `variants` leaves them alone.
    const [r2, b2] = await t.api.put(`/api/v1/products/${created.data.id}`, { name: 'Tee 2' }, { key })
    expectStatus(r2, b2).toBe(200)
    expect(b2.data.variants).toEqual(body.data.variants)

    // A deactivated variant can be brought back by id.
    const [r3, b3] = await t.api.put(
      `/api/v1/products/${created.data.id}`,
      { variants: [{ id: l.id, name: 'L', price: 12 }] },
      { key },
    )
    expectStatus(r3, b3).toBe(200)
    expect(b3.data.variants.map((v: Json) => v.id)).toEqual([l.id])

    // An empty array deactivates all; rows stay.
    const [r4, b4] = await t.api.put(`/api/v1/products/${created.data.id}`, { variants: [] }, { key })
    expectStatus(r4, b4).toBe(200)
    expect(b4.data.variants).toEqual([])
    expect(variantRows(created.data.id).map((r) => r.is_active)).toEqual([0, 0, 0, 0])
  })

  test('a variant id of another product → 400 and nothing is written', async () => {
    const { key } = shop('pro')
    const [, a] = await post(key, { name: 'A', price: 1, variants: [{ name: 'A1', price: 1 }] })
    const [, b] = await post(key, { name: 'B', price: 1, variants: [{ name: 'B1', price: 1 }] })
    const [res, body] = await t.api.put(
      `/api/v1/products/${a.data.id}`,
      {
        name: 'A renamed',
        variants: [
          { name: 'New', price: 2 },
          { id: b.data.variants[0].id, name: 'stolen', price: 1 },
        ],
      },
      { key },
    )
    expectValidation(res, body, 'variants[1].id', 'not_found')
    expect(row(a.data.id)!.name).toBe('A')
    expect(variantRows(a.data.id).map((r) => r.name)).toEqual(['A1'])
    expect(variantRows(b.data.id)).toMatchObject([{ name: 'B1', is_active: 1 }])
  })
})

describe('DELETE /api/v1/products/:id (soft)', () => {
  test('200 { id, deleted }, then 404 everywhere, the row and its variants kept', async () => {
    const { key } = shop('pro')
    clock.set(T0 + 5_000)
    const [, created] = await post(key, { name: 'Vase', price: 30, variants: [{ name: 'Red', price: 30 }] })
    const id = created.data.id
    clock.set(T0 + 9_000)
    const [res, body] = await t.api.delete(`/api/v1/products/${id}`, { key })
    clock.set(T0)
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({ data: { id, deleted: true } })

    const [gr, gb] = await t.api.get(`/api/v1/products/${id}`, { key })
    expectStatus(gr, gb).toBe(404)
    expect(gb.code).toBe('NOT_FOUND')
    for (const qs of ['', '?isActive=all', '?isActive=false']) {
      const [, list] = await t.api.get(`/api/v1/products${qs}`, { key })
      expect(list.data.map((p: Json) => p.id)).not.toContain(id)
      expect(list.total).toBe(0)
    }
    expect(row(id)).toMatchObject({ name: 'Vase', price: 3000, deleted_at: T0 + 9_000 })
    expect(variantRows(id)).toHaveLength(1)

    const [dr, db] = await t.api.delete(`/api/v1/products/${id}`, { key })
    expectStatus(dr, db).toBe(404)
    const [pr, pb] = await t.api.put(`/api/v1/products/${id}`, { name: 'zombie' }, { key })
    expectStatus(pr, pb).toBe(404)
    expect(row(id)!.name).toBe('Vase')
  })
})

describe('plan caps (free: 10 products, no variants)', () => {
  test('the 11th product → 403 PLAN_REQUIRED productLimit; deleted products do not count', async () => {
    const { key } = shop('free')
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      const [res, body] = await post(key, { name: `P ${i}`, price: 1 })
      expectStatus(res, body).toBe(201)
      ids.push(body.data.id)
    }
    const [res, body] = await post(key, { name: 'P 10', price: 1 })
    expectStatus(res, body).toBe(403)
    expect(body).toEqual({
      error: 'plan_required',
      code: 'PLAN_REQUIRED',
      message: expect.any(String),
      feature: 'productLimit',
      upgradeUrl: t.config.upgradeUrl,
      details: { limit: 10, current: 10 },
    })
    const [, list] = await t.api.get('/api/v1/products?isActive=all', { key })
    expect(list.total).toBe(10)

    // Inactive products still count; deleted ones don't.
    await t.api.put(`/api/v1/products/${ids[0]}`, { isActive: false }, { key })
    const [r2, b2] = await post(key, { name: 'P 10', price: 1 })
    expectStatus(r2, b2).toBe(403)
    const [dr] = await t.api.delete(`/api/v1/products/${ids[1]}`, { key })
    expect(dr.status).toBe(200)
    const [r3, b3] = await post(key, { name: 'P 10', price: 1 })
    expectStatus(r3, b3).toBe(201)
    const [r4, b4] = await post(key, { name: 'P 11', price: 1 })
    expectStatus(r4, b4).toBe(403)
    expect(b4.details).toEqual({ limit: 10, current: 10 })
  })

  test('variants are refused on free, on POST and on a PUT that adds them (limit 0)', async () => {
    const { key } = shop('free')
    const [res, body] = await post(key, { name: 'With variants', price: 1, variants: [{ name: 'S', price: 1 }] })
    expectStatus(res, body).toBe(403)
    expect(body).toMatchObject({ code: 'PLAN_REQUIRED', feature: 'variants', details: { limit: 0, current: 0 } })
    const [, list] = await t.api.get('/api/v1/products?isActive=all', { key })
    expect(list.total).toBe(0)

    const [, plain] = await post(key, { name: 'Plain', price: 1 })
    const [pr, pb] = await t.api.put(
      `/api/v1/products/${plain.data.id}`,
      { name: 'Renamed', variants: [{ name: 'S', price: 1 }] },
      { key },
    )
    expectStatus(pr, pb).toBe(403)
    expect(pb).toMatchObject({ code: 'PLAN_REQUIRED', feature: 'variants', details: { limit: 0 } })
    expect(row(plain.data.id)!.name).toBe('Plain')
    expect(variantRows(plain.data.id)).toHaveLength(0)
    // Adding an inactive variant is still adding one.
    const [ir, ib] = await t.api.put(
      `/api/v1/products/${plain.data.id}`,
      { variants: [{ name: 'S', price: 1, isActive: false }] },
      { key },
    )
    expectStatus(ir, ib).toBe(403)

    // An empty list adds nothing and is allowed.
    const [er, eb] = await t.api.put(`/api/v1/products/${plain.data.id}`, { variants: [] }, { key })
    expectStatus(er, eb).toBe(200)
  })

  test('pro stores may use variants', async () => {
    const { key } = shop('pro')
    const [res, body] = await post(key, { name: 'With variants', price: 1, variants: [{ name: 'S', price: 1 }] })
    expectStatus(res, body).toBe(201)
  })
})

describe('request bodies', () => {
  test('a body over 1 MiB → 413 JSON, before validation', async () => {
    const { key } = shop()
    const raw = JSON.stringify({ name: 'Big', price: 1, description: 'x'.repeat(1024 * 1024) })
    const [res, body] = await t.api.post('/api/v1/products', undefined, {
      key,
      raw,
      headers: { 'content-length': String(Buffer.byteLength(raw)) },
    })
    expectStatus(res, body).toBe(413)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(typeof body.error).toBe('string')
    expect(body.code).toBe('PAYLOAD_TOO_LARGE')
  })

  test('malformed JSON → 400 body invalid_json with a key, 401 without', async () => {
    const { store, key } = shop()
    const p = seed(store)
    for (const [method, path] of [
      ['POST', '/api/v1/products'],
      ['PUT', `/api/v1/products/${p.id}`],
    ] as const) {
      const [res, body] = await t.api.call(method, path, undefined, { key, raw: '{"name": "x", price: }' })
      expectValidation(res, body, 'body', 'invalid_json')
      const [r401, b401] = await t.api.call(method, path, undefined, { raw: '{"name": "x", price: }' })
      expectStatus(r401, b401).toBe(401)
      expect(b401.code).toBe('UNAUTHORIZED')
    }
  })
})

describe('cache freshness', () => {
  test('a write through the API is seen by the next list read', async () => {
    const { key } = shop()
    const list = async (qs = '') => (await t.api.get(`/api/v1/products${qs}`, { key }))[1]
    expect((await list()).total).toBe(0)
    expect((await list()).total).toBe(0) // second read is served from the cache

    const [, created] = await post(key, { name: 'Fresh', price: 4 })
    const afterPost = await list()
    expect(afterPost.total).toBe(1)
    expect(afterPost.data[0].name).toBe('Fresh')

    await t.api.put(`/api/v1/products/${created.data.id}`, { name: 'Fresher', price: 5 }, { key })
    const afterPut = await list()
    expect(afterPut.data[0]).toMatchObject({ name: 'Fresher', price: 5 })

    await t.api.put(`/api/v1/products/${created.data.id}`, { isActive: false }, { key })
    expect((await list()).total).toBe(0)
    expect((await list('?isActive=false')).total).toBe(1)

    await t.api.delete(`/api/v1/products/${created.data.id}`, { key })
    expect((await list('?isActive=false')).total).toBe(0)
    expect((await list('?isActive=all')).total).toBe(0)
  })

  test('deleting a category is seen in the product list (categoryId null)', async () => {
    const { store, key } = shop()
    const cat = createCategory({ ctx: ctxFor(t.deps, store), input: { name: uniq('Cat') } })
    await post(key, { name: 'Filed', price: 1, categoryId: cat.id })
    const [, before] = await t.api.get('/api/v1/products', { key })
    expect(before.data[0].categoryId).toBe(cat.id)
    const [dr, db] = await t.api.delete(`/api/v1/categories/${cat.id}`, { key })
    expectStatus(dr, db).toBe(200)
    const [, after] = await t.api.get('/api/v1/products', { key })
    expect(after.data[0].categoryId).toBeNull()
  })

  test('a write by another connection (like the admin CLI) is seen by the next request', async () => {
    const { store, key } = shop()
    const p = seed(store, { name: 'Original' })
    const [, before] = await t.api.get('/api/v1/products', { key })
    expect(before.data[0].name).toBe('Original')
    t.adminDb()
      .$client.query('UPDATE products SET name = ?, price = ? WHERE id = ?')
      .run('Changed elsewhere', 777, p.id)
    const [, after] = await t.api.get('/api/v1/products', { key })
    expect(after.data[0]).toMatchObject({ name: 'Changed elsewhere', price: 7.77 })
    t.adminDb().$client.query('UPDATE products SET deleted_at = ? WHERE id = ?').run(T0, p.id)
    const [, gone] = await t.api.get('/api/v1/products', { key })
    expect(gone.total).toBe(0)
  })
})

describe('concurrency', () => {
  test('12 concurrent creates on a free store (cap 10) → exactly 10 succeed', async () => {
    const { store, key } = shop('free')
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => post(key, { name: `Race ${i}`, price: 1 })))
    const statuses = results.map(([res]) => res.status).sort()
    expect(statuses.filter((s) => s === 201)).toHaveLength(10)
    expect(statuses.filter((s) => s === 403)).toHaveLength(2)
    for (const [res, body] of results) if (res.status === 403) expect(body.feature).toBe('productLimit')
    const n = t.deps.db.$client
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM products WHERE store_id = ?')
      .get(store.id)!.n
    expect(n).toBe(10)
  })

  test('10 concurrent creates with the same slug → one 201, nine 409', async () => {
    const { store, key } = shop()
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(key, { name: `Same ${i}`, slug: 'same-slug', price: 1 })),
    )
    const statuses = results.map(([res]) => res.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(9)
    for (const [res, body] of results) if (res.status === 409) expect(body.code).toBe('DUPLICATE_SLUG')
    const n = t.deps.db.$client
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM products WHERE store_id = ? AND slug = 'same-slug'")
      .get(store.id)!.n
    expect(n).toBe(1)
  })

  test('separate processes on the same database file cannot exceed the free cap', async () => {
    // In one process the handlers are synchronous and cannot interleave; separate processes
    // (separate connections) can, so this is what pins BEGIN IMMEDIATE + busy_timeout.
    const { store } = shop('free')
    const root = path.resolve(import.meta.dir, '../..')
    const script = `
      import { openDb } from '${root}/src/db/client'
      import { testConfig } from '${root}/src/config'
      import { createProduct } from '${root}/src/modules/products/service'
      import { StoreCache } from '${root}/src/db/cache'
      import { systemClock } from '${root}/src/lib/time'
      const [dataDir, store] = [process.env.DATA_DIR, JSON.parse(process.env.STORE)]
      const db = openDb({ dataDir, synchronous: 'NORMAL' })
      const ctx = { config: testConfig({ dataDir }), db, clock: systemClock, cache: new StoreCache(db), store }
      const out = { ok: 0, capped: 0, other: [] }
      for (let i = 0; i < 6; i++) {
        try { createProduct({ ctx, input: { name: 'proc ' + process.pid + ' ' + i, price: 1 } }); out.ok++ }
        catch (e) { if (e.feature === 'productLimit') out.capped++; else out.other.push(String(e)) }
      }
      console.log(JSON.stringify(out))
    `
    const procs = Array.from({ length: 4 }, () =>
      Bun.spawn(['bun', '--eval', script], {
        env: { ...process.env, DATA_DIR: t.config.dataDir, STORE: JSON.stringify(store) },
        stdout: 'pipe',
        stderr: 'pipe',
      }),
    )
    const outs = await Promise.all(
      procs.map(async (p) => {
        const [text, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()])
        await p.exited
        if (p.exitCode !== 0) throw new Error(err)
        return JSON.parse(text.trim().split('\n').pop()!) as { ok: number; capped: number; other: string[] }
      }),
    )
    expect(outs.flatMap((o) => o.other)).toEqual([])
    expect(outs.reduce((a, o) => a + o.ok, 0)).toBe(10)
    expect(outs.reduce((a, o) => a + o.capped, 0)).toBe(14)
    const n = t.deps.db.$client
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM products WHERE store_id = ?')
      .get(store.id)!.n
    expect(n).toBe(10)
  }, 30_000)
})
