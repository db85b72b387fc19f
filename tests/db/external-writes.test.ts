/**
 * Another process's commits (the admin CLI's) reach the cached answers through `PRAGMA
 * data_version`, read at most once per EXTERNAL_WRITE_LAG_MS (db/cache.ts, docs/decisions/021).
 * The app runs with the production lag here; the monotonic clock the cache reads is stepped.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeProduct, makeShop } from '../helpers/factories'
import { EXTERNAL_WRITE_LAG_MS } from '../../src/db/cache'

let t: TestApp
let now = 1_000
beforeAll(() => {
  t = makeApp({}, { externalWrites: { now: () => now } })
})
afterAll(() => t.close())

const names = async (key: string) => {
  const [res, body] = await t.api.get('/api/v1/products?limit=50', { key })
  expectStatus(res, body).toBe(200)
  return (body.data as { name: string }[]).map((p) => p.name)
}

test('a commit by another connection is seen by every request at least the lag after it, and not before', async () => {
  const { store, key } = makeShop(t.deps)
  const product = makeProduct(t.deps, store.id, { name: 'Before' })
  expect(await names(key)).toEqual(['Before']) // cached now
  now += EXTERNAL_WRITE_LAG_MS // the last look is behind us
  expect(await names(key)).toEqual(['Before'])

  t.adminDb().$client.run('UPDATE products SET name = ? WHERE id = ?', ['After', product.id])
  // The look just made saw no commit; the cached answer stands until the lag has passed.
  now += EXTERNAL_WRITE_LAG_MS / 2
  expect(await names(key)).toEqual(['Before'])
  now += EXTERNAL_WRITE_LAG_MS / 2
  expect(await names(key)).toEqual(['After'])
  now += EXTERNAL_WRITE_LAG_MS * 10
  expect(await names(key)).toEqual(['After'])
})

test('a key revoked by another connection is refused once the lag has passed', async () => {
  const { key } = makeShop(t.deps)
  now += EXTERNAL_WRITE_LAG_MS
  expect((await t.api.get('/api/v1/products', { key }))[0].status).toBe(200)
  t.adminDb().$client.run('UPDATE api_keys SET revoked_at = ? WHERE prefix = ?', [Date.now(), key.slice(0, 12)])
  now += EXTERNAL_WRITE_LAG_MS
  const [res, body] = await t.api.get('/api/v1/products', { key })
  expectStatus(res, body).toBe(401)
  expect(body.code).toBe('UNAUTHORIZED')
})

test("the API's own writes need no lag: they clear what they changed at commit", async () => {
  const { store, key } = makeShop(t.deps)
  const product = makeProduct(t.deps, store.id, { name: 'Mine' })
  expect(await names(key)).toEqual(['Mine'])
  const [res, body] = await t.api.put(`/api/v1/products/${product.id}`, { name: 'Renamed' }, { key })
  expectStatus(res, body).toBe(200)
  expect(await names(key)).toEqual(['Renamed']) // the clock has not moved
})
