/**
 * The rate limits (docs/api.md): 100 requests per minute per key across every authenticated endpoint, per-IP
 * limits for public endpoints, 429 with Retry-After and Remaining 0; the limiter's windows,
 * write-behind and reload after a restart; and exactly `limit` admissions under concurrency.
 */
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { loadConfig } from '../../src/config'
import { openDb, type Db } from '../../src/db/client'
import { fixedClock } from '../../src/lib/time'
import { RateLimiter } from '../../src/db/rate-limiter'
import { makeApp, expectStatus, tempDir, type TestApp } from '../helpers/app'
import { makeKey, makeShop } from '../helpers/factories'
import { startTestServer } from '../helpers/server'

/** A clock at the start of a UTC minute (and hour and day), so windows are predictable. */
const START = Date.UTC(2026, 0, 1)

describe('RateLimiter (fixed windows)', () => {
  let dir: string
  let db: Db
  beforeEach(() => {
    dir = tempDir()
    db = openDb({ dataDir: dir, synchronous: 'NORMAL' })
  })
  afterEach(() => {
    db.$client.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('admits `limit` hits per window, then refuses with remaining 0', () => {
    const clock = fixedClock(START)
    const rl = new RateLimiter(db, clock, 60_000)
    const results = Array.from({ length: 5 }, () => rl.hit('k', 3, 60))
    expect(results.map((w) => w.allowed)).toEqual([true, true, true, false, false])
    expect(results.map((w) => w.remaining)).toEqual([2, 1, 0, 0, 0])
    expect(results.every((w) => w.limit === 3 && w.windowSec === 60)).toBe(true)
    rl.close()
  })

  test('reset seconds count down to the window boundary, and the next window starts fresh', () => {
    const clock = fixedClock(START)
    const rl = new RateLimiter(db, clock, 60_000)
    expect(rl.hit('k', 2, 60).resetSec).toBe(60)
    clock.advance(59_500)
    const last = rl.hit('k', 2, 60)
    expect(last).toMatchObject({ allowed: true, remaining: 0, resetSec: 1 })
    expect(rl.hit('k', 2, 60)).toMatchObject({ allowed: false, resetSec: 1 })
    clock.advance(500) // exactly the boundary
    expect(rl.hit('k', 2, 60)).toMatchObject({ allowed: true, remaining: 1, resetSec: 60 })
    clock.set(START + 3_600_000 - 1)
    expect(rl.hit('hourly', 1, 3600)).toMatchObject({ allowed: true, resetSec: 1 })
    rl.close()
  })

  test('windows are aligned to the clock, not to the first hit', () => {
    const clock = fixedClock(START + 45_000)
    const rl = new RateLimiter(db, clock, 60_000)
    expect(rl.hit('k', 1, 60)).toMatchObject({ allowed: true, resetSec: 15 })
    clock.advance(15_000)
    expect(rl.hit('k', 1, 60).allowed).toBe(true)
    rl.close()
  })

  test('keys have separate counters', () => {
    const rl = new RateLimiter(db, fixedClock(START), 60_000)
    expect(rl.hit('a', 1, 60).allowed).toBe(true)
    expect(rl.hit('a', 1, 60).allowed).toBe(false)
    expect(rl.hit('b', 1, 60).allowed).toBe(true)
    rl.close()
  })

  test('windows are written behind to rate_limits and loaded back after a restart', () => {
    const clock = fixedClock(START + 10_000)
    const rl = new RateLimiter(db, clock, 60_000)
    for (let i = 0; i < 7; i++) rl.hit('key:abc', 10, 60)
    // Nothing on disk until a flush: the hot path does no write.
    expect(db.$client.query('SELECT count(*) AS n FROM rate_limits').get()).toEqual({ n: 0 })
    rl.flush()
    expect(db.$client.query('SELECT key, window_start AS w, count FROM rate_limits').all()).toEqual([
      { key: 'key:abc', w: START, count: 7 },
    ])
    rl.hit('key:abc', 10, 60)
    rl.close() // close flushes
    db.$client.close()

    // "Restart": a new connection and a new limiter.
    db = openDb({ dataDir: dir, synchronous: 'NORMAL' })
    const again = new RateLimiter(db, clock, 60_000)
    expect(again.hit('key:abc', 10, 60)).toMatchObject({ allowed: true, remaining: 1 })
    expect(again.hit('key:abc', 10, 60)).toMatchObject({ allowed: true, remaining: 0 })
    expect(again.hit('key:abc', 10, 60).allowed).toBe(false)
    // A window that ended while the process was down does not carry over.
    clock.advance(60_000)
    expect(again.hit('key:abc', 10, 60)).toMatchObject({ allowed: true, remaining: 9 })
    again.close()
  })

  test('prune drops windows older than two days from memory and disk', () => {
    const clock = fixedClock(START)
    const rl = new RateLimiter(db, clock, 60_000)
    rl.hit('old', 1, 60)
    rl.flush()
    clock.advance(3 * 86_400_000)
    rl.prune()
    expect(db.$client.query('SELECT count(*) AS n FROM rate_limits').get()).toEqual({ n: 0 })
    rl.close()
  })
})

describe('per key over HTTP (100/min, shared across endpoints)', () => {
  let t: TestApp
  let clock: ReturnType<typeof fixedClock>
  beforeEach(() => {
    clock = fixedClock(START + 1_000)
    t = makeApp({}, { clock })
  })
  afterEach(() => t.close())

  test('60 product GETs + 40 category GETs exhaust it; the 101st → 429 with the spec body', async () => {
    const { key } = makeShop(t.deps)
    for (let i = 0; i < 60; i++) {
      const [res, body] = await t.api.get('/api/v1/products', { key })
      expectStatus(res, body).toBe(200)
      expect(res.headers.get('x-ratelimit-limit')).toBe('100')
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(99 - i))
      expect(res.headers.get('retry-after')).toBeNull()
    }
    for (let i = 0; i < 40; i++) {
      const [res, body] = await t.api.get('/api/v1/categories', { key })
      expectStatus(res, body).toBe(200)
    }
    const [res, body] = await t.api.get('/api/v1/categories', { key })
    expectStatus(res, body).toBe(429)
    expect(body).toEqual({
      error: expect.stringMatching(/Retry in 59 seconds/),
      code: 'RATE_LIMIT_EXCEEDED',
      details: { retryAfter: 59 },
    })
    expect(res.headers.get('retry-after')).toBe('59')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(res.headers.get('x-ratelimit-limit')).toBe('100')
    expect(res.headers.get('ratelimit')).toBe('"key";r=0;t=59')
    expect(res.headers.get('ratelimit-policy')).toBe('"key";q=100;w=60')
    // Every endpoint of the key is closed now, writes included.
    const [res2] = await t.api.post('/api/v1/products', { name: 'Mug', price: 1 }, { key })
    expect(res2.status).toBe(429)

    // A new window resets the counter.
    clock.set(START + 60_000)
    const [res3, body3] = await t.api.get('/api/v1/products', { key })
    expectStatus(res3, body3).toBe(200)
    expect(res3.headers.get('x-ratelimit-remaining')).toBe('99')
  })

  test('rejected requests count: 403s, 400s and 404s spend the quota too', async () => {
    const { store } = makeShop(t.deps)
    const key = makeKey(t.deps, store.id, ['products:read'])
    const calls = [
      () => t.api.post('/api/v1/categories', { name: 'x' }, { key }), // 403 scope
      () => t.api.get('/api/v1/products?limit=500', { key }), // 400
      () => t.api.get('/api/v1/products/nope', { key }), // 404
    ]
    for (let i = 0; i < 99; i++) {
      const [res] = await calls[i % 3]!()
      expect([400, 403, 404]).toContain(res.status)
    }
    const [ok] = await t.api.get('/api/v1/products', { key })
    expect(ok.status).toBe(200)
    const [res] = await t.api.get('/api/v1/products', { key })
    expect(res.status).toBe(429)
  })

  test('two keys of the same store have separate counters', async () => {
    const { store, key } = makeShop(t.deps)
    const other = makeKey(t.deps, store.id)
    for (let i = 0; i < 100; i++) await t.api.get('/api/v1/products', { key })
    expect((await t.api.get('/api/v1/products', { key }))[0].status).toBe(429)
    expect((await t.api.get('/api/v1/products', { key: other }))[0].status).toBe(200)
  })
})

test('limits are configurable by env', async () => {
  const config = loadConfig({
    RATE_LIMIT_KEY_PER_MIN: '5',
    RATE_LIMIT_CHECK_SLUG_PER_HOUR: '2',
    RATE_LIMIT_ORDERS_PER_MIN: '4',
    RATE_LIMIT_REVIEWS_PER_DAY: '7',
    RATE_LIMIT_STORE_READS_PER_MIN: '9',
  })
  expect(config).toMatchObject({
    rateLimitKey: 5,
    rateLimitCheckSlug: 2,
    rateLimitOrders: 4,
    rateLimitReviews: 7,
    rateLimitStoreReads: 9,
  })
  const t = makeApp(
    { rateLimitKey: config.rateLimitKey, rateLimitCheckSlug: config.rateLimitCheckSlug },
    { clock: fixedClock(START) },
  )
  try {
    const { key } = makeShop(t.deps)
    for (let i = 0; i < 5; i++) expect((await t.api.get('/api/v1/products', { key }))[0].status).toBe(200)
    const [res] = await t.api.get('/api/v1/products', { key })
    expect(res.status).toBe(429)
    expect(res.headers.get('x-ratelimit-limit')).toBe('5')
    const slug = () => t.api.get('/api/check-slug?slug=some-shop')
    expect([200, 404]).toContain((await slug())[0].status)
    const [second] = await slug()
    expect([200, 404]).toContain(second.status)
    expect(second.headers.get('x-ratelimit-limit')).toBe('2')
    expect(second.headers.get('ratelimit-policy')).toBe('"checkSlug";q=2;w=3600')
    const [third] = await slug()
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBe('3600')
  } finally {
    t.close()
  }
})

describe('per client IP on public endpoints', () => {
  let t: TestApp
  afterAll(() => t.close())

  test('each IP has its own counter, per endpoint bucket, and rejected requests count', async () => {
    t = makeApp({ trustProxy: true, rateLimitOrders: 2, rateLimitCheckSlug: 3 }, { clock: fixedClock(START) })
    // Invalid bodies (400 or 404) still spend the IP's allowance.
    const headers = { 'x-forwarded-proto': 'https' }
    const order = (ip: string) => t.api.post('/api/orders', { nonsense: true }, { ip, headers })
    expect([400, 404]).toContain((await order('192.0.2.1'))[0].status)
    expect([400, 404]).toContain((await order('192.0.2.1'))[0].status)
    const [res, body] = await order('192.0.2.1')
    expectStatus(res, body).toBe(429)
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another IP, and another endpoint for the same IP, are unaffected.
    expect([400, 404]).toContain((await order('192.0.2.2'))[0].status)
    const [slug] = await t.api.get('/api/check-slug?slug=abc-shop', { ip: '192.0.2.1', headers })
    expect([200, 404]).toContain(slug.status)
    expect(slug.headers.get('x-ratelimit-remaining')).toBe('2')
  })
})

test('150 concurrent requests on one key through a real socket: exactly 100 get through', async () => {
  const s = await startTestServer({}, { clock: fixedClock(START) })
  try {
    const { key } = makeShop(s.running.deps)
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        s
          .fetch(i % 2 ? '/api/v1/products' : '/api/v1/categories', { headers: { authorization: `Bearer ${key}` } })
          .then(async (r) => {
            await r.arrayBuffer()
            return r.status
          }),
      ),
    )
    expect(statuses.filter((x) => x !== 429).length).toBe(100)
    expect(statuses.filter((x) => x === 200).length).toBe(100)
    expect(statuses.filter((x) => x === 429).length).toBe(50)
  } finally {
    await s.stop()
  }
})
