import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { appForFile, expectStatus } from '../helpers/app'
import { makeKey, makeShop, makeStore, uniq } from '../helpers/factories'
import { makeProduct, makeReview } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { reviews, stores, webhookOutbox, webhooks } from '../../src/db/schema'
import { suspendStore } from '../../src/modules/platform-stores/service'
import { deleteProduct } from '../../src/modules/products/service'
import { ctxFor } from '../../src/kernel/context'

const clock = fixedClock(Date.UTC(2026, 2, 1, 12))
let ipN = 0
const ip = () => `203.0.113.${++ipN % 250}`
const t = appForFile({ trustProxy: true, rateLimitKey: 10_000, rateLimitAnonymous: 10_000 }, { clock })

const post = (body: unknown, opts: { ip?: string; raw?: string } = {}) =>
  t.api.post('/api/reviews', body, { ip: opts.ip ?? ip(), raw: opts.raw, headers: { 'x-forwarded-proto': 'https' } })
const get = (path: string, key: string) => t.api.get(path, { key, headers: { 'x-forwarded-proto': 'https' } })
const put = (path: string, body: unknown, key: string) =>
  t.api.put(path, body, { key, headers: { 'x-forwarded-proto': 'https' } })
const del = (path: string, key: string) => t.api.delete(path, { key, headers: { 'x-forwarded-proto': 'https' } })

function subscribe(storeId: string) {
  const now = clock.now()
  t.deps.db
    .insert(webhooks)
    .values({
      storeId,
      url: 'https://hooks.example/x',
      events: JSON.stringify(['review.created']),
      secret: 'x',
      createdAt: now,
      updatedAt: now,
    })
    .run()
}

