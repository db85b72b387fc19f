/**
 * The storefront pages over HTTP: catalog, product, cart, directory, friendly errors, caching, assets, sitemap, robots.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, makeApp, expectStatus } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { makeShipping } from '../helpers/factories'
import { suspendStore } from '../../src/modules/platform-stores/service'
import { systemClock } from '../../src/lib/time'
import { stores } from '../../src/db/schema'
import { eq } from 'drizzle-orm'
import { ASSETS } from '../../src/shop/assets'

const t = appForFile()

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await t.app.handle(new Request(`http://localhost${path}`, { headers }))
  return [res, await res.text()] as const
}

// Visits are written behind (public catalog visits.ts): flush them before counting rows.
const visits = (storeId: string) =>
  (t.deps.visits.flush(), t.deps.db.$client)
    .query<{ n: number }, [string]>('SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?')
    .get(storeId)!.n

/** A store with a category, a product with two variants, one without, and a shipping option. */
async function shop(input: Parameters<typeof makeShop>[1] = {}) {
  const { store, key } = makeShop(t.deps, { description: 'Mugs & more', ...input })
  const [, cat] = await t.api.post('/api/v1/categories', { name: 'Mugs', slug: 'mugs' }, { key })
  const [r1, mug] = await t.api.post(
    '/api/v1/products',
    {
      name: 'Big Mug',
      price: 12.5,
      comparePrice: 15,
      description: 'Holds a lot',
      categoryId: cat.data.id,
      variants: [
        { name: 'Red', price: 12.5 },
        { name: 'Blue', price: 13 },
      ],
    },
    { key },
  )
  expectStatus(r1, mug).toBe(201)
  const [, plate] = await t.api.post('/api/v1/products', { name: 'Plate', price: 8 }, { key })
  makeShipping(t.deps, store.id, { name: 'Courier', price: 450 })
  return { store, key, mug: mug.data, plate: plate.data, category: cat.data }
}

