/** BENCH_NO_RESPONSE_CACHE (benches only): read once by config; with it every GET is built from the database. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct } from '../helpers/factories'

describe('BENCH_NO_RESPONSE_CACHE', () => {
  let t: TestApp
  beforeAll(() => {
    t = makeApp({ benchNoResponseCache: true, rateLimitKey: 100_000 })
  })
  afterAll(() => t.close())

  test('is off by default and parsed as a flag', () => {
    expect(loadConfig({}).benchNoResponseCache).toBe(false)
    expect(loadConfig({ BENCH_NO_RESPONSE_CACHE: '1' }).benchNoResponseCache).toBe(true)
    expect(() => loadConfig({ BENCH_NO_RESPONSE_CACHE: 'maybe' })).toThrow('BENCH_NO_RESPONSE_CACHE')
  })

  test('keeps no bodies: a row written behind the cache’s back shows on the next read', async () => {
    const { store, key } = makeShop(t.deps)
    const [res, first] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, first).toBe(200)
    expect(first.total).toBe(0)
    // Same connection, no write helper: nothing drops the cache, so only an uncached read sees it.
    addProduct(t.deps, store.id, { name: 'Behind' })
    const [, second] = await t.api.get('/api/v1/products', { key })
    expect(second.total).toBe(1)
    expect(t.deps.cache.getResponse(store.id, 'products')).toBeUndefined()
  })
})