describe('POST /api/reviews', () => {
  test('201 { id, status: pending }; the review and its review.created delivery written; onOutbox called', async () => {
    const { store, key } = makeShop(t.deps)
    const product = makeProduct(t.deps, store.id, { name: 'Blue Mug' })
    subscribe(store.id)
    const notified: string[] = []
    const prev = t.deps.onOutbox
    t.deps.onOutbox = (id) => notified.push(id)
    try {
      const [res, body] = await post({
        storeId: store.id,
        productId: product.id,
        customerName: 'Ana',
        rating: 4,
        comment: 'Nice mug',
        extra: 'ignored',
      })
      expectStatus(res, body).toBe(201)
      expect(body).toEqual({ id: expect.any(String), status: 'pending' })
      expect(notified).toEqual([store.id])
      const row = t.deps.db.select().from(reviews).where(eq(reviews.id, body.id)).get()!
      expect(row).toMatchObject({
        storeId: store.id,
        productId: product.id,
        customerName: 'Ana',
        rating: 4,
        comment: 'Nice mug',
        status: 'pending',
        createdAt: clock.now(),
      })
      const deliveries = t.deps.db.select().from(webhookOutbox).where(eq(webhookOutbox.storeId, store.id)).all()
      expect(deliveries).toHaveLength(1)
      expect(deliveries[0]!.eventType).toBe('review.created')
      const payload = JSON.parse(deliveries[0]!.payload!)
      expect(payload).toMatchObject({ type: 'review.created', event: 'review.created' })
      expect(payload.data).toEqual({
        id: body.id,
        productId: product.id,
        productName: 'Blue Mug',
        customerName: 'Ana',
        rating: 4,
        comment: 'Nice mug',
        status: 'pending',
        createdAt: new Date(clock.now()).toISOString(),
        updatedAt: new Date(clock.now()).toISOString(),
      })
      // And it shows in the authenticated list as pending.
      const [lr, list] = await get('/api/v1/reviews', key)
      expectStatus(lr, list).toBe(200)
      expect(list.data.map((r: { id: string }) => r.id)).toEqual([body.id])
    } finally {
      t.deps.onOutbox = prev
    }
  })

  test('comment is optional (null)', async () => {
    const { store } = makeShop(t.deps)
    const product = makeProduct(t.deps, store.id)
    const [res, body] = await post({ storeId: store.id, productId: product.id, customerName: 'Bo', rating: 5 })
    expectStatus(res, body).toBe(201)
    expect(t.deps.db.select().from(reviews).where(eq(reviews.id, body.id)).get()!.comment).toBeNull()
  })

  test('400 schema: rating must be an integer 1–5, name and ids required, comment bounded, bad JSON', async () => {
    const { store } = makeShop(t.deps)
    const product = makeProduct(t.deps, store.id)
    const ok = { storeId: store.id, productId: product.id, customerName: 'Ana', rating: 3 }
    const cases: [unknown, string, string][] = [
      [{ ...ok, rating: 0 }, 'rating', 'out_of_range'],
      [{ ...ok, rating: 6 }, 'rating', 'out_of_range'],
      [{ ...ok, rating: 4.5 }, 'rating', 'invalid_type'],
      [{ ...ok, rating: 'five' }, 'rating', ''],
      [{ ...ok, customerName: undefined }, 'customerName', 'required'],
      [{ ...ok, customerName: '' }, 'customerName', 'out_of_range'],
      [{ ...ok, storeId: undefined }, 'storeId', 'required'],
      [{ ...ok, productId: undefined }, 'productId', 'required'],
      [{ ...ok, comment: 'x'.repeat(2001) }, 'comment', 'out_of_range'],
    ]
    for (const [body, field, reason] of cases) {
      const [res, out] = await post(body)
      expectStatus(res, out).toBe(400)
      expect(out.code).toBe('VALIDATION_ERROR')
      expect(out.details).toMatchObject(reason ? { field, reason } : { field })
    }
    const [res, out] = await post(undefined, { raw: '{"storeId":' })
    expectStatus(res, out).toBe(400)
    expect(t.deps.db.select().from(reviews).where(eq(reviews.storeId, store.id)).all()).toHaveLength(0)
  })

  test('402 for a suspended store (even unpublished), 404 for an unknown, unpublished or maintenance one', async () => {
    const s = makeStore(t.deps)
    const p = makeProduct(t.deps, s.id)
    const body = { storeId: s.id, productId: p.id, customerName: 'Ana', rating: 5 }
    t.deps.db.update(stores).set({ isPublished: false }).where(eq(stores.id, s.id)).run()
    t.deps.cache.invalidate(s.id)
    let [res, out] = await post(body)
    expectStatus(res, out).toBe(404)
    expect(out.code).toBe('NOT_FOUND')
    suspendStore({ ctx: { db: t.deps.db, clock }, input: { storeId: s.id, reason: 'unpaid' } })
    ;[res, out] = await post(body)
    expectStatus(res, out).toBe(402)
    expect(out).toEqual({
      error: 'payment_required',
      message: expect.any(String),
      state: 'suspended',
      upgradeUrl: t.config.upgradeUrl,
    })

    const m = makeStore(t.deps)
    const mp = makeProduct(t.deps, m.id)
    t.deps.db.update(stores).set({ isMaintenance: true }).where(eq(stores.id, m.id)).run()
    ;[res, out] = await post({ ...body, storeId: m.id, productId: mp.id })
    expectStatus(res, out).toBe(404)
    ;[res, out] = await post({ ...body, storeId: 'nosuchstore' })
    expectStatus(res, out).toBe(404)
  })

  test("400 productId not_found (missing, deleted, another store's) and inactive", async () => {
    const { store } = makeShop(t.deps)
    const other = makeStore(t.deps)
    const theirs = makeProduct(t.deps, other.id)
    const deleted = makeProduct(t.deps, store.id)
    deleteProduct({ ctx: ctxFor(t.deps, store), input: { id: deleted.id } })
    const inactive = makeProduct(t.deps, store.id, { isActive: false })
    const base = { storeId: store.id, customerName: 'Ana', rating: 5 }
    for (const [productId, reason] of [
      ['nosuchproduct', 'not_found'],
      [deleted.id, 'not_found'],
      [theirs.id, 'not_found'],
      [inactive.id, 'inactive'],
    ] as const) {
      const [res, out] = await post({ ...base, productId })
      expectStatus(res, out).toBe(400)
      expect(out.details).toEqual({ field: 'productId', reason })
    }
  })

  test('3 per 24 h per IP, every request counting (invalid ones too); 429 comes before 400', async () => {
    const { store } = makeShop(t.deps)
    const product = makeProduct(t.deps, store.id)
    const addr = '198.51.100.77'
    const good = { storeId: store.id, productId: product.id, customerName: 'Ana', rating: 5 }
    let [res, out] = await post({ ...good, rating: 9 }, { ip: addr })
    expectStatus(res, out).toBe(400)
    expect(res.headers.get('x-ratelimit-limit')).toBe('3')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('2')
    ;[res, out] = await post(good, { ip: addr })
    expectStatus(res, out).toBe(201)
    ;[res, out] = await post(good, { ip: addr })
    expectStatus(res, out).toBe(201)
    ;[res, out] = await post({ rating: 'bad' }, { ip: addr })
    expectStatus(res, out).toBe(429)
    expect(out.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another IP is unaffected; the same IP is allowed again after the window.
    ;[res, out] = await post(good, { ip: '198.51.100.78' })
    expectStatus(res, out).toBe(201)
    clock.advance(24 * 3600 * 1000 + 1000)
    ;[res, out] = await post(good, { ip: addr })
    expectStatus(res, out).toBe(201)
  })
})

describe('GET /api/v1/reviews', () => {
  test('list envelope, newest first, every field, filters status and productId, pagination', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'free' })
    const p1 = makeProduct(t.deps, store.id, { name: 'Cup' })
    const p2 = makeProduct(t.deps, store.id, { name: 'Plate' })
    const base = clock.now()
    const r1 = makeReview(t.deps, store.id, {
      productId: p1.id,
      status: 'approved',
      rating: 5,
      customerName: 'Ana',
      comment: 'Top',
      createdAt: base - 3000,
    })
    const r2 = makeReview(t.deps, store.id, {
      productId: p2.id,
      status: 'pending',
      rating: 2,
      customerName: 'Bo',
      comment: null,
      createdAt: base - 2000,
    })
    const r3 = makeReview(t.deps, store.id, {
      productId: p1.id,
      status: 'rejected',
      rating: 1,
      customerName: 'Cy',
      createdAt: base - 1000,
    })
    makeReview(t.deps, makeStore(t.deps).id) // another store's: never listed

    let [res, body] = await get('/api/v1/reviews', key)
    expectStatus(res, body).toBe(200)
    expect(body.total).toBe(3)
    expect(body.limit).toBe(50)
    expect(body.offset).toBe(0)
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([r3.id, r2.id, r1.id])
    expect(body.data[2]).toEqual({
      id: r1.id,
      productId: p1.id,
      productName: 'Cup',
      customerName: 'Ana',
      rating: 5,
      comment: 'Top',
      status: 'approved',
      createdAt: new Date(base - 3000).toISOString(),
      updatedAt: new Date(base - 3000).toISOString(),
    })
    expect(body.data[1].comment).toBeNull()

    ;[res, body] = await get('/api/v1/reviews?status=pending', key)
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([r2.id])
    expect(body.total).toBe(1)
    ;[res, body] = await get(`/api/v1/reviews?productId=${p1.id}`, key)
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([r3.id, r1.id])
    ;[res, body] = await get(`/api/v1/reviews?productId=${p1.id}&status=approved`, key)
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([r1.id])
    ;[res, body] = await get('/api/v1/reviews?limit=1&offset=1', key)
    expect(body).toMatchObject({ total: 3, limit: 1, offset: 1 })
    expect(body.data.map((r: { id: string }) => r.id)).toEqual([r2.id])

    ;[res, body] = await get('/api/v1/reviews?status=spam', key)
    expectStatus(res, body).toBe(400)
    expect(body.details.field).toBe('status')
    ;[res, body] = await get('/api/v1/reviews?limit=101', key)
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({ field: 'limit', reason: 'out_of_range' })
  })
})

