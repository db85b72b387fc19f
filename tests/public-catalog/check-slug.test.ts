/** GET /api/check-slug: availability against store slugs, validation, and its per-IP limit. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop, uniq } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { suspendStore } from '../../src/modules/platform-stores/service'

let t: TestApp
beforeAll(() => {
  // A high limit: this block is about answers, the next about the limit.
  t = makeApp({ rateLimitCheckSlug: 10_000 })
})
afterAll(() => t.close())

describe('GET /api/check-slug', () => {
  test('a free slug is available; a taken one is not (whatever the store state)', async () => {
    const free = uniq('free').toLowerCase()
    const [res, body] = await t.api.get(`/api/check-slug?slug=${free}`)
    expectStatus(res, body).toBe(200)
    expect(body).toEqual({ slug: free, available: true })

    const { store, key } = makeShop(t.deps)
    expect((await t.api.get(`/api/check-slug?slug=${store.slug}`))[1]).toEqual({ slug: store.slug, available: false })
    await t.api.put('/api/v1/store', { isPublished: false }, { key })
    suspendStore({ ctx: t.deps, input: { storeId: store.id, reason: 'unpaid' } })
    expect((await t.api.get(`/api/check-slug?slug=${store.slug}`))[1].available).toBe(false)
  })

  test('follows a store rename: the old slug frees up, the new one is taken', async () => {
    const { store, key } = makeShop(t.deps)
    const next = uniq('next').toLowerCase()
    await t.api.put('/api/v1/store', { slug: next }, { key })
    expect((await t.api.get(`/api/check-slug?slug=${store.slug}`))[1].available).toBe(true)
    expect((await t.api.get(`/api/check-slug?slug=${next}`))[1].available).toBe(false)
  })

  test('missing → 400 required', async () => {
    const [res, body] = await t.api.get('/api/check-slug')
    expectStatus(res, body).toBe(400)
    expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'slug', reason: 'required' } })
  })

  for (const bad of ['ab', 'Has-Upper', 'with space', 'a--b', '-lead', 'trail-', 'x'.repeat(51), 'ü-umlaut', '']) {
    test(`ill-formed ${JSON.stringify(bad)} → 400 invalid_format`, async () => {
      const [res, body] = await t.api.get(`/api/check-slug?slug=${encodeURIComponent(bad)}`)
      expectStatus(res, body).toBe(400)
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'slug', reason: 'invalid_format' } })
    })
  }

  test('needs no key; carries the per-IP rate headers', async () => {
    const [res] = await t.api.get(`/api/check-slug?slug=${uniq('h').toLowerCase()}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-limit')).toBe('10000')
    expect(res.headers.get('ratelimit-policy')).toContain('checkSlug')
  })
})

describe('per-IP limit (30/hour by default)', () => {
  test('defaults to 30 per hour', () => {
    const d = makeApp()
    try {
      expect(d.config.rateLimitCheckSlug).toBe(30)
    } finally {
      d.close()
    }
  })

  test('every request counts, 400s too; 429 with Retry-After; per IP; the window resets after an hour', async () => {
    const clock = fixedClock(Date.UTC(2026, 5, 1, 10, 0, 0))
    const limited = makeApp({ trustProxy: true, rateLimitCheckSlug: 3 }, { clock })
    try {
      const opts = (ip: string) => ({ ip, headers: { 'x-forwarded-proto': 'https' } })
      const [r1] = await limited.api.get('/api/check-slug?slug=good-slug', opts('203.0.113.7'))
      expect(r1.status).toBe(200)
      expect([r1.headers.get('x-ratelimit-limit'), r1.headers.get('x-ratelimit-remaining')]).toEqual(['3', '2'])
      const [r2] = await limited.api.get('/api/check-slug?slug=BAD', opts('203.0.113.7'))
      expect(r2.status).toBe(400)
      expect(r2.headers.get('x-ratelimit-remaining')).toBe('1')
      const [r3] = await limited.api.get('/api/check-slug', opts('203.0.113.7'))
      expect(r3.status).toBe(400)
      expect(r3.headers.get('x-ratelimit-remaining')).toBe('0')
      const [r4, b4] = await limited.api.get('/api/check-slug?slug=good-slug', opts('203.0.113.7'))
      expectStatus(r4, b4).toBe(429)
      expect(b4).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
      expect(b4.error).toMatch(/\d+ seconds/)
      expect(Number(r4.headers.get('retry-after'))).toBe(3600)
      expect(r4.headers.get('x-ratelimit-remaining')).toBe('0')
      // A 429 is checked before validation.
      const [r5] = await limited.api.get('/api/check-slug?slug=BAD', opts('203.0.113.7'))
      expect(r5.status).toBe(429)
      // Another IP has its own counter.
      expect((await limited.api.get('/api/check-slug?slug=good-slug', opts('203.0.113.8')))[0].status).toBe(200)
      clock.advance(30 * 60_000)
      const [r6] = await limited.api.get('/api/check-slug?slug=good-slug', opts('203.0.113.7'))
      expect(r6.status).toBe(429)
      expect(Number(r6.headers.get('retry-after'))).toBe(1800)
      clock.advance(30 * 60_000)
      expect((await limited.api.get('/api/check-slug?slug=good-slug', opts('203.0.113.7')))[0].status).toBe(200)
    } finally {
      limited.close()
    }
  })
})
