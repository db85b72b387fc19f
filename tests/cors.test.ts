/**
 * CORS on the five public endpoints (contract "Browsers and the public edge"), over a real
 * socket: preflight 204 with the allowed origin, methods, headers and max-age, never counted by
 * a rate limit; actual answers (errors too) carry the origin and the exposed headers; key
 * routes carry none. The browser side is in e2e/shop.e2e.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startTestServer, type TestServer } from './helpers/server'
import { makeShop, makeKey } from './helpers/factories'
import { makeCatalog, orderBody } from './helpers/orders'
import { allowOrigin, publicMethods } from '../src/plugins/cors'
import { windowStartClock } from './helpers/app'

const ORIGIN = 'https://my-shop.example'
let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ rateLimitOrders: 2, rateLimitCheckSlug: 2, rateLimitStoreReads: 2 }, { clock: windowStartClock() })
})
afterAll(() => s.stop())

const preflight = (path: string, method: string, origin = ORIGIN) =>
  s.fetch(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, idempotency-key' } })

describe('CORS on public endpoints', () => {
  test('preflight → 204 with origin, methods, headers and max-age 600, for each of the five', async () => {
    for (const [path, method] of [['/api/orders', 'POST'], ['/api/reviews', 'POST'], ['/api/check-slug', 'GET'], ['/api/v1/stores', 'GET'], ['/api/v1/stores/some-shop', 'GET']] as const) {
      const res = await preflight(path, method)
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toBe(`${method}, OPTIONS`)
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type, idempotency-key')
      expect(res.headers.get('access-control-max-age')).toBe('600')
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull()
    }
  })

  test('a preflight is not counted by any rate limit', async () => {
    for (let i = 0; i < 5; i++) expect((await preflight('/api/check-slug', 'GET')).status).toBe(204)
    const res = await s.fetch('/api/check-slug?slug=free-slug', { headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1')
  })

  test('actual answers, errors and 429 included, carry the origin and expose the API headers', async () => {
    const { store } = makeShop(s.running.deps)
    const cat = makeCatalog(s.running.deps, store.id)
    const post = (body: unknown, key?: string) =>
      s.fetch('/api/orders', { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify(body) })
    const ok = await post(orderBody(store.id, cat), 'k-1')
    expect(ok.status).toBe(201)
    const bad = await post({ storeId: store.id })
    const limited = await post(orderBody(store.id, cat))
    expect([bad.status, limited.status]).toEqual([400, 429])
    for (const res of [ok, bad, limited]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      const exposed = res.headers.get('access-control-expose-headers')!.split(', ')
      for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Idempotent-Replayed', 'X-Request-Id']) expect(exposed).toContain(h)
    }
    const store404 = await s.fetch('/api/v1/stores/no-such-store', { headers: { origin: ORIGIN } })
    expect(store404.status).toBe(404)
    expect(store404.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('key routes get no CORS headers, preflight or not', async () => {
    const { store } = makeShop(s.running.deps)
    const key = makeKey(s.running.deps, store.id)
    const res = await s.fetch('/api/v1/products', { headers: { origin: ORIGIN, authorization: `Bearer ${key}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const pre = await preflight('/api/v1/products', 'GET')
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    expect(pre.headers.get('access-control-allow-methods')).toBeNull()
    const settings = await s.fetch('/api/v1/store', { headers: { origin: ORIGIN, authorization: `Bearer ${key}` } })
    expect(settings.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('without an Origin header nothing is added', async () => {
    const res = await s.fetch('/api/v1/stores')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('CORS_ORIGINS', () => {
  test('a list allows exactly its origins, echoed with Vary: Origin', async () => {
    expect(allowOrigin('https://a.example', 'https://a.example,https://b.example')).toBe('https://a.example')
    expect(allowOrigin('https://c.example', 'https://a.example,https://b.example')).toBeUndefined()
    const other = await startTestServer({ corsOrigins: 'https://a.example' })
    try {
      const yes = await other.fetch('/api/v1/stores', { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } })
      expect(yes.status).toBe(204)
      expect(yes.headers.get('access-control-allow-origin')).toBe('https://a.example')
      expect(yes.headers.get('vary')).toBe('Origin')
      const no = await other.fetch('/api/v1/stores', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } })
      expect(no.headers.get('access-control-allow-origin')).toBeNull()
      const actual = await other.fetch('/api/v1/stores', { headers: { origin: 'https://evil.example' } })
      expect(actual.status).toBe(200)
      expect(actual.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await other.stop()
    }
  })

  test('the public paths, and only those', () => {
    expect(publicMethods('/api/v1/stores/shop')).toBe('GET')
    expect(publicMethods('/api/v1/stores/shop/x')).toBeUndefined()
    expect(publicMethods('/api/v1/stores/')).toBeUndefined()
    expect(publicMethods('/api/v1/store')).toBeUndefined()
    expect(publicMethods('/api/orders/x')).toBeUndefined()
  })
})
