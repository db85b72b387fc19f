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

  test('keeps no bodies: a read leaves none in the cache, where the cache on keeps one', async () => {
    const on = makeApp({ rateLimitKey: 100_000 })
    try {
      for (const app of [t, on]) {
        const { store, key } = makeShop(app.deps)
        addProduct(app.deps, store.id, { name: 'Lamp' })
        const [res, body] = await app.api.get('/api/v1/products', { key })
        expectStatus(res, body).toBe(200)
        expect(body.total).toBe(1)
        expect(app.deps.cache.getResponse(store.id, '/api/v1/products') === undefined).toBe(app === t)
      }
    } finally {
      on.close()
    }
  })
})
