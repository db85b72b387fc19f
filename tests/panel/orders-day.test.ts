/**
 * The seller's quick day over HTTP: inbox rows with their lines, phone and time on the store's
 * clock, "Confirm" and "Confirm and message" for those who may move orders (none for a viewer),
 * status filters as links, a phone typed the store's local way; the move's JSON answer for the
 * script; "Mark as shipped" with tracking (refused at its field, or kept and told); "Tell <name>
 * on WhatsApp" after a move; the store's time zone and the preview's unknown placeholders in
 * Settings.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, type TestApp } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeCatalog, makeKey, orderBody, placeOrder } from '../helpers/factories'

let t: TestApp
const client = () => new PanelClient((r) => t.app.handle(r))
let shop: Awaited<ReturnType<typeof makeOwnerShop>>
let cat: ReturnType<typeof makeCatalog>
let owner: PanelClient
let viewer: PanelClient

beforeAll(async () => {
  t = makeApp({ rateLimitOrders: 100_000, rateLimitKey: 100_000 })
  shop = await makeOwnerShop(t.deps, { name: 'Day Shop' })
  const key = makeKey(t.deps, shop.store.id)
  // A Colombian store on Bogota's clock (UTC−5 all year).
  const [res] = await t.api.put(
    '/api/v1/store',
    { whatsappNumber: '+57 300 765 4321', timezone: 'America/Bogota' },
    { key },
  )
  expect(res.status).toBe(200)
  cat = makeCatalog(t.deps, shop.store.id)
  owner = client()
  await signIn(owner, shop.email)
  viewer = client()
  await signIn(viewer, (await makeMember(t.deps, shop.store.id, 'viewer')).email)
})
afterAll(() => t.close())

const order = (extra: Parameters<typeof orderBody>[2] = {}) =>
  placeOrder(t.deps, orderBody(shop.store.id, cat, extra)).body
const statusOf = (id: string) =>
  t.deps.db.$client.query<{ status: string }, [string]>('SELECT status FROM orders WHERE id = ?').get(id)!.status
const rowOf = (page: string, id: string) => {
  const start = page.indexOf(`id="order-${id}"`)
  return start < 0 ? '' : page.slice(start, page.indexOf('</li>', start))
}
const bogota = (ms: number) =>
  new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: 'America/Bogota' }).format(ms)

describe('inbox rows', () => {
  test('lines, phone, the time on the store clock; Confirm, Confirm and message for a writer, not viewer', async () => {
    const o = order({ name: 'Rosa Díaz', phone: '+573001112233' })
    const page = await owner.get('/admin/orders')
    expect(page.status).toBe(200)
    const row = rowOf(page.text, o.id)
    expect(row).toContain('2 × Shirt (Large), 1 × Mug')
    expect(row).toContain('<a href="tel:+573001112233">+573001112233</a>')
    const createdAt = Date.parse(/datetime="([^"]+)"/.exec(row)![1]!)
    expect(row).toContain(bogota(createdAt))
    expect(row).toContain('GMT-5')
    expect(row).toContain(`aria-label="Confirm ${o.orderNumber}"`)
    expect(row).toContain(`aria-label="Confirm and message ${o.orderNumber}"`)
    expect(row).toContain('data-then-message')
    const seen = rowOf((await viewer.get('/admin/orders')).text, o.id)
    expect(seen).toContain('2 × Shirt (Large), 1 × Mug')
    expect(seen).not.toContain('Confirm')
  })

  test('status filters are links; the current one is marked; the search keeps the filter', async () => {
    const page = await owner.get('/admin/orders?status=pending')
    expect(page.text).toContain('<a href="/admin/orders?status=pending" aria-current="page">Pending</a>')
    expect(page.text).toContain('<a href="/admin/orders?status=shipped">Shipped</a>')
    expect(page.text).toContain('<a href="/admin/orders">All statuses</a>')
    expect(page.text).toContain('<input type="hidden" name="status" value="pending">')
  })

  test("a phone typed the store country's local way finds the order", async () => {
    const o = order({ name: 'Local Caller', phone: '+573004445566' })
    for (const q of ['300 444 5566', '3004445566', '(300) 444-5566', '+57 300 444 5566']) {
      const page = await owner.get(`/admin/orders?q=${encodeURIComponent(q)}`)
      expect({ q, found: page.text.includes(`id="order-${o.id}"`) }).toEqual({ q, found: true })
    }
    const none = await owner.get(`/admin/orders?q=${encodeURIComponent('300 999 0000')}`)
    expect(none.text).not.toContain(`id="order-${o.id}"`)
  })
})

describe('moves that tell the customer', () => {
  test('Confirm and message by script: a JSON answer with the confirmation message; the order moved', async () => {
    const o = order({ name: 'Eva Mar', phone: '+573001234000' })
    await owner.get('/admin/orders')
    const res = await owner.submit(
      `/admin/orders/${o.id}/status`,
      { status: 'confirmed' },
      { headers: { accept: 'application/json' } },
    )
    expect(res.status).toBe(200)
    const body = JSON.parse(res.text) as { whatsapp: string; next: string }
    expect(body.next).toBe(`/admin/orders/${o.id}?moved=confirmed`)
    const url = new URL(body.whatsapp)
    expect(url.origin + url.pathname).toBe('https://wa.me/573001234000')
    expect(url.searchParams.get('text')).toContain(`Hi Eva Mar, your order ${o.orderNumber}`)
    expect(url.searchParams.get('text')).toContain('is confirmed')
    expect(statusOf(o.id)).toBe('confirmed')
  })

  test('without the script the move lands on the order page, which leads with Tell <name> on WhatsApp', async () => {
    const o = order({ name: 'Tom <Tell>' })
    await owner.get('/admin/orders')
    const moved = await owner.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed' })
    expect(moved.status).toBe(303)
    expect(moved.location).toBe(`/admin/orders/${o.id}?moved=confirmed`)
    const page = await owner.get(moved.location!)
    const tell = page.text.indexOf('Tell Tom &lt;Tell&gt; on WhatsApp')
    expect(tell).toBeGreaterThan(0)
    expect(tell).toBeLessThan(page.text.indexOf('id="items-h"'))
    // Without a move just made, no Tell link.
    expect((await owner.get(`/admin/orders/${o.id}`)).text).not.toContain('id="tell"')
  })

  test('Mark as shipped: a bad link refused at its field, as typed, nothing moved; then kept and told', async () => {
    const o = order({ name: 'Iris' })
    await owner.get(`/admin/orders/${o.id}`)
    await owner.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed' })
    await owner.get(`/admin/orders/${o.id}`)
    const bad = await owner.submit(`/admin/orders/${o.id}/status`, {
      status: 'shipped',
      trackingNumber: 'TRK-1',
      trackingUrl: 'http://carrier.example/TRK-1',
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toContain('id="trackingUrl-error"')
    expect(bad.text).toContain('Enter a link that starts with https://')
    expect(bad.text).toContain('value="TRK-1"')
    expect(statusOf(o.id)).toBe('confirmed')
    const long = await owner.submit(`/admin/orders/${o.id}/status`, {
      status: 'shipped',
      trackingNumber: 'x'.repeat(101),
    })
    expect(long.status).toBe(400)
    expect(long.text).toContain('id="trackingNumber-error"')
    const ok = await owner.submit(`/admin/orders/${o.id}/status`, {
      status: 'shipped',
      trackingNumber: 'TRK-1',
      trackingUrl: 'https://carrier.example/TRK-1',
    })
    expect(ok.status).toBe(303)
    const page = await owner.get(ok.location!)
    expect(page.text).toContain('<dd>TRK-1</dd>')
    const href = /<a class="button" id="tell" href="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&')
    const text = new URL(href).searchParams.get('text')!
    expect(text).toContain('is on its way')
    expect(text).toContain('Tracking number: TRK-1')
    expect(text).toContain('Follow it here: https://carrier.example/TRK-1')
    const [, api] = await t.api.get(`/api/v1/orders/${o.id}`, { key: makeKey(t.deps, shop.store.id) })
    expect(api.data.tracking).toEqual({ number: 'TRK-1', url: 'https://carrier.example/TRK-1' })
  })

  test('tracking on a move that is not shipping is refused at its field', async () => {
    const o = order()
    await owner.get(`/admin/orders/${o.id}`)
    const res = await owner.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed', trackingNumber: 'X' })
    expect(res.status).toBe(400)
    expect(statusOf(o.id)).toBe('pending')
  })
})

describe('settings: the store clock and the preview', () => {
  test(
    'the time zone is saved from Settings; an unknown one is refused at its field; ' +
      'unknown placeholders flagged in the preview',
    async () => {
      const s = await makeOwnerShop(t.deps)
      const b = client()
      await signIn(b, s.email)
      const form = await b.get('/admin/settings')
      expect(form.text).toContain('<input id="timezone" name="timezone" type="text" value="UTC"')
      const fields = {
        name: 'Clock Shop',
        language: 'en',
        currency: 'USD',
        pendingOrderTtlHours: '72',
        whatsappTemplate: '',
        description: '',
        whatsappNumber: '',
      }
      const bad = await b.submit('/admin/settings', { ...fields, timezone: 'Moon/Base' })
      expect(bad.status).toBe(400)
      expect(bad.text).toContain('id="timezone-error"')
      await b.get('/admin/settings')
      const ok = await b.submit('/admin/settings', { ...fields, timezone: 'europe/lisbon' })
      expect(ok.status).toBe(303)
      expect((await b.get('/admin/settings')).text).toContain('value="Europe/Lisbon"')
      const preview = await b.submit('/admin/settings', {
        ...fields,
        timezone: 'Europe/Lisbon',
        whatsappTemplate: 'Hi {store} {precio}',
        _action: 'preview',
      })
      expect(preview.status).toBe(200)
      expect(preview.text).toContain('<p id="preview-flags" class="error">Unknown placeholders: {precio}.')
    },
  )
})
