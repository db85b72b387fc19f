/**
 * A key GET whose whole answer is cached (the product list) is answered by the pipeline right
 * after the gate, before routing (docs/decisions/008): the same bytes and headers as the answer
 * the route built, one log line with its route, and every check of the gate still first — a
 * revoked key, a missing scope, a suspended store and the rate limit all win over the cache.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { capturingLog, makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeKey, makeShop } from '../helpers/factories'

const cleanup: (() => void)[] = []
afterEach(() => {
  while (cleanup.length) cleanup.pop()!()
})

function app(overrides = {}) {
  const { log, lines } = capturingLog()
  const t = makeApp(overrides, { log })
  cleanup.push(() => t.close())
  return { t, requests: () => lines.filter((l) => l.msg === 'request') }
}

const headersOf = (res: Response) =>
  Object.fromEntries(
    [...res.headers].filter(([k]) => !['x-request-id', 'x-ratelimit-remaining', 'ratelimit'].includes(k)),
  )

async function createProduct(t: TestApp, key: string, name: string) {
  const [res, body] = await t.api.post('/api/v1/products', { name, price: 9.5 }, { key })
  expectStatus(res, body).toBe(201)
}

describe('cached answers before routing', () => {
  test(
    'the second GET is the first one byte for byte, with the same headers, its own request id and counter, ' +
      'and a log line naming the route',
    async () => {
      const { t, requests } = app()
      const { key } = makeShop(t.deps)
      await createProduct(t, key, 'Lamp')
      const [first, firstBody] = await t.api.get('/api/v1/products?limit=50', { key })
      const [second, secondBody] = await t.api.get('/api/v1/products?limit=50', { key })
      expectStatus(second, secondBody).toBe(200)
      expect(secondBody).toEqual(firstBody)
      expect(headersOf(second)).toEqual(headersOf(first))
      expect(second.headers.get('content-type')).toBe('application/json')
      expect(second.headers.get('cache-control')).toBe('no-store')
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      )
      expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'))
      const lines = requests().slice(-2)
      expect(lines.map((l) => l.route)).toEqual(['/api/v1/products', '/api/v1/products'])
      expect(lines[1]!.id).toBe(second.headers.get('x-request-id'))
    },
  )

  test('each query string is its own answer, and a write to the store drops them', async () => {
    const { t } = app()
    const { key } = makeShop(t.deps)
    await createProduct(t, key, 'Lamp')
    await createProduct(t, key, 'Chair')
    for (let i = 0; i < 2; i++) {
      expect((await t.api.get('/api/v1/products?limit=1', { key }))[1].data).toHaveLength(1)
      expect((await t.api.get('/api/v1/products?limit=50', { key }))[1].data).toHaveLength(2)
    }
    await createProduct(t, key, 'Table')
    expect(
      (await t.api.get('/api/v1/products?limit=50', { key }))[1].data.map((p: { name: string }) => p.name),
    ).toContain('Table')
  })

  test(
    "the gate's checks come first: another store's key, a missing scope, a revoked key, a suspended store, " +
      'the rate limit',
    async () => {
      const { t } = app({ rateLimitKey: 6 })
      const { store, key } = makeShop(t.deps)
      const other = makeShop(t.deps, { slug: 'other-shop' })
      await createProduct(t, key, 'Lamp')
      expect((await t.api.get('/api/v1/products?limit=50', { key }))[0].status).toBe(200) // cached now
      // Another store's key sees its own (empty) list, never this store's cached one.
      expect((await t.api.get('/api/v1/products?limit=50', { key: other.key }))[1].data).toEqual([])
      const ordersOnly = makeKey(t.deps, store.id, ['orders:read'])
      const [noScope, noScopeBody] = await t.api.get('/api/v1/products?limit=50', { key: ordersOnly })
      expectStatus(noScope, noScopeBody).toBe(403)
      // Revoked and suspended through a second connection, as the admin CLI does.
      const second = makeKey(t.deps, store.id, ['products:read'])
      expect((await t.api.get('/api/v1/products?limit=50', { key: second }))[0].status).toBe(200)
      const admin = t.adminDb().$client
      admin.run('UPDATE api_keys SET revoked_at = ? WHERE store_id = ? AND scopes = ?', [
        Date.now(),
        store.id,
        'products:read',
      ])
      expect((await t.api.get('/api/v1/products?limit=50', { key: second }))[0].status).toBe(401)
      admin.run("UPDATE stores SET status = 'suspended' WHERE id = ?", [store.id])
      expect((await t.api.get('/api/v1/products?limit=50', { key }))[0].status).toBe(402)
      admin.run("UPDATE stores SET status = 'active' WHERE id = ?", [store.id])
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) statuses.push((await t.api.get('/api/v1/products?limit=50', { key }))[0].status)
      expect(statuses).toContain(429)
    },
  )
})
