/**
 * Customers in the panel, over HTTP: list, search by name or phone
 * in any format, detail with orders, another store's customer.
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { customerSearch } from '../../src/panel/pages/customers'

const t = appForFile()

test('list, search by name or phone, detail with order history; a viewer reads; another store is 403', async () => {
  const shop = await makeOwnerShop(t.deps)
  const cat = makeCatalog(t.deps, shop.store.id)
  const a = placeOrder(t.deps, orderBody(shop.store.id, cat, { name: 'Rosa <i>Ruiz</i>', phone: '+14155550133' })).body
  placeOrder(
    t.deps,
    orderBody(shop.store.id, cat, {
      name: 'Rosa Ruiz',
      phone: '+14155550133',
      items: [{ productId: cat.mug.id, quantity: 1 }],
    }),
  )
  placeOrder(t.deps, orderBody(shop.store.id, cat, { name: 'Tomás Tapia' }))
  const viewer = new PanelClient((r) => t.app.handle(r))
  await signIn(viewer, (await makeMember(t.deps, shop.store.id, 'viewer')).email)
  const list = await viewer.get('/admin/customers')
  expect(list.status).toBe(200)
  expect(list.text).toContain('Rosa &lt;i&gt;Ruiz&lt;/i&gt;')
  expect(list.text).toContain('Tomás Tapia')
  expect(list.text).toContain('Orders: 2')
  for (const q of ['rosa', '1 415 555 0133', '+1 (415) 555-0133', '5550133']) {
    const page = await viewer.get(`/admin/customers?q=${encodeURIComponent(q)}`)
    expect({ q, rosa: page.text.includes('Rosa &lt;i&gt;'), tomas: page.text.includes('Tomás') }).toEqual({
      q,
      rosa: true,
      tomas: false,
    })
  }
  expect((await viewer.get('/admin/customers?q=zzz')).text).toContain('No customers match.')
  const id = /href="\/admin\/customers\/([^"]+)"><strong>Rosa/.exec(list.text)![1]!
  const detail = await viewer.get(`/admin/customers/${id}`)
  expect(detail.status).toBe(200)
  expect(detail.text).toContain(a.orderNumber)
  expect(detail.text).toContain(`href="/admin/orders/${a.id}"`)
  expect(customerSearch('54 9 11 5555 0101')).toBe('+5491155550101')

  const other = await makeOwnerShop(t.deps)
  const otherClient = new PanelClient((r) => t.app.handle(r))
  await signIn(otherClient, other.email)
  expect((await otherClient.get(`/admin/customers/${id}`)).status).toBe(403)
  expect((await viewer.get('/admin/customers/not-a-customer')).status).toBe(404)
})
