/** Public storefront reads: GET /api/v1/stores (directory) and GET /api/v1/stores/:slug (catalog). */
import { describe, expect, test } from 'bun:test'
import { appForFile, makeApp, expectStatus, windowStartClock } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { makeShipping } from '../helpers/factories'
import { suspendStore, reinstateStore } from '../../src/modules/platform-stores/service'
import { reviews } from '../../src/db/schema'
import { fixedClock, systemClock } from '../../src/lib/time'
import { makeKey } from '../helpers/factories'

const t = appForFile()

// Visits are written behind (public-catalog/visits.ts): flush them before counting rows.
const visits = (storeId: string) =>
  (t.deps.visits.flush(), t.deps.db.$client)
    .query<{ n: number }, [string]>('SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?')
    .get(storeId)!.n

function addReview(storeId: string, productId: string, rating: number, status: 'pending' | 'approved' | 'rejected') {
  const now = Date.now()
  t.deps.db
    .insert(reviews)
    .values({ storeId, productId, customerName: 'Rev', rating, comment: null, status, createdAt: now, updatedAt: now })
    .run()
}

describe('GET /api/v1/stores (directory)', () => {
  test('lists published, live stores only, entries exactly { name, slug, description, currency }', async () => {
    const tag = uniq('dir').toLowerCase()
    const live = makeShop(t.deps, { name: `${tag} Live`, description: 'We sell mugs', currency: 'EUR' })
    const unpublished = makeShop(t.deps, { name: `${tag} Hidden` })
    const maintenance = makeShop(t.deps, { name: `${tag} Maint` })
    const suspended = makeShop(t.deps, { name: `${tag} Suspended` })
    await t.api.put('/api/v1/store', { isPublished: false }, { key: unpublished.key })
    await t.api.put('/api/v1/store', { isMaintenance: true }, { key: maintenance.key })
    suspendStore({
      ctx: { db: t.deps.db, clock: systemClock },
      input: { storeId: suspended.store.id, reason: 'unpaid' },
    })

    const [res, body] = await t.api.get(`/api/v1/stores?q=${tag}`)
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({
      data: [{ name: live.store.name, slug: live.store.slug, description: 'We sell mugs', currency: 'EUR' }],
      total: 1,
      limit: 50,
      offset: 0,
    })
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(t.config.rateLimitStoreReads))
  })

  test('q matches name or slug ignoring case; % and _ are literal', async () => {
    const tag = uniq('q').toLowerCase().replace(/-/g, '')
    const byName = makeShop(t.deps, { name: `Casa ${tag.toUpperCase()} Bonita`, slug: uniq('zz').toLowerCase() })
    const bySlug = makeShop(t.deps, { name: uniq('Other'), slug: `${tag}-shop` })
    makeShop(t.deps, { name: 'Percent 100% Shop' })
    const [, body] = await t.api.get(`/api/v1/stores?q=${tag.slice(0, 6).toUpperCase()}${tag.slice(6)}`)
    expect(body.data.map((s: { slug: string }) => s.slug).sort()).toEqual([byName.store.slug, bySlug.store.slug].sort())
    const [, pct] = await t.api.get(`/api/v1/stores?q=${encodeURIComponent('%')}`)
    expect(pct.data.map((s: { name: string }) => s.name)).toEqual(['Percent 100% Shop'])
    const [, underscore] = await t.api.get('/api/v1/stores?q=_')
    expect(underscore.total).toBe(0)
  })

  test('paginates with total before pagination; bad limit → 400', async () => {
    const tag = uniq('pg').toLowerCase()
    for (let i = 0; i < 3; i++) makeShop(t.deps, { name: `${tag} ${i}` })
    const [, page] = await t.api.get(`/api/v1/stores?q=${tag}&limit=2&offset=1`)
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 })
    expect(page.data.map((s: { name: string }) => s.name)).toEqual([`${tag} 1`, `${tag} 2`])
    const [res, body] = await t.api.get('/api/v1/stores?limit=101')
    expectStatus(res, body).toBe(400)
    expect(body.details.field).toBe('limit')
  })
})

