import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, expectStatus, type TestApp, type Json } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { runAdmin } from '../../src/cli/admin'
import { setPlan } from '../../src/modules/platform-stores/service'
import { systemClock } from '../../src/lib/time'
import { testConfig } from '../../src/config'
import { capFor } from '../../src/modules/plans/caps'

let t: TestApp
const savedDataDir = process.env.DATA_DIR
beforeAll(() => {
  // Pro caps made small so the test can reach them; free keeps the documented defaults.
  t = makeApp({ proMaxProducts: 4, proMaxCategories: 2, rateLimitKey: 100_000 })
  process.env.DATA_DIR = t.config.dataDir
})
afterAll(() => {
  if (savedDataDir === undefined) delete process.env.DATA_DIR
  else process.env.DATA_DIR = savedDataDir
  t.close()
})

let n = 0
const product = (key: string, extra: Record<string, unknown> = {}) =>
  t.api.post('/api/v1/products', { name: `Item ${++n}`, price: 5, ...extra }, { key })
const category = (key: string) => t.api.post('/api/v1/categories', { name: `Cat ${++n}` }, { key })
function expectPlanRequired(res: Response, body: Json, feature: string, details: { limit: number; current: number }) {
  expectStatus(res, body).toBe(403)
  expect(body).toEqual({
    error: 'plan_required',
    code: 'PLAN_REQUIRED',
    message: expect.any(String),
    feature,
    upgradeUrl: t.config.upgradeUrl,
    details,
  })
}

test('the documented defaults: free 10 products, 3 categories, no variants; pro 500/50; lifetime none', () => {
  const c = testConfig()
  expect([
    capFor(c, 'free', 'productLimit'),
    capFor(c, 'free', 'categoryLimit'),
    capFor(c, 'free', 'variants'),
  ]).toEqual([10, 3, 0])
  expect([capFor(c, 'pro', 'productLimit'), capFor(c, 'pro', 'categoryLimit'), capFor(c, 'pro', 'variants')]).toEqual([
    500,
    50,
    Infinity,
  ])
  expect([
    capFor(c, 'lifetime', 'productLimit'),
    capFor(c, 'lifetime', 'categoryLimit'),
    capFor(c, 'lifetime', 'variants'),
  ]).toEqual([Infinity, Infinity, Infinity])
})

describe('free plan', () => {
  test('10 products; the 11th → 403 productLimit { limit 10, current 10 }; deleted products do not count', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      const [res, body] = await product(key)
      expectStatus(res, body).toBe(201)
      ids.push(body.data.id)
    }
    let [res, body] = await product(key)
    expectPlanRequired(res, body, 'productLimit', { limit: 10, current: 10 })
    ;[res, body] = await t.api.delete(`/api/v1/products/${ids[0]}`, { key })
    expectStatus(res, body).toBe(200)
    ;[res, body] = await product(key)
    expectStatus(res, body).toBe(201)
    ;[res, body] = await product(key)
    expectPlanRequired(res, body, 'productLimit', { limit: 10, current: 10 })
    // An inactive product still counts: only deletion frees a slot.
    ;[res, body] = await t.api.put(`/api/v1/products/${ids[1]}`, { isActive: false }, { key })
    expectStatus(res, body).toBe(200)
    ;[res, body] = await product(key)
    expectStatus(res, body).toBe(403)
  })

  test('3 categories; the 4th → 403 categoryLimit { limit 3, current 3 }; a deleted one frees its slot', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const [res, body] = await category(key)
      expectStatus(res, body).toBe(201)
      ids.push(body.data.id)
    }
    let [res, body] = await category(key)
    expectPlanRequired(res, body, 'categoryLimit', { limit: 3, current: 3 })
    ;[res, body] = await t.api.delete(`/api/v1/categories/${ids[0]}`, { key })
    expectStatus(res, body).toBe(200)
    ;[res, body] = await category(key)
    expectStatus(res, body).toBe(201)
  })

  test('no variants: on create, and a PUT that adds variants → 403 variants { limit 0 }', async () => {
    const { key } = makeShop(t.deps, { plan: 'free' })
    let [res, body] = await product(key, { variants: [{ name: 'S', price: 5 }] })
    expectPlanRequired(res, body, 'variants', { limit: 0, current: 0 })
    ;[res, body] = await product(key)
    expectStatus(res, body).toBe(201)
    const id = body.data.id
    ;[res, body] = await t.api.put(
      `/api/v1/products/${id}`,
      {
        variants: [
          { name: 'M', price: 6 },
          { name: 'L', price: 7 },
        ],
      },
      { key },
    )
    expectPlanRequired(res, body, 'variants', { limit: 0, current: 0 })
    ;[res, body] = await t.api.get(`/api/v1/products/${id}`, { key })
    expect(body.data.variants).toEqual([])
    // A PUT without variants, or with an empty list, is fine.
    ;[res, body] = await t.api.put(`/api/v1/products/${id}`, { name: 'Renamed', variants: [] }, { key })
    expectStatus(res, body).toBe(200)
  })
})