describe('GET /s/:slug (catalog)', () => {
  test('server-rendered: store, categories, products, prices, compare-at price; CSP: no inline script', async () => {
    const { store, mug } = await shop({ name: 'Casa Taza' })
    const [res, body] = await get(`/s/${store.slug}`)
    expectStatus(res, body).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(body).toContain('<h1>Casa Taza</h1>')
    expect(body).toContain('Mugs &amp; more')
    expect(body).toContain('<h2 id="c-mugs">Mugs</h2>')
    expect(body).toContain(`href="/s/${store.slug}/p/${mug.slug}"`)
    expect(body).toContain('From <span>$12.50</span>')
    expect(body).toContain('<s>$15.00</s>')
    expect(body).toContain('href="https://wa.me/14155550100"')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("default-src 'none'")
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    // Every script and stylesheet is our own hashed asset.
    for (const m of body.matchAll(/(?:src|href)="([^"]+)"/g))
      expect(m[1]).toMatch(/^(\/[^/]|#|http:\/\/localhost\/|https:\/\/wa\.me\/)/)
    expect(body).toContain(`<script src="${ASSETS['shop.js'].url}" defer></script>`)
    expect(body).not.toMatch(/<script>/)
  })

  test('store text is escaped everywhere, JSON-LD included', async () => {
    const { store, key } = makeShop(t.deps, { name: 'Evil <b>Shop</b>', description: '"quoted" <i>desc</i>' })
    await t.api.post('/api/v1/products', { name: '<img src=x onerror=alert(1)>', price: 1 }, { key })
    await t.api.post(
      '/api/v1/products',
      { name: '</script><script>alert(2)</script>', slug: 'closer', price: 1 },
      { key },
    )
    const [, body] = await get(`/s/${store.slug}`)
    expect(body).not.toContain('<img src=x')
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(body).not.toContain('<b>Shop</b>')
    expect(body).toContain('content="&quot;quoted&quot; &lt;i&gt;desc&lt;/i&gt;"')
    expect(body).not.toContain('</script><script>alert(2)')
    const [, page] = await get(`/s/${store.slug}/p/closer`)
    expect(page).not.toContain('</script><script>alert(2)')
    const ld = page.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]!
    expect(JSON.parse(ld).name).toBe('</script><script>alert(2)</script>')
  })

  test('ETag / 304; a write through the API drops the cached page', async () => {
    const { store, key, plate } = await shop()
    const [r1, b1] = await get(`/s/${store.slug}`)
    const etag = r1.headers.get('etag')!
    expect(etag).toMatch(/^W\/".+"$/)
    expect(r1.headers.get('cache-control')).toBe('no-cache')
    const [r2, b2] = await get(`/s/${store.slug}`, { 'if-none-match': etag })
    expect(r2.status).toBe(304)
    expect(b2).toBe('')
    const [, again] = await get(`/s/${store.slug}`)
    expect(again).toBe(b1)

    const [ru, bu] = await t.api.put(`/api/v1/products/${plate.id}`, { name: 'Dinner Plate' }, { key })
    expectStatus(ru, bu).toBe(200)
    const [r3, b3] = await get(`/s/${store.slug}`, { 'if-none-match': etag })
    expect(r3.status).toBe(200)
    expect(r3.headers.get('etag')).not.toBe(etag)
    expect(b3).toContain('Dinner Plate')
  })

  test("another process's write (the admin CLI) is seen too", async () => {
    const { store } = await shop()
    await get(`/s/${store.slug}`)
    t.adminDb().update(stores).set({ name: 'Renamed by CLI' }).where(eq(stores.id, store.id)).run()
    const [, body] = await get(`/s/${store.slug}`)
    expect(body).toContain('<h1>Renamed by CLI</h1>')
  })

  test('gzip when the client accepts it', async () => {
    const { store } = await shop()
    const [plain, text] = await get(`/s/${store.slug}`)
    const res = await t.app.handle(
      new Request(`http://localhost/s/${store.slug}`, { headers: { 'accept-encoding': 'gzip, br' } }),
    )
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toBe('accept-encoding')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await res.arrayBuffer())))).toBe(text)
  })

  test('catalog and product views count as catalog visits; the cart page and 404s do not', async () => {
    const { store, mug } = await shop()
    expect(visits(store.id)).toBe(0)
    await get(`/s/${store.slug}`)
    const [r] = await get(`/s/${store.slug}`)
    await get(`/s/${store.slug}`, { 'if-none-match': r.headers.get('etag')! })
    await get(`/s/${store.slug}/p/${mug.slug}`)
    expect(visits(store.id)).toBe(4)
    await get(`/s/${store.slug}/cart`)
    await get(`/s/${store.slug}/p/nope`)
    expect(visits(store.id)).toBe(4)
  })

  test("words and money in the store's language and currency", async () => {
    const { store, key } = makeShop(t.deps, { currency: 'EUR' })
    await t.api.put('/api/v1/store', { language: 'es' }, { key })
    const [, p] = await t.api.post('/api/v1/products', { name: 'Taza', price: 1234.5 }, { key })
    const [, cat] = await get(`/s/${store.slug}`)
    expect(cat).toContain('<html lang="es">')
    expect(cat).toContain('Carrito')
    expect(cat).toContain(new Intl.NumberFormat('es', { style: 'currency', currency: 'EUR' }).format(1234.5))
    const [, page] = await get(`/s/${store.slug}/p/${p.data.slug}`)
    expect(page).toContain('Agregar al carrito')
    await t.api.put('/api/v1/store', { language: 'pt' }, { key })
    const [, pt] = await get(`/s/${store.slug}/p/${p.data.slug}`)
    expect(pt).toContain('<html lang="pt">')
    expect(pt).toContain('Adicionar ao carrinho')
  })
})

