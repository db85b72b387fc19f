/**
 * The orders inbox in Chromium, phone-sized, by roles and labels: an
 * order posted to POST /api/orders from outside appears in an open inbox within 2 s without a
 * reload, with the count in the title; "Confirm" moves it (the API then says confirmed);
 * cancelling asks, then puts stock back; the WhatsApp link carries the number and the order
 * number; the packing slip has no navigation, a Print button; search by a phone typed with spaces and without
 * "+"; a viewer sees no move buttons and a move posted as viewer is refused. Every page is
 * checked (panel-harness.ts). Run: `bun test ./e2e/panel-orders.e2e.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { createOwner, hashPassword } from '../src/modules/people'
import { createStore } from '../src/modules/platform-stores/service'
import { memberships } from '../src/db/schema'
import { and, eq } from 'drizzle-orm'
import { makeKey } from '../tests/helpers/factories'
import { addProduct, addVariant } from '../tests/helpers/factories'
import { check, close, open, startHarness, type Harness, navLink } from './panel-harness'

const TIMEOUT = 90_000
const PASSWORD = 'a long and quiet passphrase'
let h: Harness
let storeId = ''
let key = ''
let variantId = ''
const PHONE = '+14155550142'

beforeAll(async () => {
  h = await startHarness()
  const deps = h.server.running.deps
  const store = createStore({ ctx: deps, input: { name: 'Orders Coffee', slug: 'orders-coffee', plan: 'pro' } })
  storeId = store.id
  const hash = await hashPassword(PASSWORD)
  createOwner({ ctx: deps, input: { storeId, email: 'boss@example.com', name: 'Boss', passwordHash: hash } })
  const viewer = createOwner({
    ctx: deps,
    input: { storeId, email: 'viewer@example.com', name: 'Vera Viewer', passwordHash: hash },
  })
  deps.db
    .update(memberships)
    .set({ role: 'viewer' })
    .where(and(eq(memberships.userId, viewer.id), eq(memberships.storeId, storeId)))
    .run()
  const beans = addProduct(deps, storeId, { price: 1500, name: 'Coffee beans' })
  variantId = addVariant(deps, beans.id, { price: 1500, name: '1 kg' }).id
  deps.db.$client.run('UPDATE variants SET stock = 10 WHERE id = ?', [variantId])
  key = makeKey(deps, storeId)
})
afterAll(async () => {
  await h?.close()
})

const api = (path: string, init: RequestInit = {}) => h.server.fetch(path, init)

/** An order from outside, as a storefront or a script would send it. */
async function postOrder(name: string, phone = PHONE): Promise<{ id: string; orderNumber: string; statusUrl: string }> {
  const res = await api('/api/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      storeId,
      name,
      phone,
      address: 'Av. Siempre Viva 742',
      items: [{ variantId, quantity: 2 }],
    }),
  })
  expect(res.status).toBe(201)
  return (await res.json()) as { id: string; orderNumber: string; statusUrl: string }
}