describe('pro and lifetime', () => {
  test('pro: its own caps (configured 4 products, 2 categories here) and variants allowed', async () => {
    const { key } = makeShop(t.deps, { plan: 'pro' })
    for (let i = 0; i < 4; i++) {
      const [res, body] = await product(key, {
        variants: [
          { name: 'S', price: 5 },
          { name: 'M', price: 6 },
        ],
      })
      expectStatus(res, body).toBe(201)
      expect(body.data.variants).toHaveLength(2)
    }
    let [res, body] = await product(key)
    expectPlanRequired(res, body, 'productLimit', { limit: 4, current: 4 })
    for (let i = 0; i < 2; i++) {
      ;[res, body] = await category(key)
      expectStatus(res, body).toBe(201)
    }
    ;[res, body] = await category(key)
    expectPlanRequired(res, body, 'categoryLimit', { limit: 2, current: 2 })
  })

  test('lifetime: no caps', async () => {
    const { key } = makeShop(t.deps, { plan: 'lifetime' })
    for (let i = 0; i < 12; i++) {
      const [res, body] = await product(key, { variants: [{ name: 'S', price: 5 }] })
      expectStatus(res, body).toBe(201)
    }
    for (let i = 0; i < 5; i++) {
      const [res, body] = await category(key)
      expectStatus(res, body).toBe(201)
    }
  })
})

describe('store:plan takes effect on the next request', () => {
  test('admin CLI (another connection): upgrade lifts the cap, downgrade restores it, current > limit', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'free' })
    for (let i = 0; i < 10; i++) expectStatus(...(await product(key))).toBe(201)
    let [res, body] = await product(key)
    expect(res.status).toBe(403)
    ;[res, body] = await t.api.get('/api/v1/stats', { key })
    expect(body.feature).toBe('advancedAnalytics')

    const out: string[] = []
    expect(runAdmin(['store:plan', store.slug, 'lifetime', '--json'], (s) => out.push(s))).toBe(0)
    expect(JSON.parse(out[0]!)).toMatchObject({ id: store.id, plan: 'lifetime' })
    for (let i = 0; i < 3; i++) expectStatus(...(await product(key))).toBe(201)
    ;[res, body] = await t.api.get('/api/v1/stats', { key })
    expectStatus(res, body).toBe(200)

    expect(runAdmin(['store:plan', store.id, 'free', '--json'], () => {})).toBe(0)
    ;[res, body] = await product(key)
    expectPlanRequired(res, body, 'productLimit', { limit: 10, current: 13 })
    ;[res, body] = await t.api.get('/api/v1/stats', { key })
    expectStatus(res, body).toBe(403)
  })

  test('via setPlan on a second connection', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'free' })
    let [res, body] = await product(key, { variants: [{ name: 'S', price: 1 }] })
    expect(res.status).toBe(403)
    setPlan({ ctx: { db: t.adminDb(), clock: systemClock }, input: { ref: store.id, plan: 'pro' } })
    ;[res, body] = await product(key, { variants: [{ name: 'S', price: 1 }] })
    expectStatus(res, body).toBe(201)
  })
})
