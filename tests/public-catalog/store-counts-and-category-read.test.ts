/**
 * GET /api/v1/categories/:id; productCount, categoryCount and
 * orderCount on the store; the private_address refusal names WEBHOOK_ALLOW_PRIVATE; each in the
 * OpenAPI document and the MCP get_store tool.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { appForFile, expectStatus, type Json } from '../helpers/app'
import { makeKey, makeShop } from '../helpers/factories'
import { makeCatalog, orderBody } from '../helpers/factories'
import { TOOLS_BY_NAME } from '../../src/mcp/tools'

const t = appForFile()

describe('GET /api/v1/categories/:id', () => {
  test('the store own category, inactive ones too', async () => {
    const { key } = makeShop(t.deps)
    const [cr, created] = await t.api.post('/api/v1/categories', { name: 'Mugs', isActive: false }, { key })
    expectStatus(cr, created).toBe(201)
    const [res, body] = await t.api.get(`/api/v1/categories/${created.data.id}`, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toEqual(created.data)
    expect(body.data).toMatchObject({ name: 'Mugs', slug: 'mugs', isActive: false })
  })

  test('unknown → 404; another store’s → 403; deleted → 404; needs categories:read', async () => {
    const a = makeShop(t.deps)
    const b = makeShop(t.deps)
    const [, other] = await t.api.post('/api/v1/categories', { name: 'Theirs' }, { key: b.key })
    const [r404, b404] = await t.api.get('/api/v1/categories/doesnotexist', { key: a.key })
    expectStatus(r404, b404).toBe(404)
    expect(b404.code).toBe('NOT_FOUND')
    const [r403, b403] = await t.api.get(`/api/v1/categories/${other.data.id}`, { key: a.key })
    expectStatus(r403, b403).toBe(403)
    expect(b403.code).toBe('FORBIDDEN')
    const productsOnly = makeKey(t.deps, b.store.id, ['products:read'])
    const [rScope, bScope] = await t.api.get(`/api/v1/categories/${other.data.id}`, { key: productsOnly })
    expectStatus(rScope, bScope).toBe(403)
    expect(bScope.details).toMatchObject({ scope: 'categories:read' })
    const readOnly = makeKey(t.deps, b.store.id, ['categories:read'])
    const [rOk, bOk] = await t.api.get(`/api/v1/categories/${other.data.id}`, { key: readOnly })
    expectStatus(rOk, bOk).toBe(200)
    await t.api.delete(`/api/v1/categories/${other.data.id}`, { key: b.key })
    const [rGone] = await t.api.get(`/api/v1/categories/${other.data.id}`, { key: b.key })
    expect(rGone.status).toBe(404)
  })
})

describe('counts on GET /api/v1/store', () => {
  test('products not deleted, categories, orders in every status; PUT answers them too', async () => {
    const { store, key } = makeShop(t.deps)
    const counts = async () => {
      const [res, body] = await t.api.get('/api/v1/store', { key })
      expectStatus(res, body).toBe(200)
      const { productCount, categoryCount, orderCount } = body.data
      return { productCount, categoryCount, orderCount }
    }
    expect(await counts()).toEqual({ productCount: 0, categoryCount: 0, orderCount: 0 })

    const cat = makeCatalog(t.deps, store.id) // 2 products
    const [, p] = await t.api.post('/api/v1/products', { name: 'Inactive one', price: 1, isActive: false }, { key })
    const [, gone] = await t.api.post('/api/v1/products', { name: 'Deleted one', price: 1 }, { key })
    await t.api.delete(`/api/v1/products/${gone.data.id}`, { key })
    await t.api.post('/api/v1/categories', { name: 'A' }, { key })
    const [, c2] = await t.api.post('/api/v1/categories', { name: 'B', isActive: false }, { key })
    const orderIds: string[] = []
    for (let i = 0; i < 3; i++) {
      const [r, o] = await t.api.post('/api/orders', orderBody(store.id, cat))
      expectStatus(r, o).toBe(201)
      orderIds.push(o.id)
    }
    const [sr, sb] = await t.api.put(`/api/v1/orders/${orderIds[0]}/status`, { status: 'cancelled' }, { key })
    expectStatus(sr, sb).toBe(200)
    expect(await counts()).toEqual({ productCount: 3, categoryCount: 2, orderCount: 3 })
    expect(p.data.isActive).toBe(false)

    await t.api.delete(`/api/v1/categories/${c2.data.id}`, { key })
    const [ur, ub] = await t.api.put('/api/v1/store', { description: 'Now with counts' }, { key })
    expectStatus(ur, ub).toBe(200)
    expect(ub.data).toMatchObject({ productCount: 3, categoryCount: 1, orderCount: 3 })

    // Another store's records are not counted.
    const other = makeShop(t.deps)
    const [, ob] = await t.api.get('/api/v1/store', { key: other.key })
    expect(ob.data).toMatchObject({ productCount: 0, categoryCount: 0, orderCount: 0 })
  })
})

describe('webhook URL refusals', () => {
  test('private_address names the setting that allows it', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'https://127.0.0.1/hook', events: ['order.created'] },
      { key },
    )
    expectStatus(res, body).toBe(400)
    expect(body.details).toMatchObject({ field: 'url', reason: 'private_address' })
    expect(body.error).toContain('WEBHOOK_ALLOW_PRIVATE=1')
  })
})

describe('OpenAPI and MCP', () => {
  let doc: Json
  beforeAll(async () => {
    doc = await (await t.app.handle(new Request('http://localhost/docs/json'))).json()
  })

  test('getCategory: categories:read, the Category component, 404 documented', () => {
    const op = doc.paths['/api/v1/categories/{id}'].get
    expect(op.operationId).toBe('getCategory')
    expect(op.description).toContain('categories:read')
    expect(op.security).toEqual([{ bearerAuth: [] }])
    expect(JSON.stringify(op.responses['200'])).toContain('#/components/schemas/Category')
    expect(op.responses['404']).toBeDefined()
  })

  test('the Store component has the three counts as required integers', () => {
    const store = doc.components.schemas.Store
    for (const f of ['productCount', 'categoryCount', 'orderCount']) {
      expect(store.properties[f]).toMatchObject({ type: 'integer', minimum: 0 })
      expect(store.required).toContain(f)
    }
  })

  test('the get_store tool tells a model about the counts', () => {
    const d = TOOLS_BY_NAME.get('get_store')!.description
    for (const f of ['productCount', 'categoryCount', 'orderCount', 'language']) expect(d).toContain(f)
  })
})
