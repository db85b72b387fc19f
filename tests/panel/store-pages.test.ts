/**
 * Categories, discounts and shipping in the panel over HTTP: each write goes through
 * the API's verb and the API reads it back; the API's refusals at their field in the person's
 * language; the plan's category cap shows the upgrade link; reordering is the storefront's
 * order; deleting asks first; viewers read with fields disabled and post nothing; another
 * store's :id is a 403 page.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, PanelClient, signedInOwner, signIn } from '../helpers/panel'

const t = appForFile({ freeMaxCategories: 2 })

async function owner(plan: 'free' | 'pro' = 'pro') {
  const o = await signedInOwner(t, { plan })
  return { ...o, key: makeKey(t.deps, o.store.id) }
}
async function member(storeId: string, role: 'staff' | 'viewer') {
  const m = await makeMember(t.deps, storeId, role)
  const b = new PanelClient((r) => t.app.handle(r))
  await signIn(b, m.email)
  return b
}
/** A form post from a freshly read page (its form token), as a person (or a hand-made form) sends it. */
const send = (b: PanelClient, path: string, fields: Record<string, string> = {}, from = '/admin') =>
  b.submitFrom(from, path, fields)
const names = async (key: string) =>
  (await t.api.get('/api/v1/categories', { key }))[1].data.map((c: { name: string }) => c.name)

describe('categories', () => {
  test('add, rename, reorder (the API and the storefront order), delete after confirming', async () => {
    const { b, key } = await owner()
    await b.get('/admin/categories')
    for (const name of ['Coffee', 'Tea', 'Cups'])
      expect((await send(b, '/admin/categories', { name })).status).toBe(303)
    expect(await names(key)).toEqual(['Coffee', 'Tea', 'Cups'])
    const [, list] = await t.api.get('/api/v1/categories', { key })
    const [coffee, tea, cups] = list.data as { id: string }[]
    const page = await b.get('/admin/categories')
    expect(page.text).toContain('aria-label="Move up: Cups"')
    expect(page.text).not.toContain('aria-label="Move up: Coffee"')
    expect(page.text).not.toContain('aria-label="Move down: Cups"')
    expect((await b.submit(`/admin/categories/${cups!.id}/move`, { by: 'up' })).location).toBe(
      '/admin/categories?done=moved',
    )
    expect(await names(key)).toEqual(['Coffee', 'Cups', 'Tea'])
    await b.get('/admin/categories')
    await b.submit(`/admin/categories/${coffee!.id}/move`, { by: 'down' })
    expect(await names(key)).toEqual(['Cups', 'Coffee', 'Tea'])
    // At the end nothing moves.
    await b.get('/admin/categories')
    await b.submit(`/admin/categories/${tea!.id}/move`, { by: 'down' })
    expect(await names(key)).toEqual(['Cups', 'Coffee', 'Tea'])

    expect((await b.get(`/admin/categories/${tea!.id}`)).text).toContain('value="Tea"')
    expect((await b.submit(`/admin/categories/${tea!.id}`, { name: 'Herbal tea', isActive: '1' })).status).toBe(303)
    expect(await names(key)).toEqual(['Cups', 'Coffee', 'Herbal tea'])
    // A new category whose address (slug) another one has: at the field. (Renaming keeps the address.)
    const dup = await send(b, '/admin/categories', { name: 'coffee' })
    expect(dup.status).toBe(409)
    expect(dup.text).toContain('id="name-error"')
    expect(dup.text).toContain('Another category already has this name')

    expect((await b.get(`/admin/categories/${cups!.id}/delete`)).text).toContain('Delete the category Cups?')
    expect((await b.submit(`/admin/categories/${cups!.id}/delete`)).status).toBe(303)
    expect(await names(key)).toEqual(['Coffee', 'Herbal tea'])
  })

  test('a blank name at its field; the free plan cap shows the upgrade link; words in Spanish', async () => {
    const { b } = await owner('free')
    await b.get('/admin/categories')
    const blank = await b.submit('/admin/categories', { name: '  ' })
    expect(blank.status).toBe(400)
    expect(blank.text).toContain('id="name-error"')
    await b.submit('/admin/categories', { name: 'One' })
    await b.get('/admin/categories')
    await b.submit('/admin/categories', { name: 'Two' })
    await b.get('/admin/categories')
    const capped = await b.submit('/admin/categories', { name: 'Three' })
    expect(capped.status).toBe(403)
    expect(capped.text).toContain('Upgrade your plan')
    const es = await b.get('/admin/categories', { 'accept-language': 'es' })
    expect(es.text).toContain('Añadir categoría')
  })
})