describe('moderation', () => {
  for (const path of ['/api/v1/reviews/:id', '/api/v1/reviews/:id/moderate']) {
    test(`PUT ${path}: approve, re-moderate to rejected and back; pending → 400 not_allowed`, async () => {
      const { store, key } = makeShop(t.deps, { plan: 'pro' })
      const r = makeReview(t.deps, store.id, { createdAt: clock.now() - 5000 })
      const url = path.replace(':id', r.id)
      let [res, body] = await put(url, { status: 'approved' }, key)
      expectStatus(res, body).toBe(200)
      expect(body.data).toMatchObject({
        id: r.id,
        status: 'approved',
        createdAt: new Date(clock.now() - 5000).toISOString(),
        updatedAt: new Date(clock.now()).toISOString(),
      })
      ;[res, body] = await put(url, { status: 'rejected' }, key)
      expectStatus(res, body).toBe(200)
      expect(body.data.status).toBe('rejected')
      ;[res, body] = await put(url, { status: 'approved' }, key)
      expect(body.data.status).toBe('approved')
      ;[res, body] = await put(url, { status: 'pending' }, key)
      expectStatus(res, body).toBe(400)
      expect(body.details).toEqual({ field: 'status', reason: 'not_allowed' })
      ;[res, body] = await put(url, { status: 'spam' }, key)
      expectStatus(res, body).toBe(400)
      expect(body.details.field).toBe('status')
      ;[res, body] = await put(url, {}, key)
      expectStatus(res, body).toBe(400)
      expect(body.details).toMatchObject({ field: 'status', reason: 'required' })
      expect(t.deps.db.select().from(reviews).where(eq(reviews.id, r.id)).get()!.status).toBe('approved')
      ;[res, body] = await put(path.replace(':id', 'nosuchreview'), { status: 'approved' }, key)
      expectStatus(res, body).toBe(404)
    })
  }

  test("another store's review → 403 (even with status pending), missing → 404", async () => {
    const { key } = makeShop(t.deps, { plan: 'lifetime' })
    const theirs = makeReview(t.deps, makeStore(t.deps).id)
    let [res, body] = await put(`/api/v1/reviews/${theirs.id}`, { status: 'pending' }, key)
    expectStatus(res, body).toBe(403)
    expect(body.code).toBe('FORBIDDEN')
    ;[res, body] = await del(`/api/v1/reviews/${theirs.id}`, key)
    expectStatus(res, body).toBe(403)
    ;[res, body] = await del('/api/v1/reviews/nosuchreview', key)
    expectStatus(res, body).toBe(404)
    expect(t.deps.db.select().from(reviews).where(eq(reviews.id, theirs.id)).get()!.status).toBe('pending')
  })

  test('DELETE is a hard delete: { id, deleted: true }, then 404 and gone from the list', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro' })
    const r = makeReview(t.deps, store.id)
    let [res, body] = await del(`/api/v1/reviews/${r.id}`, key)
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({ data: { id: r.id, deleted: true } })
    expect(t.deps.db.select().from(reviews).where(eq(reviews.id, r.id)).get()).toBeUndefined()
    ;[res, body] = await del(`/api/v1/reviews/${r.id}`, key)
    expectStatus(res, body).toBe(404)
    ;[res, body] = await get('/api/v1/reviews', key)
    expect(body.total).toBe(0)
  })

  test(
    'the free plan reads reviews but may not moderate or delete (PLAN_REQUIRED reviewModeration), ' +
      '/moderate included',
    async () => {
      const { store, key } = makeShop(t.deps, { plan: 'free' })
      const r = makeReview(t.deps, store.id)
      let [res, body] = await get('/api/v1/reviews', key)
      expectStatus(res, body).toBe(200)
      for (const [method, path, payload] of [
        ['PUT', `/api/v1/reviews/${r.id}`, { status: 'approved' }],
        ['PUT', `/api/v1/reviews/${r.id}/moderate`, { status: 'approved' }],
        ['DELETE', `/api/v1/reviews/${r.id}`, undefined],
      ] as const) {
        ;[res, body] = await t.api.call(method, path, payload, { key, headers: { 'x-forwarded-proto': 'https' } })
        expectStatus(res, body).toBe(403)
        expect(body).toMatchObject({ code: 'PLAN_REQUIRED', feature: 'reviewModeration' })
      }
      expect(t.deps.db.select().from(reviews).where(eq(reviews.id, r.id)).get()!.status).toBe('pending')
    },
  )

  test('a key with reviews:read only may list but not moderate (403 naming reviews:write)', async () => {
    const { store } = makeShop(t.deps, { plan: 'pro' })
    const key = makeKey(t.deps, store.id, ['reviews:read'])
    const r = makeReview(t.deps, store.id)
    let [res, body] = await get('/api/v1/reviews', key)
    expectStatus(res, body).toBe(200)
    ;[res, body] = await put(`/api/v1/reviews/${r.id}`, { status: 'approved' }, key)
    expectStatus(res, body).toBe(403)
    expect(body.error).toContain('reviews:write')
    expect(uniq()).toBeTruthy()
  })
})
