/**
 * The panel's product pages over HTTP: list with search, filter and paging; the editor
 * creating and updating through the API's verbs (variants and stock included, seen through
 * GET /api/v1/products/:id); errors at their field in the person's language (comparePrice must
 * be above price); the plan's cap with its upgrade link; roles and another store's product.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { ctxFor } from '../../src/kernel/context'
import { createProduct } from '../../src/modules/products/service'
import { getStore } from '../../src/modules/platform-stores/service'

const client = (headers: Record<string, string> = {}) => new PanelClient((r) => t.app.handle(r), undefined, headers)

const t = appForFile()

async function owner(plan: 'free' | 'pro' = 'pro', headers: Record<string, string> = {}) {
  const shop = await makeOwnerShop(t.deps, { plan })
  const b = client(headers)
  await signIn(b, shop.email)
  return { ...shop, b, key: makeKey(t.deps, shop.store.id) }
}

const productOf = (storeId: string, input: Parameters<typeof createProduct>[0]['input']) =>
  createProduct({
    ctx: ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!, { kind: 'cli' }),
    input: input,
  })

const idFrom = (location: string | null) => /\/admin\/products\/([^/?]+)\?done=saved$/.exec(location ?? '')![1]!

describe('the product editor', () => {
  test('create with two variants and stock → 303 to the editor; the API sees it', async () => {
    const { b, key } = await owner()
    expect((await b.get('/admin/products/new')).status).toBe(200)
    const fields = {
      name: 'Coffee <beans>',
      description: 'Fresh',
      price: '12,50',
      comparePrice: '15',
      stock: '',
      categoryId: '',
      isActive: '1',
      variantCount: '2',
      'v0-name': '250 g',
      'v0-price': '12.5',
      'v0-stock': '7',
      'v0-isActive': '1',
      'v1-name': '1 kg',
      'v1-price': '40',
      'v1-stock': '3',
      'v1-isActive': '1',
    }
    const res = await b.submit('/admin/products', fields)
    expect(res.status).toBe(303)
    const id = idFrom(res.location)
    const page = await b.get(res.location!)
    expect(page.text).toContain('Saved.')
    expect(page.text).toContain('Coffee &lt;beans&gt;')
    const [api, body] = await t.api.get(`/api/v1/products/${id}`, { key })
    expect(api.status).toBe(200)
    expect(body.data).toMatchObject({ name: 'Coffee <beans>', price: 12.5, comparePrice: 15, isActive: true })
    expect(
      body.data.variants.map((v: { name: string; price: number; stock: number }) => [v.name, v.price, v.stock]),
    ).toEqual([
      ['250 g', 12.5, 7],
      ['1 kg', 40, 3],
    ])
  })

  test('compare-at price under the price: the API refuses it, shown at the field in Spanish; no save', async () => {
    const { b, store, key } = await owner('pro', { 'accept-language': 'es' })
    await b.get('/admin/products/new')
    const res = await b.submit('/admin/products', {
      name: 'Mug',
      price: '5',
      comparePrice: '2',
      isActive: '1',
      variantCount: '0',
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain('id="comparePrice-error"')
    expect(res.text).toContain(
      'id="comparePrice" name="comparePrice" type="text" value="2" ' +
        'aria-describedby="comparePrice-hint comparePrice-error" aria-invalid="true"',
    )
    expect(res.text).toContain('El precio de comparación debe ser mayor que el precio.')
    const [, list] = await t.api.get('/api/v1/products?isActive=all', { key })
    expect(list.total).toBe(0)
    // The same rule over the API, for comparison: field comparePrice.
    const [api, body] = await t.api.post('/api/v1/products', { name: 'Mug', price: 5, comparePrice: 2 }, { key })
    expect(api.status).toBe(400)
    expect(body.details.field).toBe('comparePrice')
    void store
  })

  test('bad input at its field: a word in the price, a variant stock of 1.5', async () => {
    const { b } = await owner()
    await b.get('/admin/products/new')
    const res = await b.submit('/admin/products', { name: 'Tea', price: 'cheap', isActive: '1', variantCount: '0' })
    expect(res.status).toBe(400)
    expect(res.text).toContain('id="price-error"')
    expect(res.text).toContain('value="cheap"')
    const res2 = await b.submit('/admin/products', {
      name: 'Tea',
      price: '3',
      isActive: '1',
      variantCount: '1',
      'v0-name': 'Box',
      'v0-price': '3',
      'v0-stock': '1.5',
      'v0-isActive': '1',
    })
    expect(res2.status).toBe(400)
    expect(res2.text).toContain('id="v0-stock-error"')
  })

  test('update: edit price and variants (remove one, add one); stock kept per variant', async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, {
      name: 'Shirt',
      price: 20,
      variants: [
        { name: 'S', price: 20, stock: 4 },
        { name: 'M', price: 21, stock: 5 },
      ],
    })
    const page = await b.get(`/admin/products/${p.id}`)
    expect(page.status).toBe(200)
    const [s, m] = p.variants
    // "Add variant" re-shows the form with a new row, nothing saved.
    const added = await b.submit(`/admin/products/${p.id}`, {
      _action: 'add',
      name: 'Shirt',
      price: '22',
      isActive: '1',
      variantCount: '1',
      'v0-id': m!.id,
      'v0-name': 'M',
      'v0-price': '21',
      'v0-stock': '5',
      'v0-isActive': '1',
    })
    expect(added.status).toBe(200)
    expect(added.text).toContain('id="v1-name"')
    const res = await b.submit(`/admin/products/${p.id}`, {
      name: 'Shirt',
      price: '22',
      isActive: '1',
      variantCount: '2',
      'v0-id': m!.id,
      'v0-name': 'M',
      'v0-price': '21',
      'v0-stock': '5',
      'v0-isActive': '1',
      'v1-name': 'L',
      'v1-price': '23',
      'v1-stock': '2',
      'v1-isActive': '1',
    })
    expect(res.status).toBe(303)
    const [, body] = await t.api.get(`/api/v1/products/${p.id}`, { key })
    expect(body.data.price).toBe(22)
    expect(body.data.variants.map((v: { name: string; stock: number }) => [v.name, v.stock])).toEqual([
      ['M', 5],
      ['L', 2],
    ])
    void s
  })

  test('free plan: variants are refused with the upgrade link', async () => {
    const { b } = await owner('free')
    await b.get('/admin/products/new')
    const res = await b.submit('/admin/products', {
      name: 'Cap',
      price: '9',
      isActive: '1',
      variantCount: '1',
      'v0-name': 'Red',
      'v0-price': '9',
      'v0-stock': '',
      'v0-isActive': '1',
    })
    expect(res.status).toBe(403)
    expect(res.text).toContain('Upgrade your plan')
    expect(res.text).toContain(`href="${t.config.upgradeUrl}"`)
  })

  test('soft delete after a confirmation page; the API then answers 404', async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, { name: 'Old', price: 1 })
    const confirm = await b.get(`/admin/products/${p.id}/delete`)
    expect(confirm.text).toContain('Yes, delete')
    const res = await b.submit(`/admin/products/${p.id}/delete`)
    expect(res.status).toBe(303)
    expect(res.location).toBe('/admin/products?done=deleted')
    expect((await t.api.get(`/api/v1/products/${p.id}`, { key }))[0].status).toBe(404)
    expect((await b.get(`/admin/products/${p.id}`)).status).toBe(404)
  })
})

describe('the product list', () => {
  test('search, active/inactive filter and paging', async () => {
    const { b, store } = await owner()
    for (let i = 0; i < 23; i++) productOf(store.id, { name: `Item ${String(i).padStart(2, '0')}`, price: 1 + i })
    productOf(store.id, { name: 'Hidden gem', price: 5, isActive: false })
    const first = await b.get('/admin/products')
    expect(first.text).toContain('Page 1 of 2')
    expect(first.text).toContain('Next page')
    const second = await b.get('/admin/products?page=2')
    expect(second.text).toContain('Page 2 of 2')
    const found = await b.get('/admin/products?q=GEM')
    expect(found.text).toContain('Hidden gem')
    expect(found.text).not.toContain('Item 01')
    const inactive = await b.get('/admin/products?status=inactive')
    expect(inactive.text).toContain('Hidden gem')
    expect(inactive.text).not.toContain('Item 01')
    const active = await b.get('/admin/products?status=active&q=%25')
    expect(active.text).toContain('No products found.')
  })
})

describe('who may do what', () => {
  test('a viewer reads the list and the editor (no Save), and a hand-made post is refused', async () => {
    const { store } = await owner()
    const p = productOf(store.id, { name: 'Lamp', price: 30 })
    const viewer = await makeMember(t.deps, store.id, 'viewer')
    const v = client()
    await signIn(v, viewer.email)
    expect((await v.get('/admin/products')).status).toBe(200)
    const page = await v.get(`/admin/products/${p.id}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('disabled')
    expect(page.text).not.toContain('>Save<')
    const res = await v.submit(`/admin/products/${p.id}`, {
      name: 'Hacked',
      price: '1',
      isActive: '1',
      variantCount: '0',
    })
    expect(res.status).toBe(403)
    expect((await v.submit('/admin/products', { name: 'New', price: '1', variantCount: '0' })).status).toBe(403)
    expect((await v.submit(`/admin/products/${p.id}/delete`)).status).toBe(403)
  })

  test("staff edits products; another store's product id is a 403 page and changes nothing", async () => {
    const a = await owner()
    const other = await owner()
    const theirs = productOf(other.store.id, { name: 'Theirs', price: 10 })
    const staff = await makeMember(t.deps, a.store.id, 'staff')
    const s = client()
    await signIn(s, staff.email)
    expect((await s.get('/admin/products/new')).status).toBe(200)
    expect((await s.get(`/admin/products/${theirs.id}`)).status).toBe(403)
    await s.get('/admin/products')
    const res = await s.submit(`/admin/products/${theirs.id}`, {
      name: 'Mine now',
      price: '1',
      isActive: '1',
      variantCount: '0',
    })
    expect(res.status).toBe(403)
    expect((await s.submit(`/admin/products/${theirs.id}/delete`)).status).toBe(403)
    const [, body] = await t.api.get(`/api/v1/products/${theirs.id}`, { key: other.key })
    expect(body.data.name).toBe('Theirs')
  })

  test('a post without the form token changes nothing', async () => {
    const { b, store, key } = await owner()
    const p = productOf(store.id, { name: 'Vase', price: 10 })
    await b.get(`/admin/products/${p.id}`)
    const res = await b.submit(
      `/admin/products/${p.id}`,
      { name: 'Changed', price: '1', isActive: '1', variantCount: '0' },
      { token: null },
    )
    expect(res.status).toBe(403)
    const [, body] = await t.api.get(`/api/v1/products/${p.id}`, { key })
    expect(body.data.name).toBe('Vase')
  })
})