describe('GET /api/v1/stores/:slug', () => {
  async function catalogShop() {
    const shop = makeShop(t.deps, { description: 'Handmade', whatsapp: '+14155550123' })
    const { key, store } = shop
    await t.api.put('/api/v1/store', { whatsappTemplate: 'Hola {tienda}' }, { key })
    const [, c2] = await t.api.post('/api/v1/categories', { name: 'Second', position: 2 }, { key })
    const [, c1] = await t.api.post('/api/v1/categories', { name: 'First', position: 1 }, { key })
    await t.api.post('/api/v1/categories', { name: 'Off', position: 0, isActive: false }, { key })
    const [, mug] = await t.api.post(
      '/api/v1/products',
      {
        name: 'Mug',
        price: 12.5,
        categoryId: c1.data.id,
        variants: [
          { name: 'Red', price: 12.5 },
          { name: 'Blue', price: 13, isActive: false },
        ],
      },
      { key },
    )
    const [, cup] = await t.api.post('/api/v1/products', { name: 'Cup', price: 8 }, { key })
    const [, hidden] = await t.api.post('/api/v1/products', { name: 'Hidden', price: 1, isActive: false }, { key })
    const [, gone] = await t.api.post('/api/v1/products', { name: 'Gone', price: 1 }, { key })
    await t.api.delete(`/api/v1/products/${gone.data.id}`, { key })
    const cheap = makeShipping(t.deps, store.id, { name: 'Post', price: 300 })
    const fast = makeShipping(t.deps, store.id, { name: 'Express', price: 999, estimatedDays: 1 })
    makeShipping(t.deps, store.id, { name: 'Off', price: 100, isActive: false })
    addReview(store.id, mug.data.id, 5, 'approved')
    addReview(store.id, mug.data.id, 4, 'approved')
    addReview(store.id, mug.data.id, 4, 'approved')
    addReview(store.id, mug.data.id, 1, 'pending')
    addReview(store.id, mug.data.id, 1, 'rejected')
    addReview(store.id, cup.data.id, 2, 'pending')
    return { ...shop, c1: c1.data, c2: c2.data, mug: mug.data, cup: cup.data, hidden: hidden.data, cheap, fast }
  }

  test(
    'store info, active categories by position, active products with active variants and review stats, ' +
      'active shipping',
    async () => {
      const s = await catalogShop()
      const [res, body] = await t.api.get(`/api/v1/stores/${s.store.slug}`)
      expectStatus(res, body).toBe(200)
      const d = body.data
      expect(Object.keys(d).sort()).toEqual(['categories', 'products', 'shippingOptions', 'store'])
      expect(d.store).toEqual({
        id: s.store.id,
        name: s.store.name,
        slug: s.store.slug,
        description: 'Handmade',
        currency: 'USD',
        whatsappNumber: '+14155550123',
        whatsappTemplate: 'Hola {tienda}',
        language: 'en',
      })
      expect(JSON.stringify(d)).not.toContain('"plan"')
      expect(JSON.stringify(d)).not.toContain('"status"')
      expect(d.categories).toEqual([
        { id: s.c1.id, name: 'First', slug: s.c1.slug, position: 1 },
        { id: s.c2.id, name: 'Second', slug: s.c2.slug, position: 2 },
      ])
      expect(d.products.map((p: { name: string }) => p.name)).toEqual(['Cup', 'Mug'])
      const mug = d.products.find((p: { id: string }) => p.id === s.mug.id)
      // The product as the API shows it, less the stock counts (shown only when the store opts in).
      const { stock: _stock, ...publicMug } = s.mug
      expect(mug).toEqual({
        ...publicMug,
        variants: s.mug.variants.map(({ stock: _s, ...v }: { stock: unknown }) => v),
        reviewCount: 3,
        averageRating: 4.33,
      })
      expect(mug.variants.map((v: { name: string }) => v.name)).toEqual(['Red'])
      const cup = d.products.find((p: { id: string }) => p.id === s.cup.id)
      expect(cup).toMatchObject({ reviewCount: 0, averageRating: null })
      expect(d.shippingOptions).toEqual([
        { id: s.cheap.id, name: 'Post', price: 3, description: null, estimatedDays: 3 },
        { id: s.fast.id, name: 'Express', price: 9.99, description: null, estimatedDays: 1 },
      ])
    },
  )

  test('needs no key, and an API key is not required to be valid', async () => {
    const { store } = makeShop(t.deps)
    const [res, body] = await t.api.get(`/api/v1/stores/${store.slug}`, {
      headers: { authorization: 'Bearer nonsense' },
    })
    expectStatus(res, body).toBe(200)
    expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull()
  })

  test('each read records one catalog visit, cached or not; failed reads record none', async () => {
    const { store, key } = makeShop(t.deps)
    expect(visits(store.id)).toBe(0)
    for (let i = 0; i < 3; i++) expect((await t.api.get(`/api/v1/stores/${store.slug}`))[0].status).toBe(200)
    expect(visits(store.id)).toBe(3)
    await t.api.put('/api/v1/store', { isMaintenance: true }, { key })
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[0].status).toBe(404)
    expect(visits(store.id)).toBe(3)
    // The directory is not a catalog visit.
    await t.api.get('/api/v1/stores')
    expect(visits(store.id)).toBe(3)
  })

  test('writes through the API show at once (the cached body is dropped)', async () => {
    const { store, key } = makeShop(t.deps)
    const [, first] = await t.api.get(`/api/v1/stores/${store.slug}`)
    expect(first.data.products).toEqual([])
    const [, p] = await t.api.post('/api/v1/products', { name: 'Teapot', price: 20 }, { key })
    const [, second] = await t.api.get(`/api/v1/stores/${store.slug}`)
    expect(second.data.products.map((x: { id: string }) => x.id)).toEqual([p.data.id])
    await t.api.put(`/api/v1/products/${p.data.id}`, { price: 22 }, { key })
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[1].data.products[0].price).toBe(22)
    await t.api.put('/api/v1/store', { name: 'Renamed Shop' }, { key })
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[1].data.store.name).toBe('Renamed Shop')
    const [, ship] = await t.api.post('/api/v1/shipping', { name: 'Bike', price: 2 }, { key })
    expect(
      (await t.api.get(`/api/v1/stores/${store.slug}`))[1].data.shippingOptions.map((x: { id: string }) => x.id),
    ).toEqual([ship.data.id])
    await t.api.delete(`/api/v1/shipping/${ship.data.id}`, { key })
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[1].data.shippingOptions).toEqual([])
    const [, cat] = await t.api.post('/api/v1/categories', { name: 'Tea' }, { key })
    expect(
      (await t.api.get(`/api/v1/stores/${store.slug}`))[1].data.categories.map((x: { id: string }) => x.id),
    ).toEqual([cat.data.id])
    // A renamed slug: the old one is gone, the new one serves the same store.
    const slug = uniq('moved').toLowerCase()
    await t.api.put('/api/v1/store', { slug }, { key })
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[0].status).toBe(404)
    expect((await t.api.get(`/api/v1/stores/${slug}`))[1].data.store.id).toBe(store.id)
  })

  test('a write by another process (the admin CLI) shows too', async () => {
    const { store } = makeShop(t.deps)
    await t.api.get(`/api/v1/stores/${store.slug}`)
    t.adminDb().$client.run('UPDATE stores SET description = ? WHERE id = ?', ['From the CLI', store.id])
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[1].data.store.description).toBe('From the CLI')
  })

  test('unknown, unpublished and maintenance stores → 404', async () => {
    expect((await t.api.get('/api/v1/stores/no-such-store'))[0].status).toBe(404)
    const a = makeShop(t.deps)
    await t.api.put('/api/v1/store', { isPublished: false }, { key: a.key })
    const [res, body] = await t.api.get(`/api/v1/stores/${a.store.slug}`)
    expectStatus(res, body).toBe(404)
    expect(body.code).toBe('NOT_FOUND')
    const b = makeShop(t.deps)
    await t.api.get(`/api/v1/stores/${b.store.slug}`) // cached before maintenance
    await t.api.put('/api/v1/store', { isMaintenance: true }, { key: b.key })
    expect((await t.api.get(`/api/v1/stores/${b.store.slug}`))[0].status).toBe(404)
    await t.api.put('/api/v1/store', { isMaintenance: false }, { key: b.key })
    expect((await t.api.get(`/api/v1/stores/${b.store.slug}`))[0].status).toBe(200)
  })

  test('a suspended store → 402 with the exact spec body (even when unpublished); reinstated → 200', async () => {
    const { store, key } = makeShop(t.deps)
    await t.api.get(`/api/v1/stores/${store.slug}`) // cached while active
    await t.api.put('/api/v1/store', { isPublished: false }, { key })
    suspendStore({ ctx: { db: t.adminDb(), clock: systemClock }, input: { storeId: store.id, reason: 'chargeback' } })
    const [res, body] = await t.api.get(`/api/v1/stores/${store.slug}`)
    expectStatus(res, body).toBe(402)
    expect(body).toEqual({
      error: 'payment_required',
      message: expect.any(String),
      state: 'suspended',
      upgradeUrl: t.config.upgradeUrl,
    })
    expect(visits(store.id)).toBe(1)
    reinstateStore({ ctx: { db: t.adminDb(), clock: systemClock }, input: { storeId: store.id } })
    t.adminDb().$client.run('UPDATE stores SET is_published = 1 WHERE id = ?', [store.id])
    expect((await t.api.get(`/api/v1/stores/${store.slug}`))[0].status).toBe(200)
  })

  test('review stats for many products are right (one grouped query)', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'lifetime' })
    const ids: string[] = []
    for (let i = 0; i < 12; i++)
      ids.push((await t.api.post('/api/v1/products', { name: `P${i}`, price: 1 }, { key }))[1].data.id)
    ids.forEach((id, i) => {
      for (let r = 0; r < i % 4; r++) addReview(store.id, id, (r % 5) + 1, 'approved')
    })
    // reviews were inserted behind the API's back
    await t.api.put('/api/v1/store', { description: 'bust cache' }, { key })
    const [, body] = await t.api.get(`/api/v1/stores/${store.slug}`)
    for (const p of body.data.products as { id: string; reviewCount: number; averageRating: number | null }[]) {
      const i = ids.indexOf(p.id)
      const n = i % 4
      const ratings = Array.from({ length: n }, (_, r) => (r % 5) + 1)
      expect(p.reviewCount).toBe(n)
      expect(p.averageRating).toBe(n ? Math.round((ratings.reduce((a, b) => a + b, 0) / n) * 100) / 100 : null)
    }
  })
})

