/**
 * The product list and the public store read concatenate cached per-product fragments
 * (products/fragments.ts): after every kind of write they must return exactly the bytes a build
 * from the database gives. The reference here is the full build (`listProducts`,
 * `storefrontOf`), run on the same connection right after each read. The response cache is off
 * (BENCH_NO_RESPONSE_CACHE's setting), so every read goes through the fragments.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { expectStatus, makeApp, type Json, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addShipping, uniqPhone } from '../helpers/factories'
import { ctxFor } from '../../src/kernel/context'
import { getProduct, listProducts } from '../../src/modules/products/service'
import { storefrontOf } from '../../src/modules/public-catalog/service'
import { storeBySlug } from '../../src/modules/public-catalog/sql'
import type { ProductListQuery } from '../../src/modules/products/model'

let t: TestApp
let shop: ReturnType<typeof makeShop>
let other: ReturnType<typeof makeShop>
const ids: string[] = []
const variantIds: string[] = []
let shippingId: string

const LISTS = [
  '/api/v1/products?limit=50',
  '/api/v1/products?limit=3&offset=2',
  '/api/v1/products?isActive=all&limit=50',
  '/api/v1/products?isActive=false',
]

function queryOf(path: string): ProductListQuery {
  // As the route's validation hands it over: numbers coerced.
  const q: Record<string, string | number> = Object.fromEntries(new URL(`http://x${path}`).searchParams)
  for (const k of ['limit', 'offset']) if (k in q) q[k] = Number(q[k])
  return q as ProductListQuery
}

/** Every list and the store read, served (fragments) and built whole, byte for byte. */
async function expectFresh(label: string): Promise<void> {
  const store = storeBySlug(t.deps.db.$client, shop.store.slug)!
  for (const path of LISTS) {
    const res = await t.app.handle(
      new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${shop.key}` } }),
    )
    const served = await res.text()
    expect(res.status).toBe(200)
    const fresh = JSON.stringify(listProducts({ ctx: ctxFor(t.deps, store), input: queryOf(path) }))
    expect(`${label} ${path}: ${served}`).toBe(`${label} ${path}: ${fresh}`)
  }
  // Each product by id (deleted ones included: 404 from both), and another store's key: 403.
  const all = t.deps.db.$client
    .query<{ id: string }, [string]>('SELECT id FROM products WHERE store_id = ?')
    .all(shop.store.id)
  for (const { id } of all) {
    const byId = await t.app.handle(
      new Request(`http://localhost/api/v1/products/${id}`, { headers: { authorization: `Bearer ${shop.key}` } }),
    )
    let fresh: string
    try {
      const data = getProduct({ ctx: ctxFor(t.deps, store), input: { id } })
      fresh = `200 application/json;charset=utf-8 ${JSON.stringify({ data })}`
    } catch (e) {
      fresh = `${(e as { status: number }).status}`
    }
    const served =
      byId.status === 200 ? `200 ${byId.headers.get('content-type')} ${await byId.text()}` : `${byId.status}`
    expect(`${label} product ${id}: ${served}`).toBe(`${label} product ${id}: ${fresh}`)
    const theirs = await t.app.handle(
      new Request(`http://localhost/api/v1/products/${id}`, { headers: { authorization: `Bearer ${other.key}` } }),
    )
    expect(`${label} product ${id} with another store's key: ${theirs.status}`).toBe(
      `${label} product ${id} with another store's key: ${fresh === '404' ? 404 : 403}`,
    )
  }
  const res = await t.app.handle(new Request(`http://localhost/api/v1/stores/${shop.store.slug}`))
  const served = await res.text()
  expect(res.status).toBe(200)
  const fresh = JSON.stringify({ data: storefrontOf({ ctx: { db: t.deps.db, store, config: t.config } }) })
  expect(`${label} store: ${served}`).toBe(`${label} store: ${fresh}`)
}

const api = () => t.api
const key = () => ({ key: shop.key })
const image = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 10, g: 120, b: 30 } } })
    .jpeg()
    .toBuffer()