describe('discounts', () => {
  test('create, edit, deactivate, delete — the API reads each change', async () => {
    const { b, key } = await owner()
    await b.get('/admin/discounts/new')
    const made = await b.submit('/admin/discounts', {
      code: 'SUMMER10',
      type: 'percentage',
      value: '10',
      maxUses: '50',
      expiresAt: '2031-06-30',
      isActive: '1',
    })
    expect(made.status).toBe(303)
    const [, list] = await t.api.get('/api/v1/discounts', { key })
    expect(list.data[0]).toMatchObject({
      code: 'SUMMER10',
      type: 'percentage',
      value: 10,
      maxUses: 50,
      expiresAt: '2031-06-30T23:59:59.999Z',
      isActive: true,
    })
    const id = list.data[0].id
    expect(made.location).toBe(`/admin/discounts/${id}?done=saved`)
    const edit = await b.get(made.location!)
    expect(edit.text).toContain('value="2031-06-30"')
    expect(
      (
        await b.submit(`/admin/discounts/${id}`, {
          code: 'SUMMER15',
          type: 'fixed',
          value: '15,50',
          minOrderAmount: '40',
          maxUses: '',
          expiresAt: '2031-06-30',
          isActive: '1',
        })
      ).status,
    ).toBe(303)
    expect((await t.api.get(`/api/v1/discounts/${id}`, { key }))[1].data).toMatchObject({
      code: 'SUMMER15',
      type: 'fixed',
      value: 15.5,
      minOrderAmount: 40,
      maxUses: null,
      expiresAt: '2031-06-30T23:59:59.999Z',
    })
    const listPage = await b.get('/admin/discounts')
    expect(listPage.text).toContain('Deactivate SUMMER15')
    expect((await b.submit(`/admin/discounts/${id}/active`, { isActive: '0' })).status).toBe(303)
    expect((await t.api.get(`/api/v1/discounts/${id}`, { key }))[1].data.isActive).toBe(false)
    expect((await b.get(`/admin/discounts/${id}/delete`)).text).toContain('Delete the discount SUMMER15?')
    expect((await b.submit(`/admin/discounts/${id}/delete`)).status).toBe(303)
    expect((await t.api.get(`/api/v1/discounts/${id}`, { key }))[0].status).toBe(404)
  })

  test("the API's rules at the field: 150 %, a taken code, a bad code, 1.5 uses — nothing saved", async () => {
    const { b, key } = await owner()
    await b.get('/admin/discounts/new')
    await b.submit('/admin/discounts', { code: 'TAKEN', type: 'fixed', value: '5', isActive: '1' })
    const cases: [Record<string, string>, string, string][] = [
      [{ code: 'BIG', type: 'percentage', value: '150' }, 'value', 'A percentage is more than 0 and at most 100.'],
      [{ code: 'taken', type: 'fixed', value: '5' }, 'code', 'Another discount already uses this code.'],
      [{ code: 'no spaces!', type: 'fixed', value: '5' }, 'code', 'This value is not in the right format.'],
      [{ code: 'HALF', type: 'fixed', value: '5', maxUses: '1.5' }, 'maxUses', ''],
    ]
    for (const [fields, at, message] of cases) {
      await b.get('/admin/discounts/new')
      const res = await b.submit('/admin/discounts', { ...fields, isActive: '1' })
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.text).toContain(`id="${at}-error"`)
      if (message) expect(res.text).toContain(message)
      expect(res.text).toContain(`value="${fields.code}"`)
    }
    expect((await t.api.get('/api/v1/discounts', { key }))[1].data).toHaveLength(1)
    const es = await b.submit(
      '/admin/discounts',
      { code: 'BIG', type: 'percentage', value: '150' },
      { headers: { 'accept-language': 'es' } },
    )
    expect(es.text).toContain('Un porcentaje es mayor que 0 y como mucho 100.')
  })
})

