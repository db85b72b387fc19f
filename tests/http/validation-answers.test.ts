/**
 * Bad input gets the right answer: non-object bodies, the
 * reason for a wrong JSON type, the array field named, messages in a shop owner's words, the
 * order of checks for another store's record on a paid route, totals past 2^53, and doubled
 * slashes in the path.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, expectStatus, type Json, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, addShipping, uniqPhone } from '../helpers/factories'
import { makeReview } from '../helpers/factories'
import { makeDiscount, makeShipping } from '../helpers/factories'

let t: TestApp
let key: string
let storeId: string
beforeAll(() => {
  t = makeApp()
  const shop = makeShop(t.deps, { plan: 'pro' })
  key = shop.key
  storeId = shop.store.id
})
afterAll(() => t.close())

const expectValidation = (res: Response, body: Json, field: string, reason: string) => {
  expectStatus(res, body).toBe(400)
  expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason } })
  // Never a validator's own words.
  expect(body.error).not.toMatch(/Expected|union|schema/i)
}

describe('a non-object JSON body where an object belongs → 400, nothing written', () => {
  const bodies = ['[]', '[{"name":"x"}]', '"x"', '5', 'true', 'null']

  test('PUT /api/v1/store', async () => {
    const [, before] = await t.api.get('/api/v1/store', { key })
    for (const raw of bodies) {
      const [res, body] = await t.api.put('/api/v1/store', undefined, { key, raw })
      expectValidation(res, body, 'body', 'invalid_type')
    }
    const [, after] = await t.api.get('/api/v1/store', { key })
    expect(after.data.updatedAt).toBe(before.data.updatedAt)
  })

  test('PUT on products, categories, discounts, shipping and webhooks; POST too', async () => {
    const [, product] = await t.api.post('/api/v1/products', { name: 'Mug', price: 5 }, { key })
    const [, category] = await t.api.post('/api/v1/categories', { name: 'Cups' }, { key })
    const discount = makeDiscount(t.deps, storeId)
    const shipping = makeShipping(t.deps, storeId)
    const targets = [
      `/api/v1/products/${product.data.id}`,
      `/api/v1/categories/${category.data.id}`,
      `/api/v1/discounts/${discount.id}`,
      `/api/v1/shipping/${shipping.id}`,
      '/api/v1/webhooks/no-such-webhook',
    ]
    for (const path of targets) {
      for (const raw of bodies) {
        const [res, body] = await t.api.put(path, undefined, { key, raw })
        expectValidation(res, body, 'body', 'invalid_type')
      }
    }
    const [, p] = await t.api.get(`/api/v1/products/${product.data.id}`, { key })
    expect(p.data.updatedAt).toBe(product.data.updatedAt)
    for (const path of ['/api/v1/products', '/api/v1/discounts', '/api/orders']) {
      const [res, body] = await t.api.post(path, undefined, { key, raw: '[]' })
      expectValidation(res, body, 'body', 'invalid_type')
    }
  })
})

describe('reasons, fields and messages', () => {
  test('a string where an integer belongs → invalid_type, saying what is allowed', async () => {
    const [res, body] = await t.api.post(
      '/api/v1/discounts',
      { code: 'MANY1', type: 'fixed', value: 1, maxUses: 'many' },
      { key },
    )
    expectValidation(res, body, 'maxUses', 'invalid_type')
    expect(body.error).toMatch(/integer.*or null/)
    const [res2, body2] = await t.api.post(
      '/api/v1/shipping',
      { name: 'Courier', price: 1, estimatedDays: '2-3 days' },
      { key },
    )
    expectValidation(res2, body2, 'estimatedDays', 'invalid_type')
    expect(body2.error).toContain('an integer from 0 to 365 or null')
  })

  test('an out-of-range integer names its bounds', async () => {
    const [res, body] = await t.api.post(
      '/api/v1/discounts',
      { code: 'NEG1', type: 'fixed', value: 1, maxUses: -1 },
      { key },
    )
    expectValidation(res, body, 'maxUses', 'out_of_range')
    expect(body.error).toContain("'maxUses' must be an integer from 1 to")
  })

  test('an object where an array belongs names the array', async () => {
    for (const variants of [{ name: 'S', price: 1 }, 'S', 5]) {
      const [res, body] = await t.api.post('/api/v1/products', { name: 'Shirt', price: 5, variants }, { key })
      expectValidation(res, body, 'variants', 'invalid_type')
    }
    const [res, body] = await t.api.post('/api/orders', {
      storeId,
      name: 'Ana',
      phone: uniqPhone(),
      items: { quantity: 1 },
    })
    expectValidation(res, body, 'items', 'invalid_type')
  })

  test('too long text says the limit in characters', async () => {
    const product = addProduct(t.deps, storeId, { price: 100 })
    const [res, body] = await t.api.post('/api/orders', {
      storeId,
      name: 'Ana',
      phone: uniqPhone(),
      address: 'x'.repeat(1001),
      items: [{ productId: product.id, quantity: 1 }],
    })
    expectValidation(res, body, 'address', 'out_of_range')
    expect(body.error).toContain('at most 1000 characters')
  })
})

describe('order of checks: another store’s record before the plan', () => {
  test('a free key acting on another store’s review → 403 FORBIDDEN, not PLAN_REQUIRED', async () => {
    const free = makeShop(t.deps, { plan: 'free' })
    const theirs = makeReview(t.deps, storeId)
    const [res, body] = await t.api.put(`/api/v1/reviews/${theirs.id}`, { status: 'approved' }, { key: free.key })
    expectStatus(res, body).toBe(403)
    expect(body.code).toBe('FORBIDDEN')
    const [res2, body2] = await t.api.delete(`/api/v1/reviews/${theirs.id}`, { key: free.key })
    expectStatus(res2, body2).toBe(403)
    expect(body2.code).toBe('FORBIDDEN')
    // Its own review still meets the plan check.
    const own = makeReview(t.deps, free.store.id)
    const [res3, body3] = await t.api.delete(`/api/v1/reviews/${own.id}`, { key: free.key })
    expectStatus(res3, body3).toBe(403)
    expect(body3.code).toBe('PLAN_REQUIRED')
  })
})

describe('money bounds', () => {
  test('a total past 2^53 minor units → 400 out_of_range on items, nothing written', async () => {
    // Each line is a safe integer; their sum is not.
    const a = addProduct(t.deps, storeId, { price: 4_600_000_000_000_000 })
    const b = addProduct(t.deps, storeId, { price: 4_600_000_000_000_000 })
    const ship = addShipping(t.deps, storeId, { price: 100 })
    const items = [
      { productId: a.id, quantity: 1 },
      { productId: b.id, quantity: 1 },
    ]
    const [res, body] = await t.api.post('/api/orders', {
      storeId,
      name: 'Ana',
      phone: uniqPhone(),
      items,
      shippingOptionId: ship.id,
    })
    expectValidation(res, body, 'items', 'out_of_range')
    const [, orders] = await t.api.get('/api/v1/orders', { key })
    expect(orders.data.some((o: Json) => o.items?.length === 2 && o.total > 9e15)).toBe(false)
    // One of them alone is fine.
    const [ok, okBody] = await t.api.post('/api/orders', {
      storeId,
      name: 'Ana',
      phone: uniqPhone(),
      items: items.slice(0, 1),
    })
    expectStatus(ok, okBody).toBe(201)
  })
})

describe('doubled slashes', () => {
  test('//api/v1/products is served as /api/v1/products', async () => {
    const [res, body] = await t.api.get('//api/v1/products', { key })
    expectStatus(res, body).toBe(200)
    const [, single] = await t.api.get('/api/v1/products', { key })
    expect(body.total).toBe(single.total)
    const [res2, body2] = await t.api.get('/api//v1//products?limit=1', { key })
    expectStatus(res2, body2).toBe(200)
    expect(body2.limit).toBe(1)
  })

  test('a POST keeps its body; an unknown doubled path is still 404', async () => {
    const [res, body] = await t.api.post('//api/v1/products', { name: 'Bowl', price: 3 }, { key })
    expectStatus(res, body).toBe(201)
    expect(body.data.name).toBe('Bowl')
    const [res2, body2] = await t.api.get('//api/v1/nothing', { key })
    expectStatus(res2, body2).toBe(404)
  })
})
