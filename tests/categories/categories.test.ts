/**
 * The categories API over HTTP (docs/api.md: categories, limits, plan caps): CRUD, ordering by position, filters,
 * duplicate slugs, what deleting does to products, the free plan's 3-category cap, and freshness after writes.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus, type Json } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { ctxFor } from '../../src/kernel/context'
import { createCategory } from '../../src/modules/categories/service'
import { createProduct } from '../../src/modules/products/service'
import type { Plan, Store } from '../../src/db/schema'

const T0 = Date.UTC(2026, 3, 1, 8, 0, 0, 0)
const clock = fixedClock(T0)
const t = appForFile({ rateLimitKey: 100_000 }, { clock })

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const shop = (plan: Plan = 'pro') => makeShop(t.deps, { plan })
const seed = (store: Store, input: Partial<Parameters<typeof createCategory>[0]['input']> = {}) =>
  createCategory({ ctx: ctxFor(t.deps, store), input: { name: uniq('Cat'), ...input } })
const post = (key: string, body: unknown) => t.api.post('/api/v1/categories', body, { key })
const catRow = (id: string) =>
  t.deps.db.$client.query<Record<string, Json>, [string]>('SELECT * FROM categories WHERE id = ?').get(id)
const productRow = (id: string) =>
  t.deps.db.$client.query<Record<string, Json>, [string]>('SELECT * FROM products WHERE id = ?').get(id)

function expectValidation(res: Response, body: Json, field: string, reason?: string) {
  expectStatus(res, body).toBe(400)
  expect(body.code).toBe('VALIDATION_ERROR')
  expect(body.details.field).toBe(field)
  if (reason) expect(body.details.reason).toBe(reason)
}

describe('POST /api/v1/categories', () => {
  test('201 with id, name, slug, position, isActive, createdAt, updatedAt', async () => {
    const { key } = shop()
    clock.set(T0 + 42)
    const [res, body] = await post(key, { name: 'Té & Café' })
    clock.set(T0)
    expectStatus(res, body).toBe(201)
    expect(Object.keys(body)).toEqual(['data'])
    expect(Object.keys(body.data).sort()).toEqual([
      'createdAt',
      'id',
      'isActive',
      'name',
      'position',
      'slug',
      'updatedAt',
    ])
    expect(body.data).toMatchObject({ name: 'Té & Café', slug: 'te-cafe', position: 0, isActive: true })
    expect(body.data.id).toMatch(/^[a-z][a-z0-9]{23}$/)
    expect(body.data.createdAt).toMatch(ISO_MS)
    expect(body.data.createdAt).toBe(new Date(T0 + 42).toISOString())
    expect(body.data.updatedAt).toBe(body.data.createdAt)
  })

  test.each<[string, Json, string, string]>([
    ['missing name', {}, 'name', 'required'],
    ['name not a string', { name: 3 }, 'name', 'invalid_type'],
    ['empty name', { name: '' }, 'name', 'out_of_range'],
    ['name over 200', { name: 'x'.repeat(201) }, 'name', 'out_of_range'],
    ['bad slug', { name: 'Cups', slug: 'Cups!' }, 'slug', 'invalid_format'],
    ['short slug', { name: 'Cups', slug: 'ab' }, 'slug', 'out_of_range'],
    ['negative position', { name: 'Cups', position: -1 }, 'position', 'out_of_range'],
    ['fractional position', { name: 'Cups', position: 1.5 }, 'position', 'invalid_type'],
    ['position as text', { name: 'Cups', position: 'first' }, 'position', ''],
    ['position as a numeric string', { name: 'Cups', position: '5' }, 'position', 'invalid_type'],
    ['isActive not boolean', { name: 'Cups', isActive: 'no' }, 'isActive', 'invalid_type'],
  ])('%s → 400', async (_label, input, field, reason) => {
    const { key } = shop()
    const [res, body] = await post(key, input)
    expectValidation(res, body, field, reason || undefined)
  })

  test('unknown fields are ignored', async () => {
    const a = shop()
    const b = shop()
    const [res, body] = await post(a.key, { name: 'Mugs', storeId: b.store.id, id: 'mine', colour: 'red' })
    expectStatus(res, body).toBe(201)
    expect(body.data.id).not.toBe('mine')
    expect(body.data).not.toHaveProperty('colour')
    expect(catRow(body.data.id)!.store_id).toBe(a.store.id)
  })

  test('duplicate slug → 409 DUPLICATE_SLUG (per store)', async () => {
    const a = shop()
    const b = shop()
    const [r1, b1] = await post(a.key, { name: 'Mugs' })
    expectStatus(r1, b1).toBe(201)
    const [r2, b2] = await post(a.key, { name: 'MUGS' })
    expectStatus(r2, b2).toBe(409)
    expect(b2).toMatchObject({ code: 'DUPLICATE_SLUG', details: { field: 'slug', slug: 'mugs' } })
    const [r3, b3] = await post(a.key, { name: 'Other', slug: 'mugs' })
    expectStatus(r3, b3).toBe(409)
    const [r4, b4] = await post(b.key, { name: 'Mugs' })
    expectStatus(r4, b4).toBe(201)
  })

  test('malformed JSON → 400 invalid_json with a key, 401 without', async () => {
    const { key } = shop()
    const [res, body] = await t.api.post('/api/v1/categories', undefined, { key, raw: '{"name":' })
    expectValidation(res, body, 'body', 'invalid_json')
    const [r2, b2] = await t.api.post('/api/v1/categories', undefined, { raw: '{"name":' })
    expectStatus(r2, b2).toBe(401)
  })
})

describe('GET /api/v1/categories', () => {
  test('list envelope ordered by position; new categories go last by default', async () => {
    const { key } = shop()
    const ids: string[] = []
    for (const name of ['One', 'Two', 'Three']) {
      const [res, body] = await post(key, { name })
      expectStatus(res, body).toBe(201)
      ids.push(body.data.id)
    }
    const [res, body] = await t.api.get('/api/v1/categories', { key })
    expectStatus(res, body).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['data', 'limit', 'offset', 'total'])
    expect(body).toMatchObject({ total: 3, limit: 50, offset: 0 })
    expect(body.data.map((c: Json) => [c.name, c.position])).toEqual([
      ['One', 0],
      ['Two', 1],
      ['Three', 2],
    ])

    // Explicit positions reorder; equal positions keep creation order.
    const [pr, pb] = await t.api.put(`/api/v1/categories/${ids[2]}`, { position: 0 }, { key })
    expectStatus(pr, pb).toBe(200)
    const [, reordered] = await t.api.get('/api/v1/categories', { key })
    expect(reordered.data.map((c: Json) => c.name)).toEqual(['One', 'Three', 'Two'])
    await t.api.put(`/api/v1/categories/${ids[0]}`, { position: 10 }, { key })
    const [, again] = await t.api.get('/api/v1/categories', { key })
    expect(again.data.map((c: Json) => c.name)).toEqual(['Three', 'Two', 'One'])
    const [r4, b4] = await post(key, { name: 'Four' })
    expectStatus(r4, b4).toBe(201)
    expect(b4.data.position).toBe(11)

    const [, page] = await t.api.get('/api/v1/categories?limit=2&offset=1', { key })
    expect(page).toMatchObject({ total: 4, limit: 2, offset: 1 })
    expect(page.data.map((c: Json) => c.name)).toEqual(['Two', 'One'])
  })

  test('only the caller store’s categories', async () => {
    const a = shop()
    const b = shop()
    seed(a.store)
    seed(b.store)
    seed(b.store)
    const [, body] = await t.api.get('/api/v1/categories', { key: a.key })
    expect(body.total).toBe(1)
    expect(catRow(body.data[0].id)!.store_id).toBe(a.store.id)
  })

  test('isActive: all by default; true / false / all filter; invalid → 400', async () => {
    const { store, key } = shop()
    const on = seed(store, { isActive: true })
    const off = seed(store, { isActive: false })
    const ids = async (qs: string) => {
      const [res, body] = await t.api.get(`/api/v1/categories${qs}`, { key })
      expectStatus(res, body).toBe(200)
      expect(body.total).toBe(body.data.length)
      return body.data.map((c: Json) => c.id).sort()
    }
    expect(await ids('')).toEqual([on.id, off.id].sort())
    expect(await ids('?isActive=all')).toEqual([on.id, off.id].sort())
    expect(await ids('?isActive=true')).toEqual([on.id])
    expect(await ids('?isActive=false')).toEqual([off.id])
    const [res, body] = await t.api.get('/api/v1/categories?isActive=maybe', { key })
    expectValidation(res, body, 'isActive')
  })

  test.each([
    ['limit=101', 'limit', 'out_of_range'],
    ['limit=0', 'limit', ''],
    ['limit=-3', 'limit', ''],
    ['limit=ten', 'limit', ''],
    ['offset=-1', 'offset', ''],
    ['createdSince=soon', 'createdSince', 'invalid_format'],
    ['updatedSince=2026-02-31', 'updatedSince', 'invalid_format'],
  ])('?%s → 400 naming %s', async (qs, field, reason) => {
    const { key } = shop()
    const [res, body] = await t.api.get(`/api/v1/categories?${qs}`, { key })
    expectValidation(res, body, field, reason || undefined)
  })

  test('createdSince / updatedSince', async () => {
    const { store, key } = shop()
    clock.set(T0)
    const old = seed(store, { name: 'Old' })
    clock.set(T0 + 60_000)
    const fresh = seed(store, { name: 'Fresh' })
    clock.set(T0 + 120_000)
    await t.api.put(`/api/v1/categories/${old.id}`, { name: 'Old renamed' }, { key })
    clock.set(T0)
    const since = encodeURIComponent(new Date(T0 + 60_000).toISOString())
    const [, created] = await t.api.get(`/api/v1/categories?createdSince=${since}`, { key })
    expect(created.data.map((c: Json) => c.id)).toEqual([fresh.id])
    const [, updated] = await t.api.get(
      `/api/v1/categories?updatedSince=${encodeURIComponent(new Date(T0 + 120_000).toISOString())}`,
      { key },
    )
    expect(updated.data.map((c: Json) => c.id)).toEqual([old.id])
  })
})

describe('PUT /api/v1/categories/:id', () => {
  test('partial update; updatedAt moves', async () => {
    const { key } = shop()
    clock.set(T0)
    const [, created] = await post(key, { name: 'Bowls', position: 4 })
    clock.set(T0 + 5_000)
    const [res, body] = await t.api.put(`/api/v1/categories/${created.data.id}`, { isActive: false }, { key })
    clock.set(T0)
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual({ ...created.data, isActive: false, updatedAt: new Date(T0 + 5_000).toISOString() })
    const [r2, b2] = await t.api.put(
      `/api/v1/categories/${created.data.id}`,
      { name: 'Big bowls', slug: 'big-bowls', colour: 'x' },
      { key },
    )
    expectStatus(r2, b2).toBe(200)
    expect(b2.data).toMatchObject({ name: 'Big bowls', slug: 'big-bowls', position: 4, isActive: false })
  })

  test('duplicate slug on update → 409; own slug is fine; bad values → 400', async () => {
    const { store, key } = shop()
    const a = seed(store, { slug: 'alpha' })
    const b = seed(store, { slug: 'beta' })
    const [r1, b1] = await t.api.put(`/api/v1/categories/${b.id}`, { slug: 'alpha' }, { key })
    expectStatus(r1, b1).toBe(409)
    expect(b1.code).toBe('DUPLICATE_SLUG')
    expect(catRow(b.id)!.slug).toBe('beta')
    const [r2, b2] = await t.api.put(`/api/v1/categories/${a.id}`, { slug: 'alpha' }, { key })
    expectStatus(r2, b2).toBe(200)
    const [r3, b3] = await t.api.put(`/api/v1/categories/${a.id}`, { position: -2 }, { key })
    expectValidation(r3, b3, 'position', 'out_of_range')
    const [r4, b4] = await t.api.put(`/api/v1/categories/${a.id}`, { name: '' }, { key })
    expectValidation(r4, b4, 'name', 'out_of_range')
  })

  test('missing → 404, another store’s → 403', async () => {
    const { key } = shop()
    const other = shop()
    const theirs = seed(other.store)
    const [r1, b1] = await t.api.put('/api/v1/categories/nosuchcategory000000000', { name: 'x' }, { key })
    expectStatus(r1, b1).toBe(404)
    expect(b1.code).toBe('NOT_FOUND')
    const [r2, b2] = await t.api.put(`/api/v1/categories/${theirs.id}`, { name: 'mine now' }, { key })
    expectStatus(r2, b2).toBe(403)
    expect(b2.code).toBe('FORBIDDEN')
    expect(catRow(theirs.id)!.name).toBe(theirs.name)
    const [r3, b3] = await t.api.delete(`/api/v1/categories/${theirs.id}`, { key })
    expectStatus(r3, b3).toBe(403)
    expect(catRow(theirs.id)).not.toBeNull()
  })
})

describe('DELETE /api/v1/categories/:id', () => {
  test('200 { id, deleted }; its products stay with categoryId null; a second DELETE is 404', async () => {
    const { store, key } = shop()
    const cat = seed(store)
    const keep = seed(store)
    const ctx = ctxFor(t.deps, store)
    clock.set(T0)
    const p1 = createProduct({ ctx, input: { name: uniq('P'), price: 1, categoryId: cat.id } })
    const p2 = createProduct({ ctx, input: { name: uniq('P'), price: 1, categoryId: cat.id, isActive: false } })
    const p3 = createProduct({ ctx, input: { name: uniq('P'), price: 1, categoryId: keep.id } })
    clock.set(T0 + 30_000)
    const [res, body] = await t.api.delete(`/api/v1/categories/${cat.id}`, { key })
    clock.set(T0)
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({ data: { id: cat.id, deleted: true } })
    expect(catRow(cat.id)).toBeNull()
    for (const p of [p1, p2]) {
      expect(productRow(p.id)).toMatchObject({ category_id: null, deleted_at: null, updated_at: T0 + 30_000 })
      const [, got] = await t.api.get(`/api/v1/products/${p.id}`, { key })
      expect(got.data.categoryId).toBeNull()
    }
    expect(productRow(p3.id)!.category_id).toBe(keep.id)

    const [, list] = await t.api.get('/api/v1/categories', { key })
    expect(list.data.map((c: Json) => c.id)).toEqual([keep.id])
    const [r2, b2] = await t.api.delete(`/api/v1/categories/${cat.id}`, { key })
    expectStatus(r2, b2).toBe(404)
    expect(b2.code).toBe('NOT_FOUND')
  })
})

describe('plan cap (free: 3 categories)', () => {
  test('the 4th → 403 PLAN_REQUIRED categoryLimit; deleting one makes room', async () => {
    const { key } = shop('free')
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const [res, body] = await post(key, { name: `C${i}x` })
      expectStatus(res, body).toBe(201)
      ids.push(body.data.id)
    }
    const [res, body] = await post(key, { name: 'Fourth' })
    expectStatus(res, body).toBe(403)
    expect(body).toEqual({
      error: 'plan_required',
      code: 'PLAN_REQUIRED',
      message: expect.any(String),
      feature: 'categoryLimit',
      upgradeUrl: t.config.upgradeUrl,
      details: { limit: 3, current: 3 },
    })
    const [, list] = await t.api.get('/api/v1/categories', { key })
    expect(list.total).toBe(3)
    await t.api.delete(`/api/v1/categories/${ids[0]}`, { key })
    const [r2, b2] = await post(key, { name: 'Fourth' })
    expectStatus(r2, b2).toBe(201)
  })

  test('concurrent creates on a free store stop at exactly 3', async () => {
    const { store, key } = shop('free')
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => post(key, { name: `Race ${i}` })))
    expect(results.filter(([r]) => r.status === 201)).toHaveLength(3)
    expect(results.filter(([r, b]) => r.status === 403 && b.feature === 'categoryLimit')).toHaveLength(3)
    const n = t.deps.db.$client
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM categories WHERE store_id = ?')
      .get(store.id)!.n
    expect(n).toBe(3)
  })
})

describe('freshness', () => {
  test('list after POST / PUT / DELETE through the API, and after another connection’s write', async () => {
    const { key } = shop()
    const names = async () => (await t.api.get('/api/v1/categories', { key }))[1].data.map((c: Json) => c.name)
    expect(await names()).toEqual([])
    const [, c] = await post(key, { name: 'Plates' })
    expect(await names()).toEqual(['Plates'])
    await t.api.put(`/api/v1/categories/${c.data.id}`, { name: 'Dishes' }, { key })
    expect(await names()).toEqual(['Dishes'])
    t.adminDb().$client.query('UPDATE categories SET name = ? WHERE id = ?').run('Set by CLI', c.data.id)
    expect(await names()).toEqual(['Set by CLI'])
    await t.api.delete(`/api/v1/categories/${c.data.id}`, { key })
    expect(await names()).toEqual([])
  })
})
