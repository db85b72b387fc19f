/**
 * The panel's bulk edit of prices and stock over HTTP: changed cells only, applied in
 * one transaction or none through the products module's verbs (the API's schema and rules: stock
 * -1 or 1.5, a negative price, a compare-at price at or under the new price), errors next to their
 * row in the person's language, roles (staff edits, viewer reads) and another store's products.
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

const productOf = (storeId: string, input: Parameters<typeof createProduct>[0]['input']) =>
  createProduct({
    ctx: ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!, { kind: 'cli' }),
    input,
  })

async function shop(headers: Record<string, string> = {}) {
  const s = await makeOwnerShop(t.deps)
  const b = client(headers)
  await signIn(b, s.email)
  const tee = productOf(s.store.id, {
    name: 'Tee',
    price: 20,
    variants: [
      { name: 'S', price: 20, stock: 5 },
      { name: 'M', price: 21, stock: 4 },
    ],
  })
  const mug = productOf(s.store.id, { name: 'Mug', price: 8, comparePrice: 10, stock: 3 })
  const cap = productOf(s.store.id, { name: 'Cap', price: 12, stock: null })
  return { ...s, b, key: makeKey(t.deps, s.store.id), tee, mug, cap }
}

/** The grid's posted fields as the page shows them, with `edit` applied by the row's label. */
function gridFields(
  text: string,
  edit: Record<string, { price?: string; stock?: string }> = {},
): Record<string, string> {
  const out: Record<string, string> = {}
  const count = Number(/name="rowCount" value="(\d+)"/.exec(text)![1])
  out.rowCount = String(count)
  for (let i = 0; i < count; i++) {
    const label =
      new RegExp(`<label class="sr-only" for="r${i}-price">Price of ([^<]+)</label>`).exec(text)?.[1] ??
      new RegExp(`<label class="sr-only" for="r${i}-price">Precio de ([^<]+)</label>`).exec(text)![1]!
    const value = (n: string) => new RegExp(`name="r${i}-${n}" value="([^"]*)"`).exec(text)![1]!
    out[`r${i}-key`] = value('key')
    for (const n of ['price', 'stock']) {
      out[`r${i}-${n}-was`] = value(`${n}-was`)
      out[`r${i}-${n}`] = (edit[label] as Record<string, string> | undefined)?.[n] ?? value(n)
    }
  }
  return out
}

const apiProduct = async (key: string, id: string) => (await t.api.get(`/api/v1/products/${id}`, { key }))[1].data