describe('shipping', () => {
  test('create, edit, delete; a negative price and 400 days at their field', async () => {
    const { b, key } = await owner()
    await b.get('/admin/shipping/new')
    const made = await b.submit('/admin/shipping', {
      name: 'Courier',
      price: '4,90',
      description: 'Next day',
      estimatedDays: '1',
      isActive: '1',
    })
    expect(made.status).toBe(303)
    const [, list] = await t.api.get('/api/v1/shipping', { key })
    expect(list.data[0]).toMatchObject({
      name: 'Courier',
      price: 4.9,
      description: 'Next day',
      estimatedDays: 1,
      isActive: true,
    })
    const id = list.data[0].id
    await b.get(made.location!)
    expect(
      (await b.submit(`/admin/shipping/${id}`, { name: 'Courier', price: '5', description: '', estimatedDays: '' }))
        .status,
    ).toBe(303)
    expect((await t.api.get(`/api/v1/shipping/${id}`, { key }))[1].data).toMatchObject({
      price: 5,
      description: null,
      estimatedDays: null,
      isActive: false,
    })
    await b.get(`/admin/shipping/${id}`)
    const neg = await b.submit(`/admin/shipping/${id}`, { name: 'Courier', price: '-1', estimatedDays: '400' })
    expect(neg.status).toBe(400)
    expect(neg.text).toMatch(/id="(price|estimatedDays)-error"/)
    expect((await b.get('/admin/shipping')).text).toContain('Courier')
    expect((await b.get(`/admin/shipping/${id}/delete`)).text).toContain('Delete the shipping option Courier?')
    expect((await b.submit(`/admin/shipping/${id}/delete`)).status).toBe(303)
    expect((await t.api.get(`/api/v1/shipping/${id}`, { key }))[0].status).toBe(404)
  })
})

describe('who may do what', () => {
  test("a viewer reads (fields disabled), posts nothing; staff writes; another store's :id is a 403 page", async () => {
    const a = await owner()
    const other = await owner()
    await a.b.get('/admin/categories')
    await a.b.submit('/admin/categories', { name: 'Mine' })
    await other.b.get('/admin/discounts/new')
    await other.b.submit('/admin/discounts', { code: 'THEIRS', type: 'fixed', value: '1', isActive: '1' })
    await other.b.get('/admin/shipping/new')
    await other.b.submit('/admin/shipping', { name: 'Theirs', price: '1', isActive: '1' })
    await other.b.get('/admin/categories')
    await other.b.submit('/admin/categories', { name: 'Theirs' })
    const theirs = {
      categories: (await t.api.get('/api/v1/categories', { key: other.key }))[1].data[0].id,
      discounts: (await t.api.get('/api/v1/discounts', { key: other.key }))[1].data[0].id,
      shipping: (await t.api.get('/api/v1/shipping', { key: other.key }))[1].data[0].id,
    }
    const mine = (await t.api.get('/api/v1/categories', { key: a.key }))[1].data[0].id

    const viewer = await member(a.store.id, 'viewer')
    for (const page of ['categories', 'discounts', 'shipping'])
      expect((await viewer.get(`/admin/${page}`)).status).toBe(200)
    const view = await viewer.get(`/admin/categories/${mine}`)
    expect(view.text).toContain('<fieldset class="plain" disabled>')
    expect(view.text).toContain('Your role can view categories but not change them.')
    expect((await send(viewer, `/admin/categories/${mine}`, { name: 'Viewer was here' })).status).toBe(403)
    expect((await send(viewer, '/admin/categories', { name: 'Nope' })).status).toBe(403)
    expect((await send(viewer, `/admin/categories/${mine}/move`, { by: 'up' })).status).toBe(403)
    expect((await send(viewer, '/admin/discounts', { code: 'NOPE', type: 'fixed', value: '1' })).status).toBe(403)
    expect((await send(viewer, '/admin/shipping', { name: 'Nope', price: '1' })).status).toBe(403)
    expect((await viewer.get('/admin/discounts/new')).status).toBe(403)
    expect(await names(a.key)).toEqual(['Mine'])

    const staff = await member(a.store.id, 'staff')
    await staff.get('/admin/shipping/new')
    expect((await staff.submit('/admin/shipping', { name: 'Staff courier', price: '2', isActive: '1' })).status).toBe(
      303,
    )

    for (const [page, id] of Object.entries(theirs)) {
      await a.b.get(`/admin/${page}`)
      expect((await a.b.get(`/admin/${page}/${id}`)).status).toBe(403)
      expect((await send(a.b, `/admin/${page}/${id}/delete`)).status).toBe(403)
    }
    expect((await t.api.get(`/api/v1/categories/${theirs.categories}`, { key: other.key }))[0].status).toBe(200)
  })
})