describe('GET /s/:slug/p/:product', () => {
  test('variant picker (labelled radios), quantity, add button, review average, OG tags, Product JSON-LD', async () => {
    const { store, mug } = await shop({ name: 'Mug House' })
    const now = Date.now()
    for (const rating of [5, 4]) {
      t.deps.db.$client.run(
        'INSERT INTO reviews (id, store_id, product_id, customer_name, rating, status, created_at, ' +
          "updated_at) VALUES (?, ?, ?, 'R', ?, 'approved', ?, ?)",
        [uniq('r'), store.id, mug.id, rating, now, now],
      )
    }
    t.deps.cache.invalidate(store.id)
    const [res, body] = await get(`/s/${store.slug}/p/${mug.slug}`)
    expectStatus(res, body).toBe(200)
    expect(body).toContain('<title>Big Mug · Mug House</title>')
    expect(body).toContain('<meta name="description" content="Holds a lot">')
    expect(body).toContain('<meta property="og:type" content="product">')
    expect(body).toContain(`<meta property="og:url" content="http://localhost/s/${store.slug}/p/${mug.slug}">`)
    expect(body).toContain('<legend>Choose an option</legend>')
    expect(body).toMatch(
      /<label class="opt"><input type="radio" name="variant" value="[^"]+" checked required> <span>Red<\/span>/,
    )
    expect(body).toContain('<label for="qty">Quantity</label>')
    expect(body).toContain('<button type="submit">Add to cart</button>')
    expect(body).toContain('Rated 4.5 out of 5 · 2 reviews')
    const ld = JSON.parse(body.match(/<script type="application\/ld\+json">([^<]*)<\/script>/)![1]!)
    expect(ld).toMatchObject({
      '@type': 'Product',
      name: 'Big Mug',
      offers: {
        '@type': 'AggregateOffer',
        priceCurrency: 'USD',
        lowPrice: 12.5,
        highPrice: 13,
        availability: 'https://schema.org/InStock',
      },
      aggregateRating: { ratingValue: 4.5, reviewCount: 2 },
    })
  })

  test('an unknown or inactive product → friendly 404 page', async () => {
    const { store, key, plate } = await shop()
    await t.api.put(`/api/v1/products/${plate.id}`, { isActive: false }, { key })
    for (const p of ['nope', plate.slug]) {
      const [res, body] = await get(`/s/${store.slug}/p/${p}`)
      expect(res.status).toBe(404)
      expect(body).toContain('<h1>Page not found</h1>')
    }
  })
})

describe('cart page', () => {
  test('a labelled checkout form and the data block the script reads; not indexed', async () => {
    const { store, mug, plate } = await shop()
    const [res, body] = await get(`/s/${store.slug}/cart`)
    expectStatus(res, body).toBe(200)
    expect(body).toContain('<meta name="robots" content="noindex">')
    for (const [id, label] of [
      ['name', 'Name'],
      ['phone', 'Phone'],
      ['address', 'Address'],
      ['notes', 'Notes (optional)'],
      ['discountCode', 'Discount code (optional)'],
    ]) {
      expect(body).toContain(`<label for="${id}">${label}</label>`)
      expect(body).toContain(`id="${id}-err"`)
    }
    expect(body).toContain('<legend>Shipping</legend>')
    const data = JSON.parse(body.match(/<script type="application\/json" id="shop-data">([^<]*)<\/script>/)![1]!)
    expect(data.storeId).toBe(store.id)
    expect(data.products[plate.id]).toEqual({ name: 'Plate', price: 8, inStock: true, variants: {} })
    expect(Object.values(data.products[mug.id].variants)).toEqual([
      { name: 'Red', price: 12.5, inStock: true },
      { name: 'Blue', price: 13, inStock: true },
    ])
  })
})