describe('the bulk edit grid', () => {
  test('lists every active variant and each product without variants, with labelled inputs', async () => {
    const { b } = await shop()
    const page = await b.get('/admin/products/bulk')
    expect(page.status).toBe(200)
    for (const label of ['Tee · S', 'Tee · M', 'Mug', 'Cap']) expect(page.text).toContain(`>Price of ${label}</label>`)
    expect(page.text).toContain('role="region" aria-labelledby="grid-caption" tabindex="0"')
    expect(page.text).toContain('50 products a page')
    expect(page.text).toContain('<button type="submit">Save changes</button>')
    // The list links to it and to the CSV pages.
    const list = await b.get('/admin/products')
    for (const href of ['/admin/products/bulk', '/admin/products/export.csv', '/admin/products/import'])
      expect(list.text).toContain(`href="${href}"`)
  })

  test('three prices and a stock saved at once; the API sees them; untouched products keep updatedAt', async () => {
    const { b, key, tee, mug, cap, store } = await shop()
    const page = await b.get('/admin/products/bulk')
    const capBefore = await apiProduct(key, cap.id)
    const res = await b.submit(
      '/admin/products/bulk',
      gridFields(page.text, {
        'Tee · S': { price: '19,50' },
        'Tee · M': { price: '22', stock: '' },
        Mug: { price: '7.25', stock: '9' },
      }),
    )
    expect(res.status).toBe(303)
    expect(res.location).toBe('/admin/products/bulk?done=saved&n=2')
    expect((await b.get(res.location!)).text).toContain('Saved the changes to 2 products.')
    const teeNow = await apiProduct(key, tee.id)
    expect(
      teeNow.variants.map((v: { name: string; price: number; stock: number | null }) => [v.name, v.price, v.stock]),
    ).toEqual([
      ['S', 19.5, 5],
      ['M', 22, null],
    ])
    expect(await apiProduct(key, mug.id)).toMatchObject({ price: 7.25, stock: 9, comparePrice: 10 })
    expect(await apiProduct(key, cap.id)).toEqual(capBefore)
    // One activity line for the save.
    const lines = t.deps.db.$client
      .query<{ verb: string; n: number }, [string]>(
        "SELECT verb, count(*) AS n FROM activity WHERE store_id = ? AND verb = 'bulk-edit' GROUP BY verb",
      )
      .all(store.id)
    expect(lines).toEqual([{ verb: 'bulk-edit', n: 1 }])
  })

  test('nothing changed → nothing written', async () => {
    const { b } = await shop()
    const page = await b.get('/admin/products/bulk')
    const res = await b.submit('/admin/products/bulk', gridFields(page.text))
    expect(res.location).toBe('/admin/products/bulk?done=none')
  })

  test('one bad cell → nothing written; each refused row says why next to it, in Spanish', async () => {
    const { b, key, tee, mug, cap } = await shop({ 'accept-language': 'es' })
    const page = await b.get('/admin/products/bulk')
    const before = await Promise.all([tee, mug, cap].map((p) => apiProduct(key, p.id)))
    const res = await b.submit(
      '/admin/products/bulk',
      gridFields(page.text, {
        'Tee · S': { stock: '-1' },
        'Tee · M': { price: '30' },
        Mug: { price: '10' },
        Cap: { stock: '1.5' },
      }),
    )
    expect(res.status).toBe(400)
    expect(res.text).toContain('3 filas necesitan atención; no se guardó nada.')
    // The row's message is tied to its inputs.
    const row = (label: string) => {
      const i = /for="r(\d+)-price">Precio de ([^<]+)</g
      for (const m of res.text.matchAll(i)) if (m[2] === label) return m[1]
      return undefined
    }
    expect(res.text).toMatch(new RegExp(`id="r${row('Tee · S')}-error" class="error">Escribe 0 o más.`))
    expect(res.text).toMatch(
      new RegExp(`id="r${row('Mug')}-error" class="error">El precio de comparación debe ser mayor que el precio.`),
    )
    // 1.5 is the API's invalid_type for a stock (a whole number), in the editor's words.
    expect(res.text).toMatch(new RegExp(`id="r${row('Cap')}-error" class="error">Escribe un número.`))
    expect(res.text).not.toContain(`id="r${row('Tee · M')}-error"`)
    expect(res.text).toContain(
      `name="r${row('Tee · S')}-stock" value="-1" inputmode="numeric" ` +
        `aria-describedby="r${row('Tee · S')}-error" aria-invalid="true"`,
    )
    // The valid change to Tee · M was not written either.
    expect(await Promise.all([tee, mug, cap].map((p) => apiProduct(key, p.id)))).toEqual(before)
  })

  test('a negative price is refused', async () => {
    const { b, key, cap } = await shop()
    const page = await b.get('/admin/products/bulk')
    const res = await b.submit('/admin/products/bulk', gridFields(page.text, { Cap: { price: '-3' } }))
    expect(res.status).toBe(400)
    expect(res.text).toContain('Enter 0 or more.')
    expect((await apiProduct(key, cap.id)).price).toBe(12)
  })

  test('staff may save; a viewer sees the grid read-only and a hand-made post is refused', async () => {
    const { b: ownerPage, store, key, cap } = await shop()
    const staff = await makeMember(t.deps, store.id, 'staff')
    const s = client()
    await signIn(s, staff.email)
    const page = await s.get('/admin/products/bulk')
    const res = await s.submit('/admin/products/bulk', gridFields(page.text, { Cap: { price: '13' } }))
    expect(res.status).toBe(303)
    expect((await apiProduct(key, cap.id)).price).toBe(13)

    const viewer = await makeMember(t.deps, store.id, 'viewer')
    const v = client()
    await signIn(v, viewer.email)
    const seen = await v.get('/admin/products/bulk')
    expect(seen.status).toBe(200)
    expect(seen.text).not.toContain('Save changes')
    expect(seen.text).toMatch(/name="r0-price" value="[^"]*" inputmode="decimal" disabled/)
    const refused = await v.submit('/admin/products/bulk', gridFields(seen.text, { Cap: { price: '1' } }), {
      token: (await ownerPage.get('/admin')) && v.formToken(),
    })
    expect(refused.status).toBe(403)
    expect((await apiProduct(key, cap.id)).price).toBe(13)
  })

  test("another store's product named in the form is refused and stays as it was", async () => {
    const mine = await shop()
    const other = await shop()
    const page = await mine.b.get('/admin/products/bulk')
    const fields = gridFields(page.text)
    fields['r0-key'] = other.cap.id
    fields['r0-price-was'] = '12'
    fields['r0-price'] = '1'
    fields['r0-stock-was'] = ''
    fields['r0-stock'] = ''
    const res = await mine.b.submit('/admin/products/bulk', fields)
    expect(res.status).toBe(400)
    expect(res.text).toContain('1 row needs attention; nothing was saved.')
    expect((await apiProduct(other.key, other.cap.id)).price).toBe(12)
  })
})