async function upload(productId: string): Promise<Json> {
  const form = new FormData()
  form.set('file', new Blob([await image()], { type: 'image/jpeg' }), 'p.jpg')
  const res = await t.app.handle(
    new Request(`http://localhost/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.key}` },
      body: form,
    }),
  )
  const body = (await res.json()) as Json
  expectStatus(res, body).toBe(201)
  return body.data
}

async function order(items: { productId?: string; variantId?: string; quantity: number }[]): Promise<string> {
  const [res, body] = await api().post('/api/orders', {
    storeId: shop.store.id,
    name: 'Ana',
    phone: uniqPhone(),
    address: 'Calle 1',
    items,
    shippingOptionId: shippingId,
  })
  expectStatus(res, body).toBe(201)
  return body.id
}

beforeAll(async () => {
  t = makeApp({
    benchNoResponseCache: true,
    rateLimitKey: 1_000_000,
    rateLimitOrders: 1_000_000,
    rateLimitStoreReads: 1_000_000,
    publicUrl: 'https://shop.example',
  })
  shop = makeShop(t.deps)
  other = makeShop(t.deps)
  shippingId = addShipping(t.deps, shop.store.id, { price: 300 }).id
  for (let i = 0; i < 6; i++) {
    const variants =
      i % 2
        ? [
            { name: 'S', price: 10 + i, stock: 5 },
            { name: 'M', price: 11 + i },
            { name: 'L', price: 12 + i, isActive: false },
          ]
        : undefined
    const [res, body] = await api().post(
      '/api/v1/products',
      { name: `P${i}`, price: 20 + i, stock: i % 3 === 0 ? 4 : null, variants },
      key(),
    )
    expectStatus(res, body).toBe(201)
    ids.push(body.data.id)
    for (const v of body.data.variants) variantIds.push(v.id)
  }
  await api().post('/api/v1/products', { name: 'Elsewhere', price: 1 }, { key: other.key })
})
afterAll(() => t.close())