describe('stores that are not open', () => {
  test('unknown → 404; unpublished and maintenance → 404 in the store language; suspended → 503', async () => {
    const [r0, b0] = await get('/s/no-such-store')
    expect(r0.status).toBe(404)
    expect(b0).toContain('<h1>Page not found</h1>')
    expect(r0.headers.get('content-type')).toBe('text/html; charset=utf-8')
    for (const path of ['/s/no-such-store/', '/s/x/y/z', '/s/']) {
      const [res, body] = await get(path)
      expect(res.status).toBe(404)
      expect(body).toContain('<h1>Page not found</h1>')
    }

    const { store, key } = await shop()
    await get(`/s/${store.slug}`) // cached while open
    await t.api.put('/api/v1/store', { isPublished: false, language: 'es' }, { key })
    const [r1, b1] = await get(`/s/${store.slug}`)
    expect(r1.status).toBe(404)
    expect(b1).toContain('Página no encontrada')
    await t.api.put('/api/v1/store', { isPublished: true, isMaintenance: true }, { key })
    expect((await get(`/s/${store.slug}/cart`))[0].status).toBe(404)
    await t.api.put('/api/v1/store', { isMaintenance: false }, { key })
    expect((await get(`/s/${store.slug}`))[0].status).toBe(200)

    suspendStore({ ctx: { db: t.deps.db, clock: systemClock }, input: { storeId: store.id, reason: 'unpaid' } })
    t.deps.cache.invalidate(store.id)
    const [r2, b2] = await get(`/s/${store.slug}`)
    expect(r2.status).toBe(503)
    expect(b2).toContain('No disponible por ahora')
    expect(visits(store.id)).toBe(2)
  })
})

describe('directory, sitemap, robots, assets', () => {
  test('GET / redirects to the only published store, lists several, says so when there are none', async () => {
    const local = makeApp()
    try {
      const call = (p: string) => local.app.handle(new Request(`http://localhost${p}`))
      const none = await call('/')
      expect(none.status).toBe(200)
      expect(await none.text()).toContain('There are no stores to show yet.')
      const a = makeShop(local.deps, { name: 'Alpha' })
      const one = await call('/')
      expect(one.status).toBe(302)
      expect(one.headers.get('location')).toBe(`/s/${a.store.slug}`)
      makeShop(local.deps, { name: 'Beta <3' })
      const hidden = makeShop(local.deps, { name: 'Hidden' })
      await local.api.put('/api/v1/store', { isPublished: false }, { key: hidden.key })
      const two = await call('/')
      const html = await two.text()
      expect(two.status).toBe(200)
      expect(html).toContain('>Alpha</a>')
      expect(html).toContain('>Beta &lt;3</a>')
      expect(html).not.toContain('Hidden')
    } finally {
      local.close()
    }
  })

  test('sitemap.xml lists the catalog and every product page; robots.txt points to it', async () => {
    const { store, mug, plate } = await shop()
    const [res, xml] = await get(`/s/${store.slug}/sitemap.xml`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    expect(xml).toContain(`<loc>http://localhost/s/${store.slug}</loc>`)
    expect(xml).toContain(`<loc>http://localhost/s/${store.slug}/p/${mug.slug}</loc>`)
    expect(xml).toContain(`<loc>http://localhost/s/${store.slug}/p/${plate.slug}</loc>`)
    const [r2, robots] = await get('/robots.txt')
    expect(r2.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(robots).toContain('User-agent: *')
    expect(robots).toContain('Disallow: /api/')
    expect(robots).toContain(`Sitemap: http://localhost/s/${store.slug}/sitemap.xml`)
  })

  test('assets: content-hashed names, immutable caching, gzip; ≤ 20 KB gzipped script + stylesheet', async () => {
    for (const a of Object.values(ASSETS)) {
      expect(a.url).toMatch(/^\/assets\/[a-z]+\.[0-9a-f]{12}\.(js|css|svg)$/)
      const [res, body] = await get(a.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(res.headers.get('content-type')).toBe(a.type)
      expect(body).toBe(await a.body.text())
    }
    const total = ASSETS['shop.js'].gzip.size + ASSETS['shop.css'].gzip.size
    expect(total).toBeLessThanOrEqual(20 * 1024)
    const [stale] = await get('/assets/shop.000000000000.js')
    expect(stale.status).toBe(404)
  })
})
