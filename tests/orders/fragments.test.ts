/**
 * The order list and the customer detail concatenate cached per-order list forms
 * (orders/fragments.ts): after every kind of write — through the API, the panel, the expiry
 * job, another connection — they must return exactly the bytes a build from the database gives.
 * The reference is the full build (`listOrders`, `getCustomer`), run right after each read. The
 * steps run twice: with the response cache off (BENCH_NO_RESPONSE_CACHE's setting), so every read
 * goes through the fragments, and on, so the bodies kept between writes are checked as well.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { expectStatus, makeApp, type TestApp } from '../helpers/app'
import { addShipping, makeKey, makeShop, uniqPhone } from '../helpers/factories'
import { makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { ctxFor } from '../../src/kernel/context'
import { listOrders } from '../../src/modules/orders/service'
import { getCustomer } from '../../src/modules/customers/service'
import { storeBySlug } from '../../src/modules/public-catalog/sql'
import type { OrderListQuery } from '../../src/modules/orders/model'
import type { CustomerGetQuery } from '../../src/modules/customers/model'

/** The same steps with the store's response cache off (every read built) and on (bodies kept between writes). */
for (const responses of [false, true])
  describe(responses ? 'with the response cache' : 'without the response cache', () => {
    let t: TestApp
    let shop: Awaited<ReturnType<typeof makeOwnerShop>>
    let key: string
    let other: ReturnType<typeof makeShop>
    let owner: PanelClient
    const productIds: string[] = []
    const variantIds: string[] = []
    let shippingId: string
    const orderIds: string[] = []
    const PHONES = ['+14155550101', '+14155550102']
    const SINCE = '2000-01-01T00:00:00.000Z'

    const LISTS = [
      '/api/v1/orders?limit=50',
      '/api/v1/orders?limit=3&offset=2',
      '/api/v1/orders?status=pending',
      '/api/v1/orders?status=cancelled',
      `/api/v1/orders?createdSince=${SINCE}&limit=5`,
    ]
    const CUSTOMER_QUERIES = ['', '?ordersLimit=2&ordersOffset=1']

    /** The query as the route's validation hands it over: numbers coerced. */
    function queryOf<T>(path: string): T {
      const q: Record<string, string | number> = Object.fromEntries(new URL(`http://x${path}`).searchParams)
      for (const k of ['limit', 'offset', 'ordersLimit', 'ordersOffset']) if (k in q) q[k] = Number(q[k])
      return q as T
    }

    const customerIds = () =>
      t.deps.db.$client
        .query<{ id: string }, [string]>('SELECT id FROM customers WHERE store_id = ? ORDER BY id')
        .all(shop.store.id)
        .map((r) => r.id)

    async function served(path: string, as = key): Promise<string> {
      const res = await t.app.handle(
        new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${as}` } }),
      )
      const text = await res.text()
      expect(`${path}: ${res.status}`).toBe(`${path}: 200`)
      return text
    }

    /**
     * With the response cache on, a read is served twice: the second answer is the kept body (the
     * test checks it is kept), so both the build and the kept body are compared with the full build.
     */
    async function servedEach(path: string): Promise<string[]> {
      const first = await served(path)
      if (!responses) return [first]
      expect(`${path} kept: ${t.deps.cache.getResponse(shop.store.id, path) !== undefined}`).toBe(`${path} kept: true`)
      return [first, await served(path)]
    }

    /** Every list and every customer, served (fragments) and built whole, byte for byte. */
    async function expectFresh(label: string): Promise<void> {
      const ctx = ctxFor(t.deps, storeBySlug(t.deps.db.$client, shop.store.slug)!)
      for (const path of LISTS) {
        const fresh = JSON.stringify(listOrders({ ctx, input: queryOf<OrderListQuery>(path) }))
        for (const body of await servedEach(path))
          expect(`${label} ${path}: ${body}`).toBe(`${label} ${path}: ${fresh}`)
      }
      for (const id of customerIds()) {
        for (const q of CUSTOMER_QUERIES) {
          const fresh = JSON.stringify({ data: getCustomer({ ctx, input: { id, ...queryOf<CustomerGetQuery>(q) } }) })
          for (const body of await servedEach(`/api/v1/customers/${id}${q}`))
            expect(`${label} customer ${id}${q}: ${body}`).toBe(`${label} customer ${id}${q}: ${fresh}`)
        }
      }
    }

    async function order(phone = PHONES[orderIds.length % 2]!, notes?: string): Promise<string> {
      const items = [
        { variantId: variantIds[orderIds.length % variantIds.length]!, quantity: 1 },
        { productId: productIds[1]!, quantity: 1 + orderIds.length },
      ]
      const [res, body] = await t.api.post('/api/orders', {
        storeId: shop.store.id,
        name: `Buyer ${orderIds.length}`,
        phone,
        address: 'Calle 1',
        items,
        shippingOptionId: shippingId,
        notes,
      })
      expectStatus(res, body).toBe(201)
      orderIds.push(body.id)
      return body.id
    }

    async function setStatus(id: string, status: string, path = `/api/v1/orders/${id}/status`): Promise<void> {
      const [res, body] = await t.api.put(path, { status }, { key })
      expectStatus(res, body).toBe(200)
    }

    const statusOf = (id: string) =>
      t.deps.db.$client.query<{ status: string }, [string]>('SELECT status FROM orders WHERE id = ?').get(id)!.status

    beforeAll(async () => {
      t = makeApp({
        benchNoResponseCache: !responses,
        rateLimitKey: 1_000_000,
        rateLimitOrders: 1_000_000,
        rateLimitStoreReads: 1_000_000,
      })
      shop = await makeOwnerShop(t.deps)
      key = makeKey(t.deps, shop.store.id)
      other = makeShop(t.deps)
      shippingId = addShipping(t.deps, shop.store.id, { price: 300 }).id
      for (let i = 0; i < 2; i++) {
        const variants =
          i === 0
            ? [
                { name: 'S', price: 10.5, stock: 100 },
                { name: 'M', price: 11 },
              ]
            : undefined
        const [res, body] = await t.api.post(
          '/api/v1/products',
          { name: `P${i} "quoted" ü`, price: 20 + i, stock: i === 1 ? 100 : null, variants },
          { key },
        )
        expectStatus(res, body).toBe(201)
        productIds.push(body.data.id)
        for (const v of body.data.variants) variantIds.push(v.id)
      }
      for (let i = 0; i < 5; i++) await order(undefined, i % 2 ? 'Ring "twice"\n' : undefined)
      owner = new PanelClient((r) => t.app.handle(r))
      await signIn(owner, shop.email)
    })
    afterAll(() => t.close())

    describe('order fragments equal the full build after each kind of write', () => {
      const steps: [string, () => Promise<unknown>][] = [
        ['a new order (a known customer)', () => order(PHONES[0])],
        ['a new order (a new customer)', () => order(uniqPhone())],
        ['status move (API)', () => setStatus(orderIds[0]!, 'confirmed')],
        [
          'status move (API alias PUT /orders/:id)',
          () => setStatus(orderIds[0]!, 'shipped', `/api/v1/orders/${orderIds[0]}`),
        ],
        ['cancellation (stock back)', () => setStatus(orderIds[1]!, 'cancelled')],
        [
          'status move (panel)',
          async () => {
            const page = await owner.submitFrom(`/admin/orders/${orderIds[2]}`, `/admin/orders/${orderIds[2]}/status`, {
              status: 'confirmed',
            })
            expect(page.status).toBe(303)
            expect(statusOf(orderIds[2]!)).toBe('confirmed')
          },
        ],
        [
          'internal note (panel)',
          async () => {
            const page = await owner.submitFrom(`/admin/orders/${orderIds[3]}`, `/admin/orders/${orderIds[3]}/notes`, {
              body: 'Called the customer',
            })
            expect(page.status).toBe(303)
          },
        ],
        ['product price change (API)', () => t.api.put(`/api/v1/products/${productIds[1]}`, { price: 77 }, { key })],
        ['store currency change (API)', () => t.api.put('/api/v1/store', { currency: 'EUR' }, { key })],
        [
          'expiry job cancels pending orders',
          async () => {
            const { expirePendingOrders } = await import('../../src/jobs/expire-orders')
            expect(
              expirePendingOrders({ ...t.deps, clock: { now: () => Date.now() + 400 * 86_400_000 } }),
            ).toBeGreaterThan(0)
          },
        ],
        [
          'another connection (the admin CLI) changes a status and a customer',
          async () => {
            const admin = t.adminDb().$client
            admin.run("UPDATE orders SET status = 'delivered' WHERE id = ?", [orderIds[0]!])
            admin.run("UPDATE customers SET name = 'Renamed elsewhere', address = NULL WHERE store_id = ?", [
              shop.store.id,
            ])
          },
        ],
      ]
      for (const [name, run] of steps) {
        test(name, async () => {
          await expectFresh('before')
          await run()
          await expectFresh('after')
        })
      }
    })

    describe('what a write drops', () => {
      test('a checkout keeps the other orders’ fragments; a status move drops only its order’s', async () => {
        await expectFresh('warm')
        const frags = t.deps.cache.orderFragments
        const before = new Map(frags.of(shop.store.id))
        expect(before.size).toBeGreaterThanOrEqual(orderIds.length - 1)
        const id = await order()
        expect([...frags.of(shop.store.id).keys()]).toEqual([...before.keys()])
        await served('/api/v1/orders?limit=50')
        expect(frags.of(shop.store.id).has(id)).toBe(true)
        await setStatus(id, 'confirmed')
        expect(frags.of(shop.store.id).has(id)).toBe(false)
        expect(frags.of(shop.store.id).size).toBe(before.size)
        expect(await served('/api/v1/orders?limit=1')).toContain('"status":"confirmed"')
      })

      test('a write naming no order drops all of its store’s order fragments, not another store’s', async () => {
        await expectFresh('warm')
        const mine = await served('/api/v1/orders?limit=50', other.key)
        expect(mine).toBe('{"data":[],"total":0,"limit":50,"offset":0}')
        const [ro, bo] = await t.api.post('/api/orders', {
          storeId: other.store.id,
          name: 'Elsewhere',
          phone: uniqPhone(),
          items: [
            {
              productId: (await t.api.post('/api/v1/products', { name: 'X', price: 1 }, { key: other.key }))[1].data.id,
              quantity: 1,
            },
          ],
        })
        expectStatus(ro, bo).toBe(201)
        expect(await served('/api/v1/orders?limit=50', other.key)).toContain(bo.id)
        expect(await served('/api/v1/orders?limit=50')).not.toContain(bo.id)
        expect(t.deps.cache.orderFragments.of(other.store.id).size).toBe(1)
        const [res, body] = await t.api.post('/api/v1/shipping', { name: 'Pickup', price: 0 }, { key })
        expectStatus(res, body).toBe(201)
        expect(t.deps.cache.orderFragments.of(shop.store.id).size).toBe(0)
        expect(t.deps.cache.orderFragments.of(other.store.id).size).toBe(1)
      })
    })
  })