describe('per-IP limit (storeReads bucket)', () => {
  test('every request counts, rejected ones included; headers; 429 body with Retry-After; per IP', async () => {
    const limited = makeApp({ trustProxy: true, rateLimitStoreReads: 3 }, { clock: windowStartClock() })
    try {
      const { store } = makeShop(limited.deps)
      const opts = (ip: string) => ({ ip, headers: { 'x-forwarded-proto': 'https' } })
      const [r1] = await limited.api.get(`/api/v1/stores/${store.slug}`, opts('10.0.0.1'))
      expect(r1.status).toBe(200)
      expect(r1.headers.get('x-ratelimit-limit')).toBe('3')
      expect(r1.headers.get('x-ratelimit-remaining')).toBe('2')
      const [r2] = await limited.api.get('/api/v1/stores/does-not-exist', opts('10.0.0.1'))
      expect(r2.status).toBe(404)
      expect(r2.headers.get('x-ratelimit-remaining')).toBe('1')
      const [r3] = await limited.api.get('/api/v1/stores?limit=1000', opts('10.0.0.1'))
      expect(r3.status).toBe(400)
      expect(r3.headers.get('x-ratelimit-remaining')).toBe('0')
      const [r4, b4] = await limited.api.get(`/api/v1/stores/${store.slug}`, opts('10.0.0.1'))
      expectStatus(r4, b4).toBe(429)
      expect(b4.code).toBe('RATE_LIMIT_EXCEEDED')
      expect(b4.error).toMatch(/\d+ seconds/)
      expect(Number(r4.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(r4.headers.get('x-ratelimit-remaining')).toBe('0')
      // The rejected read recorded no visit.
      limited.deps.visits.flush()
      expect(
        limited.deps.db.$client
          .query<{ n: number }, [string]>('SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?')
          .get(store.id)!.n,
      ).toBe(1)
      const [r5] = await limited.api.get(`/api/v1/stores/${store.slug}`, opts('10.0.0.2'))
      expect(r5.status).toBe(200)
    } finally {
      limited.close()
    }
  })
})

test('products made in the same millisecond list in the order they were made, newest first', async () => {
  // A clock that stands still: every product gets the same created_at, so only the order of
  // making can tell them apart (their ids are random).
  using app = makeApp({}, { clock: fixedClock() })
  const { store } = makeShop(app.deps, { name: 'Same Moment' })
  const key = makeKey(app.deps, store.id)
  const names = ['One', 'Two', 'Three', 'Four', 'Five', 'Six']
  for (const name of names) await app.api.post('/api/v1/products', { name, price: 1 }, { key })
  const [res, body] = await app.api.get(`/api/v1/stores/${store.slug}`)
  expectStatus(res, body).toBe(200)
  expect(body.data.products.map((p: { name: string }) => p.name)).toEqual([...names].reverse())
  const [, list] = await app.api.get('/api/v1/products', { key })
  expect(list.data.map((p: { name: string }) => p.name)).toEqual([...names].reverse())
})
