/**
 * The reads of http/pre-routed.ts (order list, customer detail, product list, product by id) are
 * answered by the pipeline before routing once their route has validated the query string
 * (docs/decisions/016): the same status, headers and bytes as the route's own answer, a log line
 * naming the route; a query the route refuses, a missing record and another store's record are
 * still answered by the route (400, 404, 403), and the gate's checks still come first. The
 * response cache is off, so every answer is built.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { capturingLog, makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeCatalog, makeKey, makeShop, orderBody, placeOrder } from '../helpers/factories'
import { PreRouted } from '../../src/http/pre-routed'

const cleanup: (() => void)[] = []
afterEach(() => {
  while (cleanup.length) cleanup.pop()!()
})

/** An app whose pre-routed answers are counted, with its request log lines. */
function app(overrides = {}) {
  const { log, lines } = capturingLog()
  const t = makeApp({ benchNoResponseCache: true, ...overrides }, { log })
  const answer = PreRouted.prototype.answer
  // `off`: the router answers everything, as if nothing were pre-routed.
  const answered = { n: 0, off: false }
  PreRouted.prototype.answer = function (...args) {
    if (answered.off) return undefined
    const out = answer.apply(this, args)
    if (out) answered.n++
    return out
  }
  cleanup.push(() => {
    PreRouted.prototype.answer = answer
    t.close()
  })
  return { t, answered, requests: () => lines.filter((l) => l.msg === 'request') }
}

const headersOf = (res: Response) =>
  Object.fromEntries(
    [...res.headers].filter(([k]) => !['x-request-id', 'x-ratelimit-remaining', 'ratelimit'].includes(k)),
  )

async function get(t: TestApp, path: string, key?: string) {
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} }),
  )
  return { res, status: res.status, headers: headersOf(res), text: await res.text() }
}

function shopWithOrders(t: TestApp) {
  const shop = makeShop(t.deps)
  const cat = makeCatalog(t.deps, shop.store.id)
  const ids = [0, 1, 2].map(
    (i) =>
      placeOrder(
        t.deps,
        orderBody(shop.store.id, cat, {
          phone: '+14155550199',
          notes: i ? `note ${i}` : undefined,
          items: [{ productId: cat.mug.id, quantity: 1 + i }],
        }),
      ).body.id,
  )
  const customerId = t.deps.db.$client
    .query<{ id: string }, [string]>('SELECT customer_id AS id FROM orders WHERE id = ?')
    .get(ids[0]!)!.id
  return { ...shop, cat, ids, customerId }
}

describe('reads answered before routing', () => {
  test(
    'after the route has answered a query string, the pipeline answers it: same status, headers and bytes, ' +
      'a log line with the route',
    async () => {
      const { t, answered, requests } = app()
      const s = shopWithOrders(t)
      const paths: [string, string][] = [
        ['/api/v1/orders?limit=50', '/api/v1/orders'],
        ['/api/v1/orders?status=pending&limit=2&offset=1', '/api/v1/orders'],
        ['/api/v1/orders', '/api/v1/orders'],
        [`/api/v1/customers/${s.customerId}`, '/api/v1/customers/:id'],
        [`/api/v1/customers/${s.customerId}?ordersLimit=1&ordersOffset=1`, '/api/v1/customers/:id'],
        // By id first: a list builds (and keeps) its products' fragments, which by id then answers.
        [`/api/v1/products/${s.cat.mug.id}`, '/api/v1/products/:id'],
        [`/api/v1/products/${s.cat.shirt.id}`, '/api/v1/products/:id'],
        ['/api/v1/products?limit=50', '/api/v1/products'],
        ['/api/v1/products?isActive=all', '/api/v1/products'],
        [`/api/v1/stores/${s.store.slug}`, '/api/v1/stores/:slug'],
      ]
      for (const [path, route] of paths) {
        const key = path.startsWith('/api/v1/stores/') ? undefined : s.key
        answered.off = true
        const routed = await get(t, path, key)
        answered.off = false
        expect(`${path} ${routed.status}`).toBe(`${path} 200`)
        const before = answered.n
        const pre = await get(t, path, key)
        expect(answered.n).toBe(before + 1)

        expect({ path, status: pre.status, headers: pre.headers, text: pre.text }).toEqual({
          path,
          status: 200,
          headers: routed.headers,
          text: routed.text,
        })
        expect(
          requests()
            .slice(-2)
            .map((l) => [l.route, l.status]),
        ).toEqual([
          [route, 200],
          [route, 200],
        ])
      }
    },
  )

  test('a refused query, a missing record and another store’s record are still the route’s answers', async () => {
    const { t, answered } = app()
    const s = shopWithOrders(t)
    const other = shopWithOrders(t)
    await get(t, '/api/v1/orders?limit=50', s.key)
    await get(t, `/api/v1/customers/${s.customerId}`, s.key)
    await get(t, `/api/v1/products/${s.cat.mug.id}`, s.key)
    const n = answered.n
    const cases: [string, number][] = [
      ['/api/v1/orders?limit=0', 400],
      ['/api/v1/orders?limit=50&status=lost', 400],
      ['/api/v1/orders?createdSince=yesterday', 400],
      [`/api/v1/customers/${s.customerId}?ordersLimit=500`, 400],
      [`/api/v1/customers/${other.customerId}`, 403],
      ['/api/v1/customers/zzzzzzzzzzzzzzzzzzzzzzzz', 404],
      [`/api/v1/products/${other.cat.mug.id}`, 403],
      ['/api/v1/products/zzzzzzzzzzzzzzzzzzzzzzzz', 404],
      [`/api/v1/products/${s.cat.mug.id}?x=1`, 200],
    ]
    for (const [path, status] of cases) {
      for (let i = 0; i < 2; i++) expect(`${path} ${(await get(t, path, s.key)).status}`).toBe(`${path} ${status}`)
    }
    expect(answered.n).toBe(n)
    // Deleted: its fragment dropped with the write, so the route answers 404.
    const [del, delBody] = await t.api.delete(`/api/v1/products/${s.cat.mug.id}`, { key: s.key })
    expectStatus(del, delBody).toBe(200)
    expect((await get(t, `/api/v1/products/${s.cat.mug.id}`, s.key)).status).toBe(404)
    // The public store read: an unknown slug and a suspended store
    // are the route's answers, and a visit is counted per read.
    expect((await get(t, '/api/v1/stores/no-such-shop')).status).toBe(404)
    t.deps.db.$client.run("UPDATE stores SET status = 'suspended' WHERE id = ?", [other.store.id])
    t.deps.cache.invalidate(other.store.id)
    expect((await get(t, `/api/v1/stores/${other.store.slug}`)).status).toBe(402)
  })

  test('the gate still comes first: a missing scope, another store’s key', async () => {
    const { t } = app()
    const s = shopWithOrders(t)
    const other = shopWithOrders(t)
    expect((await get(t, '/api/v1/orders?limit=50', s.key)).status).toBe(200)
    expect((await get(t, `/api/v1/customers/${s.customerId}`, s.key)).status).toBe(200)
    const productsOnly = makeKey(t.deps, s.store.id, ['products:read'])
    expect((await get(t, '/api/v1/orders?limit=50', productsOnly)).status).toBe(403)
    expect((await get(t, `/api/v1/customers/${s.customerId}`, productsOnly)).status).toBe(403)
    // Another store's key with a remembered query string: its own orders, never this store's.
    const theirs = JSON.parse((await get(t, '/api/v1/orders?limit=50', other.key)).text)
    expect(theirs.data.map((o: { id: string }) => o.id).sort()).toEqual([...other.ids].sort())
  })
})