describe('fragments equal the full build after each kind of write', () => {
  // Each step is one writer; the reads before it have filled the fragments.
  const steps: [string, () => Promise<unknown>][] = [
    [
      'product create',
      () =>
        api().post(
          '/api/v1/products',
          { name: 'New', price: 5, variants: [{ name: 'One', price: 6, stock: 2 }] },
          key(),
        ),
    ],
    [
      'product update (fields)',
      () => api().put(`/api/v1/products/${ids[0]}`, { price: 99.5, description: 'now described' }, key()),
    ],
    [
      'product update (variants, stock)',
      () =>
        api().put(
          `/api/v1/products/${ids[1]}`,
          {
            name: 'P1',
            price: 21,
            variants: [
              { id: variantIds[0], name: 'S', price: 10, stock: 0 },
              { name: 'XL', price: 13 },
            ],
          },
          key(),
        ),
    ],
    ['product deactivate', () => api().put(`/api/v1/products/${ids[2]}`, { isActive: false }, key())],
    ['order, tracked product stock', () => order([{ productId: ids[0]!, quantity: 2 }])],
    [
      'order, tracked variant stock',
      () =>
        order([
          { variantId: variantIds[3]!, quantity: 1 },
          { productId: ids[4]!, quantity: 1 },
        ]),
    ],
    ['order, untracked only', () => order([{ productId: ids[4]!, quantity: 3 }])],
    [
      'cancellation (stock back)',
      async () => {
        const id = await order([
          { productId: ids[0]!, quantity: 1 },
          { variantId: variantIds[3]!, quantity: 1 },
        ])
        await expectFresh('before cancel')
        const [res, body] = await api().put(`/api/v1/orders/${id}/status`, { status: 'cancelled' }, key())
        expectStatus(res, body).toBe(200)
      },
    ],
    ['image upload', () => upload(ids[5]!)],
    [
      'image move and delete',
      async () => {
        const a = await upload(ids[4]!)
        await upload(ids[4]!)
        await expectFresh('after two uploads')
        const [r1, b1] = await api().put(`/api/v1/products/${ids[4]}/images/${a.id}`, { position: 1 }, key())
        expectStatus(r1, b1).toBe(200)
        await expectFresh('after move')
        const [r2, b2] = await api().delete(`/api/v1/products/${ids[4]}/images/${a.id}`, key())
        expectStatus(r2, b2).toBe(200)
      },
    ],
    [
      'category assigned then deleted',
      async () => {
        const [rc, c] = await api().post('/api/v1/categories', { name: 'Cat' }, key())
        expectStatus(rc, c).toBe(201)
        await api().put(`/api/v1/products/${ids[1]}`, { categoryId: c.data.id }, key())
        await expectFresh('with category')
        const [rd, d] = await api().delete(`/api/v1/categories/${c.data.id}`, key())
        expectStatus(rd, d).toBe(200)
      },
    ],
    ['store currency change', () => api().put('/api/v1/store', { currency: 'EUR' }, key())],
    [
      'shipping option added, then repriced and deactivated',
      async () => {
        const [r1, b1] = await api().post('/api/v1/shipping', { name: 'Moto', price: 2.5 }, key())
        expectStatus(r1, b1).toBe(201)
        await expectFresh('shipping added')
        const [r2, b2] = await api().put(`/api/v1/shipping/${b1.data.id}`, { price: 3.75 }, key())
        expectStatus(r2, b2).toBe(200)
        await expectFresh('shipping repriced')
        const [r3, b3] = await api().put(`/api/v1/shipping/${b1.data.id}`, { isActive: false }, key())
        expectStatus(r3, b3).toBe(200)
      },
    ],
    [
      'category created, then renamed',
      async () => {
        const [r1, b1] = await api().post('/api/v1/categories', { name: 'Fresh' }, key())
        expectStatus(r1, b1).toBe(201)
        await expectFresh('category created')
        const [r2, b2] = await api().put(`/api/v1/categories/${b1.data.id}`, { name: 'Renamed' }, key())
        expectStatus(r2, b2).toBe(200)
      },
    ],
    [
      'a review submitted, then approved',
      async () => {
        const [r1, b1] = await api().post('/api/reviews', {
          storeId: shop.store.id,
          productId: ids[5],
          customerName: 'Rita',
          rating: 4,
        })
        expectStatus(r1, b1).toBe(201)
        await expectFresh('review pending')
        const [r2, b2] = await api().put(`/api/v1/reviews/${b1.id}`, { status: 'approved' }, key())
        expectStatus(r2, b2).toBe(200)
      },
    ],
    [
      'store renamed (settings)',
      () => api().put('/api/v1/store', { name: 'Renamed shop', description: 'New words' }, key()),
    ],
    [
      'store shows its stock counts, then hides them again (settings)',
      async () => {
        const [r1, b1] = await api().put('/api/v1/store', { showStockCount: true }, key())
        expectStatus(r1, b1).toBe(200)
        await expectFresh('counts shown')
        await order([{ variantId: variantIds[3]!, quantity: 1 }])
        await expectFresh('counts shown, after an order')
        const [r2, b2] = await api().put('/api/v1/store', { showStockCount: false }, key())
        expectStatus(r2, b2).toBe(200)
      },
    ],
    ['product delete', () => api().delete(`/api/v1/products/${ids[0]}`, key())],
    [
      'another connection (the admin CLI) changes stock and a name',
      async () => {
        const admin = t.adminDb().$client
        admin.run('UPDATE variants SET stock = 1 WHERE id = ?', [variantIds[3]!])
        admin.run("UPDATE products SET name = 'Renamed elsewhere' WHERE id = ?", [ids[5]!])
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
  test('an order drops only the fragments of the products whose stock it took', async () => {
    await expectFresh('warm')
    const frags = t.deps.cache.fragments
    const n = frags.size
    expect(n).toBeGreaterThan(5)
    const before = new Map(frags.of(shop.store.id))
    await order([{ variantId: variantIds[3]!, quantity: 1 }])
    const after = frags.of(shop.store.id)
    expect([...before.keys()].filter((id) => !after.has(id))).toEqual([ids[3]!])
    await order([{ productId: ids[4]!, quantity: 1 }])
    expect(frags.of(shop.store.id).size).toBe(after.size)
  })

  test(
    'an order and a status move keep what the store lists (ids, totals, categories, shipping); ' +
      'other writes drop it',
    async () => {
      const cache = t.deps.cache
      const listing = cache.listing.bind(cache)
      let builds = 0
      cache.listing = (storeId, k, build) => listing(storeId, k, () => (builds++, build()))
      try {
        await expectFresh('warm')
        builds = 0
        const id = await order([{ productId: ids[4]!, quantity: 2 }])
        await expectFresh('after an order')
        const [res, body] = await api().put(`/api/v1/orders/${id}/status`, { status: 'cancelled' }, key())
        expectStatus(res, body).toBe(200)
        await expectFresh('after a cancellation')
        expect(builds).toBe(0)
        const [rp, bp] = await api().put(`/api/v1/products/${ids[4]}`, { price: 3 }, key())
        expectStatus(rp, bp).toBe(200)
        await expectFresh('after a product update')
        // Every product list's page, and the public read's listing and its views with review figures.
        expect(builds).toBe(LISTS.length + 2)
      } finally {
        cache.listing = listing
      }
    },
  )

  test('a write that names no product drops all of its store’s fragments, not another store’s', async () => {
    await expectFresh('warm')
    await t.app.handle(
      new Request('http://localhost/api/v1/products', { headers: { authorization: `Bearer ${other.key}` } }),
    )
    expect(t.deps.cache.fragments.of(other.store.id).size).toBe(1)
    const [res, body] = await api().post('/api/v1/shipping', { name: 'Pickup', price: 0 }, key())
    expectStatus(res, body).toBe(201)
    expect(t.deps.cache.fragments.of(shop.store.id).size).toBe(0)
    expect(t.deps.cache.fragments.of(other.store.id).size).toBe(1)
  })
})

describe('a randomized sequence of writes', () => {
  test('after each, the served bodies equal the full build', async () => {
    let seed = 16
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
    const live = () => ids.slice(1)
    const orders: string[] = []
    const writers: (() => Promise<unknown>)[] = [
      () =>
        api().put(`/api/v1/products/${live()[rnd(5)]}`, { price: 1 + rnd(50), stock: rnd(3) ? rnd(9) : null }, key()),
      () => api().put(`/api/v1/products/${live()[rnd(5)]}`, { isActive: rnd(2) === 0 }, key()),
      async () => {
        const [res, body] = await api().post('/api/orders', {
          storeId: shop.store.id,
          name: 'B',
          phone: uniqPhone(),
          items: [
            rnd(2) ? { productId: [ids[2], ids[4]][rnd(2)] } : { variantId: variantIds[rnd(variantIds.length)] },
          ].map((i) => ({ ...i, quantity: 1 + rnd(2) })),
          shippingOptionId: shippingId,
        })
        if (res.status === 201) orders.push(body.id)
      },
      async () => {
        const id = orders.pop()
        if (id) await api().put(`/api/v1/orders/${id}/status`, { status: 'cancelled' }, key())
      },
      async () => void t.adminDb().$client.run('UPDATE products SET stock = ? WHERE id = ?', [rnd(4), live()[rnd(5)]!]),
    ]
    for (let i = 0; i < 40; i++) {
      await writers[rnd(writers.length)]!()
      await expectFresh(`write ${i}`)
    }
  })
})

describe('bounded memory', () => {
  test('per store the oldest fragment goes first; in all, the least recently read store’s', async () => {
    const { Fragments } = await import('../../src/db/fragments')
    const f = new Fragments(3, 5)
    for (const id of ['a', 'b', 'c', 'd']) f.set('s1', id, id)
    expect([...f.of('s1').keys()]).toEqual(['b', 'c', 'd'])
    f.set('s2', 'x', 'x')
    f.set('s2', 'y', 'y')
    expect(f.size).toBe(5)
    f.of('s1') // s1 read last: s2 is the one to go
    f.set('s3', 'z', 'z')
    expect(f.size).toBeLessThanOrEqual(5)
    expect(f.of('s2').size).toBe(0)
    expect([...f.of('s1').keys()]).toEqual(['b', 'c', 'd'])
    f.drop('s1', ['c'])
    expect([...f.of('s1').keys()]).toEqual(['b', 'd'])
    f.drop('s1')
    expect(f.of('s1').size).toBe(0)
  })
})
