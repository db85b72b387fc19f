/**
 * The public edge for browsers: CORS on the five public
 * endpoints (preflight 204, never rate limited; actual answers, errors included, carry the origin
 * and the exposed headers), none on key-authenticated routes; nosniff everywhere, HSTS over https
 * (also behind TRUST_PROXY), no-store on keyed answers. Real sockets where TLS matters.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { EXPOSE_HEADERS } from '../../src/plugins/cors'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, uniqPhone } from '../helpers/factories'
import { startTestServer, type TestServer } from '../helpers/server'

const ORIGIN = 'https://shop.example'

let t: TestApp
let key: string
let storeId: string
let slug: string
beforeAll(() => {
  t = makeApp({ rateLimitOrders: 2 })
  const shop = makeShop(t.deps, { plan: 'pro' })
  key = shop.key
  storeId = shop.store.id
  slug = shop.store.slug
})
afterAll(() => t.close())

const preflight = (app: TestApp, path: string, method: string, origin = ORIGIN) =>
  app.app.handle(
    new Request(`http://localhost${path}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        'access-control-request-headers': 'content-type, idempotency-key',
      },
    }),
  )

const PUBLIC: [string, string][] = [
  ['/api/orders', 'POST'],
  ['/api/reviews', 'POST'],
  ['/api/check-slug', 'GET'],
  ['/api/v1/stores', 'GET'],
  ['/api/v1/stores/some-shop', 'GET'],
]

describe('preflight', () => {
  for (const [path, method] of PUBLIC) {
    test(`OPTIONS ${path} → 204 with the CORS headers`, async () => {
      const res = await preflight(t, path, method)
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-allow-methods')).toContain(method)
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type, idempotency-key')
      expect(res.headers.get('access-control-max-age')).toBe('600')
    })
  }

  test('is not counted by any rate limit (50 preflights, then an order still passes)', async () => {
    for (let i = 0; i < 50; i++) {
      const res = await preflight(t, '/api/orders', 'POST')
      expect(res.status).toBe(204)
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull()
    }
    const product = addProduct(t.deps, storeId, { price: 100 })
    const [res, body] = await t.api.post(
      '/api/orders',
      { storeId, name: 'Ana', phone: uniqPhone(), items: [{ productId: product.id, quantity: 1 }] },
      { headers: { origin: ORIGIN } },
    )
    expectStatus(res, body).toBe(201)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('1')
  })

  test('key-authenticated routes get no CORS headers', async () => {
    for (const path of ['/api/v1/products', '/api/v1/orders', '/api/v1/store', '/mcp']) {
      const res = await preflight(t, path, 'GET')
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
      expect(res.status).not.toBe(204)
    }
  })
})

describe('actual responses', () => {
  test('success and errors of public endpoints carry Allow-Origin and Expose-Headers', async () => {
    const [ok] = await t.api.get(`/api/v1/stores/${slug}`, { headers: { origin: ORIGIN } })
    expect(ok.status).toBe(200)
    const [bad, badBody] = await t.api.post('/api/orders', { storeId }, { headers: { origin: ORIGIN } })
    expectStatus(bad, badBody).toBe(400)
    const [missing] = await t.api.get('/api/v1/stores/no-such-shop', { headers: { origin: ORIGIN } })
    expect(missing.status).toBe(404)
    for (const res of [ok, bad, missing]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
      expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSE_HEADERS)
    }
  })

  test('a 429 carries them too, so the page can read Retry-After', async () => {
    const product = addProduct(t.deps, storeId, { price: 100 })
    let last: Response | undefined
    for (let i = 0; i < 4; i++) {
      ;[last] = await t.api.post(
        '/api/orders',
        { storeId, name: 'Ana', phone: uniqPhone(), items: [{ productId: product.id, quantity: 1 }] },
        { headers: { origin: ORIGIN }, ip: '203.0.113.9' },
      )
    }
    expect(last!.status).toBe(429)
    expect(last!.headers.get('access-control-allow-origin')).toBe('*')
    expect(last!.headers.get('access-control-expose-headers')).toContain('Retry-After')
  })

  test('keyed routes: no CORS, but no-store and nosniff', async () => {
    const [res] = await t.api.get('/api/v1/products', { key, headers: { origin: ORIGIN } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const [unauth] = await t.api.get('/api/v1/products', { headers: { origin: ORIGIN } })
    expect(unauth.status).toBe(401)
    expect(unauth.headers.get('cache-control')).toBe('no-store')
    expect(unauth.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('nosniff on every answer: public, 404, health, docs', async () => {
    for (const path of ['/health', '/nothing', '/api/v1/stores', '/docs/json']) {
      const [res] = await t.api.get(path)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('strict-transport-security')).toBeNull()
    }
  })
})

describe('CORS_ORIGINS lists the allowed origins', () => {
  let listed: TestApp
  beforeAll(() => {
    listed = makeApp({ corsOrigins: [ORIGIN, 'http://localhost:5173'] })
  })
  afterAll(() => listed.close())

  test('a listed origin is echoed, with Vary: Origin; another gets none', async () => {
    const yes = await preflight(listed, '/api/orders', 'POST')
    expect(yes.status).toBe(204)
    expect(yes.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(yes.headers.get('vary')).toContain('Origin')
    const no = await preflight(listed, '/api/orders', 'POST', 'https://evil.example')
    expect(no.headers.get('access-control-allow-origin')).toBeNull()
    const [res] = await listed.api.get('/api/v1/stores', { headers: { origin: 'https://evil.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const [res2] = await listed.api.get('/api/v1/stores', { headers: { origin: 'http://localhost:5173' } })
    expect(res2.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })
})

describe('HSTS over real sockets', () => {
  let tls: TestServer
  let proxy: TestServer
  beforeAll(async () => {
    tls = await startTestServer()
    proxy = await startTestServer({ trustProxy: true })
  })
  afterAll(async () => {
    await tls.stop()
    await proxy.stop()
  })

  test('served over https itself → Strict-Transport-Security on every answer', async () => {
    for (const path of ['/health', '/api/v1/stores', '/nothing']) {
      const res = await tls.fetch(path)
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    const pre = await tls.fetch('/api/orders', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('behind TRUST_PROXY: HSTS when the proxy says https; the http redirect has nosniff', async () => {
    const res = await proxy.fetch('/api/v1/stores', { headers: { 'x-forwarded-proto': 'https' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000')
    const plain = await proxy.fetch('/health')
    expect(plain.headers.get('strict-transport-security')).toBeNull()
    const redirected = await proxy.fetch('/api/v1/stores', { headers: { 'x-forwarded-proto': 'http' } })
    expect(redirected.status).toBe(301)
    expect(redirected.headers.get('x-content-type-options')).toBe('nosniff')
  })
})
