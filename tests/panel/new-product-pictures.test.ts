/**
 * Pictures chosen on the new-product form, over HTTP: the form posts its fields and the picked
 * files in one multipart body; the product is created and gets them in order; a refused file is
 * named on the new product's editor while the others stay; a refused form creates nothing and asks
 * for the pictures again; the form token and the same rules as the picture form hold.
 */
import { expect, test } from 'bun:test'
import { appForFile, type Json } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { jpeg, png } from '../helpers/image-fixtures'
import { signedInOwner } from '../helpers/panel'

const t = appForFile()

const productsOf = async (key: string): Promise<Json[]> => (await t.api.get('/api/v1/products', { key }))[1].data

test('fields and two pictures in one post: the product is created with them, in order', async () => {
  const { b, store } = await signedInOwner(t, { plan: 'pro' })
  const key = makeKey(t.deps, store.id)
  const form = await b.get('/admin/products/new')
  expect(form.text).toContain('enctype="multipart/form-data"')
  expect(form.text).toMatch(
    /<input id="file" name="file" type="file" multiple accept="image\/jpeg,image\/png,image\/webp"/,
  )
  const res = await b.upload(
    '/admin/products',
    [
      { name: 'front.jpg', bytes: await jpeg(640, 480) },
      { name: 'side.png', bytes: await png(300, 200), type: 'image/png' },
    ],
    { fields: { _action: 'save', name: 'Vase', price: '30', isActive: '1', variantCount: '0' } },
  )
  expect(res.status).toBe(303)
  const id = /^\/admin\/products\/([^/?]+)\?done=saved&added=2$/.exec(res.location ?? '')![1]!
  const [, body] = await t.api.get(`/api/v1/products/${id}`, { key })
  expect(body.data).toMatchObject({ name: 'Vase', price: 30, isActive: true })
  expect((body.data.images as Json[]).map((i) => [i.width, i.position])).toEqual([
    [640, 0],
    [300, 1],
  ])
  const page = await b.get(res.location!)
  expect(page.text).toContain('Saved.')
  expect(page.text).toContain('2 pictures added.')
  expect((await productsOf(key)).length).toBe(1)
})

test('a refused file is named on the new editor; the product and the good picture stay', async () => {
  const { b, store } = await signedInOwner(t, { plan: 'pro' })
  const key = makeKey(t.deps, store.id)
  await b.get('/admin/products/new')
  const res = await b.upload(
    '/admin/products',
    [
      { name: 'notes.jpg', bytes: '<html>not a picture</html>' },
      { name: 'ok.jpg', bytes: await jpeg(100, 100) },
    ],
    { fields: { _action: 'save', name: 'Cup', price: '5', isActive: '1', variantCount: '0' } },
  )
  expect(res.status).toBe(400)
  expect(res.text).toContain('notes.jpg: This file is not a JPEG, PNG or WebP picture.')
  expect(res.text).toContain('Picture added.')
  const [made] = await productsOf(key)
  expect(made).toMatchObject({ name: 'Cup' })
  expect(((await t.api.get(`/api/v1/products/${made!.id}`, { key }))[1].data.images as Json[]).length).toBe(1)
})

test('a refused form creates nothing and asks to pick the pictures again; without the form token, 403', async () => {
  const { b, store } = await signedInOwner(t, { plan: 'pro' })
  const key = makeKey(t.deps, store.id)
  await b.get('/admin/products/new')
  const refused = await b.upload('/admin/products', [{ name: 'front.jpg', bytes: await jpeg(64, 64) }], {
    fields: { _action: 'save', name: '', price: '-1', variantCount: '0' },
  })
  expect(refused.status).toBe(400)
  expect(refused.text).toContain('<p id="name-error" class="error">Fill in this field.</p>')
  expect(refused.text).toContain('<p id="file-again" class="error">Pick the pictures again')
  expect(refused.text).toContain('aria-describedby="file-hint file-again"')
  // "Add variant" shows the form again with a row, nothing saved.
  const row = await b.upload('/admin/products', [], {
    fields: { _action: 'add', name: 'Tee', price: '9', variantCount: '0' },
  })
  expect(row.status).toBe(200)
  expect(row.text).toContain('Variant 1')
  const forged = await b.upload('/admin/products', [{ name: 'x.jpg', bytes: await jpeg(64, 64) }], {
    token: null,
    fields: { _action: 'save', name: 'Forged', price: '1', variantCount: '0' },
  })
  expect(forged.status).toBe(403)
  expect(await productsOf(key)).toEqual([])
  expect(t.deps.db.$client.query('SELECT count(*) AS n FROM products WHERE store_id = ?').get(store.id)).toEqual({
    n: 0,
  })
})
