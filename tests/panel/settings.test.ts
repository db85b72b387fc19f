/**
 * The panel's Settings page over HTTP: every setting saved through the API's verb and
 * read back over GET /api/v1/store; the WhatsApp preview of a sample order in the store's
 * language; bad input at its field; staff has no Settings, a viewer reads but cannot post.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'

const client = (headers: Record<string, string> = {}) => new PanelClient((r) => t.app.handle(r), undefined, headers)

const t = appForFile()

async function owner(headers: Record<string, string> = {}) {
  const shop = await makeOwnerShop(t.deps)
  const b = client(headers)
  await signIn(b, shop.email)
  return { ...shop, b, key: makeKey(t.deps, shop.store.id) }
}

const all = {
  name: 'Café Lola',
  description: 'Beans',
  whatsappNumber: '+5491155550100',
  whatsappTemplate: 'Hola {tienda}! Soy {nombre}\n{productos}\nTotal {total}',
  language: 'es',
  currency: 'ARS',
  isPublished: '1',
  pendingOrderTtlHours: '24',
  showStockCount: '1',
}

describe('settings', () => {
  test('save every setting; the API reads them back; the storefront link is there', async () => {
    const { b, store, key } = await owner()
    const page = await b.get('/admin/settings')
    expect(page.status).toBe(200)
    expect(page.text).toContain(`href="/s/${store.slug}"`)
    const res = await b.submit('/admin/settings', all)
    expect(res.status).toBe(303)
    // The store's language is now Spanish, and this person chose none: the panel follows it.
    expect((await b.get(res.location!)).text).toContain('Guardado.')
    const [, body] = await t.api.get('/api/v1/store', { key })
    expect(body.data).toMatchObject({
      name: 'Café Lola',
      description: 'Beans',
      whatsappNumber: '+5491155550100',
      whatsappTemplate: 'Hola {tienda}! Soy {nombre}\n{productos}\nTotal {total}',
      language: 'es',
      currency: 'ARS',
      isPublished: true,
      isMaintenance: false,
      pendingOrderTtlHours: 24,
      showStockCount: true,
    })
  })

  test('preview: the sample order rendered with the typed template, in the store language, nothing saved', async () => {
    const { b, key } = await owner()
    await b.get('/admin/settings')
    const res = await b.submit('/admin/settings', {
      ...all,
      name: 'Loja Boa',
      language: 'pt',
      currency: 'BRL',
      whatsappTemplate: '',
      _action: 'preview',
    })
    expect(res.status).toBe(200)
    // The default Portuguese template, with the sample order's lines, shipping and address in Portuguese.
    expect(res.text).toContain(
      'Olá Loja Boa, sou Ana Silva. Quero fazer o pedido ORD-000042:\n- 2 x Café em grão 1 kg: ' +
        '30.00 BRL\n- 1 x Caneca: 15.00 BRL\nFrete: Transportadora 5.00 BRL\nTotal: 50.00 BRL\nEndereço: ' +
        'Rua do Jardim 12, Campinas',
    )
    const [, body] = await t.api.get('/api/v1/store', { key })
    expect(body.data.language).not.toBe('pt')
  })

  test('bad input at its field: unknown placeholder, bad phone, negative hours', async () => {
    const { b } = await owner()
    await b.get('/admin/settings')
    const t1 = await b.submit('/admin/settings', { ...all, whatsappTemplate: 'Hi {precio}' })
    expect(t1.status).toBe(400)
    expect(t1.text).toContain('id="whatsappTemplate-error"')
    expect(t1.text).toContain('Unknown placeholders: {precio}')
    const t2 = await b.submit('/admin/settings', { ...all, whatsappNumber: '12' })
    expect(t2.status).toBe(400)
    expect(t2.text).toContain('id="whatsappNumber-error"')
    const t3 = await b.submit('/admin/settings', { ...all, pendingOrderTtlHours: '-1' })
    expect(t3.status).toBe(400)
    expect(t3.text).toContain('id="pendingOrderTtlHours-error"')
  })

  test('staff has no Settings; a viewer reads them (disabled) and a hand-made post is refused', async () => {
    const { store, key } = await owner()
    const staff = await makeMember(t.deps, store.id, 'staff')
    const s = client()
    await signIn(s, staff.email)
    expect((await s.get('/admin/settings')).status).toBe(403)
    expect((await s.submit('/admin/settings', all)).status).toBe(403)
    const viewer = await makeMember(t.deps, store.id, 'viewer')
    const v = client()
    await signIn(v, viewer.email)
    const page = await v.get('/admin/settings')
    expect(page.status).toBe(200)
    expect(page.text).toContain('disabled')
    expect((await v.submit('/admin/settings', all)).status).toBe(403)
    const [, body] = await t.api.get('/api/v1/store', { key })
    expect(body.data.name).toBe(store.name)
  })
})
