/**
 * The error model: 400 VALIDATION_ERROR
 * with details.field/reason, malformed JSON, 404 for unknown routes, 413 over 1 MiB (declared
 * and chunked), a bare 500 INTERNAL_ERROR logged with the request id, and rate-limit headers on
 * every /api response, errors included.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { createApp } from '../../src/app'
import { testConfig } from '../../src/config'
import { closeDeps, createDeps } from '../../src/deps'
import type { Logger } from '../../src/lib/log'
import { systemClock } from '../../src/lib/time'
import { suspendStore } from '../../src/modules/platform-stores/service'
import { MAX_BODY_BYTES } from '../../src/http/gate'
import { makeApp, expectStatus, tempDir, type Json, type TestApp } from '../helpers/app'
import { makeKey, makeShop, makeStore } from '../helpers/factories'
import { startTestServer, type TestServer } from '../helpers/server'

let t: TestApp
let key: string
beforeAll(() => {
  t = makeApp()
  key = makeShop(t.deps, { plan: 'pro' }).key
})
afterAll(() => t.close())

const expectValidation = (res: Response, body: Json, field: string, reason: string) => {
  expectStatus(res, body).toBe(400)
  expect(body.code).toBe('VALIDATION_ERROR')
  expect(typeof body.error).toBe('string')
  expect(body.details).toMatchObject({ field, reason })
}

describe('400 VALIDATION_ERROR names the field and the reason', () => {
  test('a missing required field → required', async () => {
    const [res, body] = await t.api.post('/api/v1/products', { price: 5 }, { key })
    expectValidation(res, body, 'name', 'required')
  })

  test('a wrong type → invalid_type', async () => {
    const [res, body] = await t.api.post('/api/v1/products', { name: 'Mug', price: 'five' }, { key })
    expectValidation(res, body, 'price', 'invalid_type')
    const [res2, body2] = await t.api.post('/api/v1/products', { name: 42, price: 5 }, { key })
    expectValidation(res2, body2, 'name', 'invalid_type')
  })

  test('out of range → out_of_range (number and string length)', async () => {
    const [res, body] = await t.api.post('/api/v1/products', { name: 'Mug', price: -1 }, { key })
    expectValidation(res, body, 'price', 'out_of_range')
    const [res2, body2] = await t.api.post('/api/v1/products', { name: 'x'.repeat(201), price: 1 }, { key })
    expectValidation(res2, body2, 'name', 'out_of_range')
  })

  test('toString / valueOf keys that are not functions (a fuzzer find) → 400 naming the field, not 500', async () => {
    const [res, body] = await t.api.post('/api/v1/products', { name: { toString: '' }, price: 5 }, { key })
    expectValidation(res, body, 'name', 'invalid_type')
    const [res2, body2] = await t.api.post(
      '/api/v1/discounts',
      { code: { toString: '', valueOf: 1 }, type: 'fixed', value: 1 },
      { key },
    )
    expectValidation(res2, body2, 'code', 'invalid_type')
    const [res3, body3] = await t.api.post('/api/v1/discounts', { toString: 'x', type: 'fixed', value: 1 }, { key })
    expectValidation(res3, body3, 'code', 'required')
    // As unknown fields they are ignored on a valid body.
    const [res4, body4] = await t.api.post(
      '/api/v1/products',
      { name: 'Teapot', price: 5, valueOf: 3, toString: 'x' },
      { key },
    )
    expectStatus(res4, body4).toBe(201)
  })

  test('nested fields use the path form items[0].field', async () => {
    const variants = [
      { name: 'S', price: 1 },
      { name: 'M', price: -3 },
    ]
    const [res, body] = await t.api.post('/api/v1/products', { name: 'Shirt', price: 5, variants }, { key })
    expectValidation(res, body, 'variants[1].price', 'out_of_range')
    const [res2, body2] = await t.api.post(
      '/api/v1/products',
      { name: 'Shirt', price: 5, variants: [{ price: 2 }] },
      { key },
    )
    expectValidation(res2, body2, 'variants[0].name', 'required')
  })

  test('query parameters: limit above 100, below 1, not a number', async () => {
    for (const [q, reason] of [
      ['limit=101', 'out_of_range'],
      ['limit=0', 'out_of_range'],
      ['limit=abc', 'invalid_type'],
      ['offset=-1', 'out_of_range'],
    ] as const) {
      const [res, body] = await t.api.get(`/api/v1/products?${q}`, { key })
      expectValidation(res, body, q.split('=')[0]!, reason)
    }
  })

  test('malformed JSON → field body, reason invalid_json', async () => {
    const [res, body] = await t.api.post('/api/v1/products', undefined, { key, raw: '{"name": "Mug", price: }' })
    expectValidation(res, body, 'body', 'invalid_json')
  })

  test('unknown body fields are ignored', async () => {
    const [res, body] = await t.api.post(
      '/api/v1/products',
      { name: 'Mug', price: 5, color: 'red', hash: 'x' },
      { key },
    )
    expectStatus(res, body).toBe(201)
    expect(body.data.color).toBeUndefined()
  })
})

// `/` is the storefront's directory page, not an unknown route.
describe('404 NOT_FOUND as JSON for unknown routes', () => {
  for (const path of ['/api/v1/nothing-here', '/api/v1/products/x/y/z', '/api/nothing', '/api', '/nothing']) {
    test(path, async () => {
      const [res, body] = await t.api.get(path, { key })
      expectStatus(res, body).toBe(404)
      expect(res.headers.get('content-type')).toContain('application/json')
      expect(body).toMatchObject({ code: 'NOT_FOUND', error: expect.any(String) })
    })
  }

  test('a wrong id → 404 NOT_FOUND', async () => {
    const [res, body] = await t.api.get('/api/v1/products/doesnotexist', { key })
    expectStatus(res, body).toBe(404)
    expect(body.code).toBe('NOT_FOUND')
  })
})

describe('413 for a body over 1 MiB', () => {
  test('declared Content-Length over the limit, before auth and without reading it', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES), price: 1 })
    for (const k of [key, undefined]) {
      const [res, body] = await t.api.post('/api/v1/products', undefined, {
        key: k,
        raw: big,
        headers: { 'content-length': String(big.length) },
      })
      expectStatus(res, body).toBe(413)
      expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String) })
    }
  })

  test('a 413 carries the rate-limit headers too, and counts (authenticated and public paths)', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES), price: 1 })
    const headers = { 'content-length': String(big.length) }
    for (const [path, k] of [
      ['/api/v1/products', key],
      ['/api/v1/products', undefined],
      ['/api/orders', undefined],
    ] as const) {
      const [first, body] = await t.api.post(path, undefined, { key: k, raw: big, headers })
      expectStatus(first, body).toBe(413)
      const [second] = await t.api.post(path, undefined, { key: k, raw: big, headers })
      for (const res of [first, second]) {
        expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/)
        expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
        expect(res.headers.get('ratelimit')).toBeTruthy()
        expect(res.headers.get('retry-after')).toBeNull()
      }
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      )
    }
  })

  test('exactly 1 MiB is accepted as far as size goes', async () => {
    const name = 'x'.repeat(MAX_BODY_BYTES - JSON.stringify({ name: '', price: 1 }).length)
    const raw = JSON.stringify({ name, price: 1 })
    expect(raw.length).toBe(MAX_BODY_BYTES)
    const [res, body] = await t.api.post('/api/v1/products', undefined, { key, raw })
    expectValidation(res, body, 'name', 'out_of_range')
  })

  describe('over a real socket', () => {
    let s: TestServer
    let skey: string
    beforeAll(async () => {
      s = await startTestServer()
      skey = makeShop(s.running.deps, { plan: 'pro' }).key
    })
    afterAll(() => s.stop())

    const chunked = (total: number, json = true) => {
      const chunk = new TextEncoder().encode('x'.repeat(64 * 1024))
      const head = new TextEncoder().encode(json ? '{"price":1,"name":"' : '')
      let sent = 0
      return new ReadableStream<Uint8Array>({
        pull(c) {
          if (sent === 0) {
            c.enqueue(head)
            sent += head.length
          } else if (sent < total) {
            const part = chunk.subarray(0, Math.min(chunk.length, total - sent))
            c.enqueue(part)
            sent += part.length
          } else {
            if (json) c.enqueue(new TextEncoder().encode('"}'))
            c.close()
          }
        },
      })
    }
    const upload = (body: ReadableStream<Uint8Array> | string) =>
      s.fetch('/api/v1/products', {
        method: 'POST',
        headers: { authorization: `Bearer ${skey}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit)

    test('a chunked upload (no Content-Length) past 1 MiB → 413 JSON', async () => {
      for (const size of [MAX_BODY_BYTES + 10, 8 * MAX_BODY_BYTES]) {
        const res = await upload(chunked(size))
        expect(res.headers.get('content-length')).not.toBe('0')
        const body: Json = await res.json()
        expectStatus(res, body).toBe(413)
        expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' })
      }
    })

    test('a small chunked upload is parsed and validated as usual', async () => {
      const res = await upload(chunked(100))
      const body: Json = await res.json()
      expectStatus(res, body).toBe(201)
      expect(body.data.name).toBe('x'.repeat(100 - '{"price":1,"name":"'.length))
      const bad = new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode('{"name": '))
          c.close()
        },
      })
      const res2 = await upload(bad)
      const body2: Json = await res2.json()
      expectValidation(res2, body2, 'body', 'invalid_json')
    })

    test('a declared Content-Length far beyond the limit → 413 JSON too', async () => {
      const res = await upload('x'.repeat(20 * MAX_BODY_BYTES))
      const body: Json = await res.json()
      expectStatus(res, body).toBe(413)
      expect(body.code).toBe('PAYLOAD_TOO_LARGE')
      // The connection stays usable for the next request.
      const after = await s.fetch('/health')
      expect(after.status).toBe(200)
    })
  })
})

describe('500 INTERNAL_ERROR', () => {
  function appWithLog() {
    const dataDir = tempDir()
    const lines: { msg: string; fields?: Record<string, unknown> }[] = []
    const capture = (msg: string, fields?: Record<string, unknown>) => void lines.push({ msg, fields })
    const log: Logger = { debug: capture, info: capture, warn: capture, error: capture }
    const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }), { log })
    const app = createApp(deps)
    return {
      deps,
      app,
      lines,
      close: () => (app.gate.close(), closeDeps(deps), rmSync(dataDir, { recursive: true, force: true })),
    }
  }

  test('an exception in a handler: bare body, no internals, logged with the request id', async () => {
    const a = appWithLog()
    try {
      // A test-only route on the same instance, behind the same error mapper.
      const app = a.app.get('/boom', () => {
        throw new Error('secret internals: /var/lib/db password=hunter2')
      })
      const res = await app.handle(new Request('http://localhost/boom'))
      const body: Json = await res.json()
      expectStatus(res, body).toBe(500)
      expect(body.code).toBe('INTERNAL_ERROR')
      expect(typeof body.error).toBe('string')
      const text = JSON.stringify(body)
      expect(text).not.toContain('secret')
      expect(text).not.toContain('hunter2')
      expect(text).not.toMatch(/at .*\.ts/)
      const requestId = res.headers.get('x-request-id')
      expect(requestId).toBeTruthy()
      const logged = a.lines.find((l) => l.msg === 'unhandled error')
      expect(logged?.fields?.requestId).toBe(requestId)
      expect(JSON.stringify(logged?.fields)).toContain('hunter2')
    } finally {
      a.close()
    }
  })

  test('the database failing under a request', async () => {
    const a = appWithLog()
    const store = makeStore(a.deps, { plan: 'pro' })
    const k = makeKey(a.deps, store.id)
    a.deps.db.$client.close()
    try {
      const res = await a.app.handle(
        new Request('http://localhost/api/v1/products', { headers: { authorization: `Bearer ${k}` } }),
      )
      const body: Json = await res.json()
      expectStatus(res, body).toBe(500)
      expect(body).toMatchObject({ error: expect.any(String), code: 'INTERNAL_ERROR' })
      expect(JSON.stringify(body)).not.toMatch(/sqlite|database|stack/i)
      expect(
        a.lines.some((l) => l.msg === 'unhandled error' && l.fields?.requestId === res.headers.get('x-request-id')),
      ).toBe(true)
    } finally {
      a.app.gate.close = () => {}
      a.deps.limiter.close = () => {}
      a.close()
    }
  })
})

describe('every /api response carries the rate-limit headers', () => {
  const cases: [string, () => Promise<[Response, unknown]>, number][] = [
    ['200', () => t.api.get('/api/v1/products', { key }), 200],
    ['201', () => t.api.post('/api/v1/categories', { name: 'Hats' }, { key }), 201],
    ['400', () => t.api.get('/api/v1/products?limit=1000', { key }), 400],
    ['401 without a key', () => t.api.get('/api/v1/products'), 401],
    ['401 with a bad key', () => t.api.get('/api/v1/products', { key: 'sfk_nope' }), 401],
    ['404 unknown /api/v1 route', () => t.api.get('/api/v1/nothing', { key }), 404],
    ['404 unknown /api route', () => t.api.get('/api/nothing'), 404],
    ['404 unknown id', () => t.api.get('/api/v1/products/nope', { key }), 404],
  ]
  for (const [name, call, status] of cases) {
    test(name, async () => {
      const [res, body] = await call()
      expectStatus(res, body).toBe(status)
      expect(Number(res.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0)
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
      expect(res.headers.get('ratelimit-policy')).toMatch(/^"\w+";q=\d+;w=\d+$/)
      expect(res.headers.get('ratelimit')).toMatch(/^"\w+";r=\d+;t=\d+$/)
    })
  }

  test('403 scope and 402 suspended carry them too', async () => {
    const { store } = makeShop(t.deps)
    const readOnly = makeKey(t.deps, store.id, ['products:read'])
    const [res] = await t.api.post('/api/v1/products', { name: 'a', price: 1 }, { key: readOnly })
    expect(res.status).toBe(403)
    expect(res.headers.get('x-ratelimit-limit')).toBe('100')
    suspendStore({ ctx: { db: t.adminDb(), clock: systemClock }, input: { storeId: store.id, reason: 'unpaid' } })
    const [res2, body2] = await t.api.get('/api/v1/products', { key: readOnly })
    expectStatus(res2, body2).toBe(402)
    expect(res2.headers.get('x-ratelimit-limit')).toBe('100')
    expect(res2.headers.get('ratelimit')).toMatch(/^"key";r=\d+;t=\d+$/)
    expect(res2.headers.get('retry-after')).toBeNull()
  })
})
