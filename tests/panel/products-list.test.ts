/**
 * The product list at a glance, over HTTP: each row's first picture as a thumbnail, its stock (the
 * units of its tracked active variants, or its own; "—" when nothing is tracked) with a "Low
 * stock" mark at 5 or fewer, and the price with the currency's decimals — in the list and in the
 * editor's fields ("12.50", not "12.5").
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { signedInOwner } from '../helpers/panel'
import { ctxFor } from '../../src/kernel/context'
import { createProduct } from '../../src/modules/products/service'
import { getStore } from '../../src/modules/platform-stores/service'

const t = appForFile()

const productOf = (storeId: string, input: Parameters<typeof createProduct>[0]['input']) =>
  createProduct({
    ctx: ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!, { kind: 'cli' }),
    input,
  })

/** The list's row of the product named `name`. */
const rowOf = (page: string, name: string) =>
  [...page.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => m[1]!).find((r) => r.includes(`>${name}</a>`)) ?? ''

test('thumbnail, stock of tracked variants, "—" when untracked, a low-stock mark', async () => {
  const { b, store } = await signedInOwner(t, { plan: 'pro' })
  const tee = productOf(store.id, {
    name: 'Tee',
    price: 12.5,
    variants: [
      { name: 'S', price: 12.5, stock: 4 },
      { name: 'M', price: 12.5, stock: 9 },
      { name: 'L', price: 12.5, stock: null },
    ],
  })
  productOf(store.id, { name: 'Mug', price: 8, stock: 30 })
  productOf(store.id, { name: 'Poster', price: 3 })
  productOf(store.id, {
    name: 'Cap',
    price: 10,
    variants: [
      { name: 'Red', price: 10, stock: null },
      { name: 'Blue', price: 10, stock: null },
    ],
  })
  t.deps.db.$client.run(
    'INSERT INTO product_images (id, store_id, product_id, position, width, height, widths, created_at) ' +
      "VALUES (?, ?, ?, 0, 640, 480, '320,640', 0)",
    [`img-${tee.id}`, store.id, tee.id],
  )
  const page = await b.get('/admin/products')
  expect(page.status).toBe(200)
  expect(page.text).toContain('<th scope="col">Stock</th>')
  const tee_ = rowOf(page.text, 'Tee')
  // 4 + 9 tracked units (L untracked); S has 4 left: low.
  expect(tee_).toMatch(/<td>13 <span class="badge low-stock">Low stock<\/span><\/td>/)
  expect(tee_).toContain('<td>$12.50</td>')
  expect(tee_).toMatch(
    new RegExp(`<img class="thumb" src="[^"]*${`img-${tee.id}`}[^"]*-320\\.webp" width="48" height="48" alt=""`),
  )
  expect(rowOf(page.text, 'Mug')).toContain('<td>30</td>')
  expect(rowOf(page.text, 'Mug')).not.toContain('Low stock')
  expect(rowOf(page.text, 'Mug')).toContain('<span class="thumb" aria-hidden="true"></span>')
  for (const name of ['Poster', 'Cap'])
    expect(rowOf(page.text, name)).toContain(
      '<td><span aria-hidden="true">—</span><span class="sr-only">not tracked</span></td>',
    )
})

test("the editor's money fields show the currency's decimals", async () => {
  const { b, store } = await signedInOwner(t, { plan: 'pro' })
  const p = productOf(store.id, {
    name: 'Beans',
    price: 12.5,
    comparePrice: 15,
    variants: [{ name: '1 kg', price: 40 }],
  })
  const page = await b.get(`/admin/products/${p.id}`)
  expect(page.text).toMatch(/id="price" name="price" type="text" value="12.50"/)
  expect(page.text).toMatch(/id="comparePrice" name="comparePrice" type="text" value="15.00"/)
  expect(page.text).toMatch(/id="v0-price" name="v0-price" type="text" value="40.00"/)
})
