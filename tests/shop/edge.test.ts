/**
 * The storefront's public edge: pictures only from this origin as a
 * browser resolves URLs, one visit per IP per store per 30 minutes, and a per-IP page limit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { sameOrigin } from '../../src/shop/views'
import { VISIT_DEDUP_MS } from '../../src/modules/public-catalog/visits'

const ORIGIN = 'https://shop.example.com'

describe('sameOrigin agrees with the WHATWG URL parser', () => {
  const forms = [
    '/media/s/a-320.webp',
    '/media/s/a-320.webp?v=1',
    `${ORIGIN}/media/s/a-320.webp`,
    '//evil.example/x.png',
    '/\\evil.example/x.png',
    '\\/evil.example/x.png',
    '/\\/evil.example/x.png',
    '/\t/evil.example/x.png',
    '/\n/evil.example/x.png',
    '/ /evil.example/x.png',
    '/%2F/evil.example/x.png',
    '/%5Cevil.example/x.png',
    `${ORIGIN}.evil.example/x.png`,
    `${ORIGIN}@evil.example/x.png`,
    'https://evil.example/x.png',
    'http://shop.example.com/x.png',
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    '/../../etc/passwd',
    '/media/../x.png',
    'https:evil.example/x.png',
    '',
  ]
  for (const form of forms) {
    test(JSON.stringify(form), () => {
      const kept = sameOrigin(form, ORIGIN)
      const resolved = (() => {
        try {
          return new URL(form, `${ORIGIN}/`)
        } catch {
          return undefined
        }
      })()
      if (kept !== undefined) {
        // What is kept is a path that resolves, in a browser, on our origin.
        expect(kept.startsWith('/')).toBe(true)
        expect(new URL(kept, `${ORIGIN}/`).origin).toBe(ORIGIN)
        expect(resolved?.origin).toBe(ORIGIN)
      } else if (form.startsWith('/') || form.startsWith(`${ORIGIN}/`)) {
        // Refused although it looks local: the parser takes it elsewhere.
        expect(resolved?.origin).not.toBe(ORIGIN)
      }
    })
  }
  test('the backslash forms from the review are refused', () => {
    expect(sameOrigin('/\\evil.example/x.png', ORIGIN)).toBeUndefined()
    expect(sameOrigin('/\t/evil.example/x.png', ORIGIN)).toBeUndefined()
    expect(sameOrigin('/media/s/a-320.webp', ORIGIN)).toBe('/media/s/a-320.webp')
  })
})

describe('visits and the page limit, per client IP', () => {
  let t: TestApp
  const clock = fixedClock(Date.UTC(2026, 10, 2))
  beforeAll(() => {
    t = makeApp({ trustProxy: true, publicUrl: ORIGIN, shopPagesPerIpPerMin: 5, rateLimitStoreReads: 1000 }, { clock })
  })
  afterAll(() => t.close())
  const visits = (storeId: string) =>
    (t.deps.visits.flush(), t.deps.db.$client)
      .query<{ n: number }, [string]>('SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?')
      .get(storeId)!.n
  const page = (path: string, ip: string) =>
    t.app.handle(
      new Request(`http://localhost${path}`, { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': ip } }),
    )

  test('300 loads from one IP are one visit; another IP is another; after 30 minutes it counts again', async () => {
    const { store } = makeShop(t.deps)
    for (let i = 0; i < 4; i++) expect((await page(`/s/${store.slug}`, '198.51.100.7')).status).toBe(200)
    for (let i = 0; i < 300; i++)
      await t.api.get(`/api/v1/stores/${store.slug}`, {
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' },
      })
    expect(visits(store.id)).toBe(1)
    await page(`/s/${store.slug}`, '198.51.100.8')
    await page(`/s/${store.slug}`, '198.51.100.8:4242')
    expect(visits(store.id)).toBe(2)
    clock.advance(VISIT_DEDUP_MS)
    await page(`/s/${store.slug}`, '198.51.100.7')
    expect(visits(store.id)).toBe(3)
  })

  test(
    'past SHOP_PAGES_PER_IP_PER_MIN pages a minute → 429 page with Retry-After in the store language; ' +
      'other IPs are served',
    async () => {
      const { store, key } = makeShop(t.deps)
      await t.api.put(
        '/api/v1/store',
        { language: 'es' },
        { key, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.1' } },
      )
      clock.advance(60_000)
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) statuses.push((await page(`/s/${store.slug}`, '203.0.113.50')).status)
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
      const res = await page(`/s/${store.slug}`, '203.0.113.50')
      expect(res.status).toBe(429)
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await res.text()).toContain('Demasiadas páginas a la vez')
      expectStatus(await page(`/s/${store.slug}`, '203.0.113.51'), '').toBe(200)
      clock.advance(60_000)
      expect((await page(`/s/${store.slug}`, '203.0.113.50')).status).toBe(200)
    },
  )
})
