/**
 * Image URLs whose path starts with `//` or `/\`: refused at the field by the API (create and
 * update, nothing written), and never written into the shop's pages as a path — stored before this
 * rule, such a URL on the shop's own origin would render as a scheme-relative `src="//host/…"`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { expectStatus, makeApp, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { sameOrigin } from '../../src/shop/views'

const ORIGIN = 'https://shop.example.com'
const DOUBLE = [
  'https://cdn.example.com//evil.example/x.png',
  'https://cdn.example.com/\\evil.example/x.png',
  'https://cdn.example.com/\t/evil.example/x.png',
  `${ORIGIN}//evil.example/x.png`,
  `${ORIGIN}/\\evil.example/x.png`,
]

let t: TestApp
beforeAll(() => {
  t = makeApp({ publicUrl: ORIGIN })
})
afterAll(() => t.close())

describe('the API refuses an image URL whose path starts with // or /\\', () => {
  for (const url of DOUBLE)
    test(JSON.stringify(url), async () => {
      const { key } = makeShop(t.deps)
      const [res, body] = await t.api.post('/api/v1/products', { name: 'Mug', price: 5, imageUrl: url }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.details).toMatchObject({ field: 'imageUrl', reason: 'invalid_format' })
      const [, created] = await t.api.post('/api/v1/products', { name: 'Cup', price: 5 }, { key })
      const [res2, body2] = await t.api.put(`/api/v1/products/${created.data.id}`, { imageUrl: url }, { key })
      expectStatus(res2, body2).toBe(400)
      expect(body2.details).toMatchObject({ field: 'imageUrl', reason: 'invalid_format' })
      const [, list] = await t.api.get('/api/v1/products?isActive=all', { key })
      expect(list.data.map((p: { name: string; imageUrl: string | null }) => [p.name, p.imageUrl])).toEqual([
        ['Cup', null],
      ])
    })

  test('one leading slash is fine', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.post(
      '/api/v1/products',
      { name: 'Mug', price: 5, imageUrl: 'https://cdn.example.com/img//mug.png' },
      { key },
    )
    expectStatus(res, body).toBe(201)
  })
})

describe("the shop's same-origin picture check keeps single-slash paths only", () => {
  test('an own-origin URL whose path starts with // or /\\ is dropped', () => {
    expect(sameOrigin(`${ORIGIN}//evil.example/x.png`, ORIGIN)).toBeUndefined()
    expect(sameOrigin(`${ORIGIN}/\\evil.example/x.png`, ORIGIN)).toBeUndefined()
    expect(sameOrigin(`${ORIGIN}/%2F/evil.example/x.png`, ORIGIN)).toBe('/%2F/evil.example/x.png')
    expect(sameOrigin(`${ORIGIN}/media/s/a.webp`, ORIGIN)).toBe('/media/s/a.webp')
  })

  test('stored before the rule, such a URL is not written into the store page', async () => {
    const { store, key } = makeShop(t.deps)
    const [, created] = await t.api.post('/api/v1/products', { name: 'Old mug', price: 5 }, { key })
    // Written as another process would (the CLI): the shop's caches see it through data_version.
    t.adminDb().$client.run('UPDATE products SET image_url = ? WHERE id = ?', [
      `${ORIGIN}//evil.example/x.png`,
      created.data.id,
    ])
    const res = await t.app.handle(new Request(`${ORIGIN}/s/${store.slug}`))
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).toContain('Old mug')
    expect(html).not.toContain('evil.example')
  })
})