const apiStatus = async (id: string) =>
  (
    (await (await api(`/api/v1/orders/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      data: { status: string }
    }
  ).data.status
const apiStock = async () =>
  (
    (await (await api(`/api/v1/products?limit=100`, { headers: { authorization: `Bearer ${key}` } })).json()) as {
      data: { variants: { id: string; stock: number | null }[] }[]
    }
  ).data
    .flatMap((p) => p.variants)
    .find((v) => v.id === variantId)?.stock

async function signIn(page: Page, email: string) {
  await page.goto(`${h.origin}/admin/login?next=/admin/orders`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor()
}

describe('the orders inbox in Chromium', () => {
  test(
    'a posted order appears live with the title count; Confirm; WhatsApp; packing slip; ' +
      'cancel puts stock back; search by phone',
    async () => {
      const w = await open(h)
      const { page } = w
      await signIn(page, 'boss@example.com')
      await check(page)
      // Let the stream open, then post from outside: the row must appear without a reload.
      await page.waitForFunction(
        () => (globalThis as unknown as { document: { title: string } }).document.title === 'Orders · Seller panel',
      )
      await Bun.sleep(300)
      const o = await postOrder('Carla Cliente')
      const posted = Date.now()
      await page.getByRole('link', { name: o.orderNumber }).waitFor({ timeout: 2000 })
      expect(Date.now() - posted).toBeLessThan(2000)
      expect(await page.title()).toBe('(1) Orders · Seller panel')
      await check(page)

      await page.getByRole('link', { name: o.orderNumber }).click()
      await page.getByRole('heading', { level: 1, name: `Order ${o.orderNumber}` }).waitFor()
      await check(page)
      expect(await page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(0)
      const wa = await page.getByRole('link', { name: 'Message on WhatsApp' }).getAttribute('href')
      expect(wa).toStartWith(`https://wa.me/${PHONE.slice(1)}?text=`)
      expect(decodeURIComponent(wa!.split('text=')[1]!)).toContain(o.orderNumber)

      await page.getByRole('button', { name: 'Confirm' }).click()
      await page.getByText('The order is now Confirmed.').waitFor()
      await check(page)
      expect(await apiStatus(o.id)).toBe('confirmed')
      await page.getByRole('button', { name: 'Mark as shipped' }).waitFor()

      // The customer's status page says "Confirmed" now; another token shows nothing.
      const statusPath = new URL(o.statusUrl).pathname
      await page.goto(h.origin + statusPath)
      await page.getByRole('heading', { level: 1, name: `Order ${o.orderNumber}` }).waitFor()
      expect(await page.locator('#order-status').textContent()).toBe('Confirmed')
      await check(page)
      // (Fetched beside the page: a 404 navigation would log a console error the harness counts.)
      const missing = await w.context.request.get(h.origin + statusPath.replace(/[^/]{43}$/, 'B'.repeat(43)))
      expect(missing.status()).toBe(404)
      expect(await missing.text()).not.toContain(o.orderNumber)
      await page.goto(`${h.origin}/admin/orders/${o.id}`)

      await page.getByRole('link', { name: 'Packing slip' }).click()
      await page.getByRole('heading', { level: 1, name: 'Orders Coffee' }).waitFor()
      await check(page)
      expect(await page.locator('nav').count()).toBe(0)
      // Its only script is the panel's, for the Print button.
      expect(await page.locator('script').count()).toBe(1)
      await page.getByRole('button', { name: 'Print' }).waitFor()
      await page.getByText('Av. Siempre Viva 742').waitFor()
      await page.goBack()

      // Cancelling asks first, then puts the stock back (as the API does).
      const c = await postOrder('Otto Otro', '+14155550177')
      expect(await apiStock()).toBe(6)
      await page.goto(`${h.origin}/admin/orders`)
      await page.getByRole('link', { name: c.orderNumber }).click()
      await page.getByRole('button', { name: 'Cancel order' }).click()
      await page.getByText('Cancel this order?').waitFor()
      await check(page)
      expect(await apiStatus(c.id)).toBe('pending')
      await page.getByRole('button', { name: 'Yes, cancel the order' }).click()
      await page.getByText('The order is now Cancelled.').waitFor()
      expect(await apiStatus(c.id)).toBe('cancelled')
      expect(await apiStock()).toBe(8)

      // Search by a phone typed with spaces and without "+".
      await page.goto(`${h.origin}/admin/orders`)
      await page.getByRole('searchbox', { name: 'Search' }).fill('1 415 555 0142')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('link', { name: o.orderNumber }).waitFor()
      expect(await page.getByRole('link', { name: c.orderNumber }).count()).toBe(0)
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'the dashboard (chart and its table) and the customers pages pass the same checks',
    async () => {
      const w = await open(h)
      const { page } = w
      await signIn(page, 'boss@example.com')
      await page.getByRole('link', { name: 'Dashboard' }).click()
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      await page.getByRole('img', { name: 'Orders and revenue per day, last 30 days' }).waitFor()
      // The share step's QR code: inline SVG drawn on the server, named, inside the phone's width.
      const qr = page.getByRole('img', { name: "QR code of your store's link" })
      const box = (await qr.boundingBox())!
      expect(box.width).toBeGreaterThan(100)
      expect(box.x + box.width).toBeLessThanOrEqual(390)
      await page.getByText('Show the numbers as a table').click()
      await check(page)
      await (await navLink(page, 'Customers')).click()
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor()
      await check(page)
      await page.getByRole('searchbox', { name: 'Search' }).fill('1 415 555 0142')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('link', { name: 'Carla Cliente' }).click()
      await page.getByRole('heading', { level: 1, name: 'Carla Cliente' }).waitFor()
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'a viewer reads orders but sees no move buttons, and a move posted as viewer is refused',
    async () => {
      const o = await postOrder('Vicente Visto', '+14155550188')
      const w = await open(h)
      const { page } = w
      await signIn(page, 'viewer@example.com')
      await page.getByRole('link', { name: o.orderNumber }).click()
      await page.getByRole('heading', { level: 1, name: `Order ${o.orderNumber}` }).waitFor()
      await check(page)
      for (const name of ['Confirm', 'Mark as shipped', 'Mark as delivered', 'Cancel order'])
        expect(await page.getByRole('button', { name }).count()).toBe(0)
      await page.getByRole('link', { name: 'Message on WhatsApp' }).waitFor()
      const token = await page.locator('input[name="_csrf"]').first().inputValue()
      const res = await w.context.request.post(`${h.origin}/admin/orders/${o.id}/status`, {
        form: { _csrf: token, status: 'confirmed' },
        headers: { origin: h.origin },
        maxRedirects: 0,
      })
      expect(res.status()).toBe(403)
      expect(await apiStatus(o.id)).toBe('pending')
      await close(w)
    },
    TIMEOUT,
  )
})
