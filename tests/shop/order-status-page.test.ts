/**
 * The customer's order status page: the 201 carries `statusUrl` with a token of 256
 * random bits that is not the order id; the page shows lines, total and the status timeline in
 * the store's language, is noindex and uncached, follows the seller's moves; another token, or
 * the token under another store's slug, shows nothing.
 */
import { expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody } from '../helpers/factories'

const t = appForFile()

const get = async (url: string) => {
  const res = await t.app.handle(new Request(url))
  return { res, text: await res.text() }
}

test('statusUrl → the order in the store language; it follows the seller; other tokens show nothing', async () => {
  const { store, key } = makeShop(t.deps)
  await t.api.put('/api/v1/store', { language: 'es', whatsappNumber: '+14155550100' }, { key })
  const cat = makeCatalog(t.deps, store.id)
  const [res, body] = await t.api.post('/api/orders', orderBody(store.id, cat, { name: 'Lía <Luna>' }))
  expect(res.status).toBe(201)
  const url = new URL(body.statusUrl)
  expect(url.pathname).toStartWith(`/s/${store.slug}/orders/`)
  const token = url.pathname.split('/').at(-1)!
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/) // 256 bits
  expect(token).not.toContain(body.id)
  expect(new URL(body.whatsappUrl).searchParams.get('text')).toContain(body.statusUrl)

  const page = await get(body.statusUrl)
  expect(page.res.status).toBe(200)
  expect(page.res.headers.get('cache-control')).toBe('no-store')
  expect(page.res.headers.get('referrer-policy')).toBe('no-referrer')
  expect(page.text).toContain('<meta name="robots" content="noindex">')
  expect(page.text).toContain('<html lang="es">')
  expect(page.text).toContain(`Pedido ${body.orderNumber}`)
  expect(page.text).toContain('Recibido')
  expect(page.text).toContain('Mug')
  expect(page.text).not.toContain('Lía') // no customer data on it
  expect(page.text).not.toContain(body.id)

  await t.api.put(`/api/v1/orders/${body.id}/status`, { status: 'confirmed' }, { key })
  const after = await get(body.statusUrl)
  expect(after.text).toMatch(/id="order-status">Confirmado</)

  const other = makeShop(t.deps).store
  for (const u of [
    `http://localhost/s/${store.slug}/orders/${'A'.repeat(43)}`,
    `http://localhost/s/${store.slug}/orders/${body.id}`,
    `http://localhost/s/${other.slug}/orders/${token}`,
  ]) {
    const r = await get(u)
    expect({ u, status: r.res.status }).toEqual({ u, status: 404 })
    expect(r.text).not.toContain(body.orderNumber)
    expect(r.text).toContain('noindex')
  }
})
