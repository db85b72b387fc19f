/**
 * The panel's frame in Chromium, on a phone (390 × 844) and a desktop (1280 × 900), by roles and
 * labels: the inbox's first order within 200 px of the top; the bottom tabs in view on the phone,
 * the side navigation on the desktop; no sideways scrolling and no axe finding on any panel page at
 * either size (check). New-order alerts on every page: with the Dashboard and Products pages open,
 * an order placed over HTTP shows its count on the Orders link and in each title, the dashboard's
 * latest orders gain it, and the chime plays after a first tap unless its switch is off (remembered).
 * Run: `bun test ./e2e/panel-shell.e2e.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { addProduct, addVariant, makeOrder, uniqPhone } from '../tests/helpers/factories'
import { check, close, DESKTOP, open, ownerStore, PHONE, signInAs, startHarness, type Harness } from './panel-harness'

const TIMEOUT = 180_000
const OWNER = 'shell@example.com'
const PASSWORD = 'a long and quiet passphrase'
let h: Harness
let storeId = ''
let variantId = ''
let orderId = ''
let productId = ''

beforeAll(async () => {
  h = await startHarness()
  const deps = h.server.running.deps
  storeId = (await ownerStore(h, { name: 'Shell Coffee', slug: 'shell-coffee', email: OWNER, password: PASSWORD }))
    .store.id
  const beans = addProduct(deps, storeId, { price: 1500, name: 'House Blend' })
  productId = beans.id
  variantId = addVariant(deps, beans.id, { price: 1500, name: '1 kg' }).id
  deps.db.$client.run('UPDATE variants SET stock = 50 WHERE id = ?', [variantId])
  for (let i = 0; i < 3; i++) orderId = makeOrder(deps, storeId)
})
afterAll(async () => {
  await h?.close()
})

/** An order from outside, as a storefront would send it. */
async function postOrder(name: string): Promise<string> {
  const res = await h.server.fetch('/api/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      storeId,
      name,
      phone: uniqPhone(),
      address: 'Main St 1',
      items: [{ variantId, quantity: 1 }],
    }),
  })
  expect({ status: res.status, body: res.status === 201 ? '' : await res.text() }).toEqual({ status: 201, body: '' })
  return ((await res.json()) as { orderNumber: string }).orderNumber
}

/** Every panel page an owner can open (the navigation's, the More page, the account, an order, a product). */
const PAGES = [
  '/admin',
  '/admin/orders',
  '/admin/products',
  '/admin/categories',
  '/admin/discounts',
  '/admin/shipping',
  '/admin/reviews',
  '/admin/customers',
  '/admin/settings',
  '/admin/team',
  '/admin/keys',
  '/admin/webhooks',
  '/admin/activity',
  '/admin/more',
  '/admin/account',
]

const box = async (locator: ReturnType<Page['locator']>) => {
  const b = await locator.boundingBox()
  if (!b) throw new Error(`not on screen: ${locator}`)
  return b
}

async function walkEveryPage(page: Page) {
  for (const path of [...PAGES, `/admin/orders/${orderId}`, `/admin/products/${productId}`]) {
    await page.goto(h.origin + path)
    await page.locator('h1').waitFor()
    await check(page)
  }
}

describe('the frame on a phone and a desktop', () => {
  test(
    'phone: a 56 px header, the first order near the top, bottom tabs in view, More lists the rest; every page fits',
    async () => {
      const w = await open(h, { viewport: PHONE })
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await page.goto(`${h.origin}/admin/orders`)
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor()
      expect((await box(page.locator('header.top'))).height).toBeLessThanOrEqual(56)
      expect((await box(page.locator('#orders > li').first())).y).toBeLessThan(200)

      const tabs = page.getByRole('navigation', { name: 'Shortcuts' })
      const t = await box(tabs)
      expect(t.y + t.height).toBeLessThanOrEqual(PHONE.height)
      expect(t.y).toBeGreaterThan(PHONE.height - 100)
      for (const name of ['Orders 3 new', 'Products', 'Dashboard', 'More pages'])
        expect((await box(tabs.getByRole('link', { name, exact: true }))).height).toBeGreaterThanOrEqual(44)
      expect(await tabs.getByRole('link', { name: 'Orders 3 new' }).getAttribute('aria-current')).toBe('page')
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0) // hidden on a phone
      expect(await page.title()).toBe('(3) Orders · Seller panel')

      // Scrolled to the end, the tabs are still in view.
      await page.mouse.wheel(0, 5000)
      expect((await box(tabs)).y).toBeGreaterThan(PHONE.height - 100)

      await tabs.getByRole('link', { name: 'More' }).click()
      await page.getByRole('heading', { level: 1, name: 'More' }).waitFor()
      await check(page)
      await page.getByRole('link', { name: 'Webhooks', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor()

      await walkEveryPage(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'desktop: a side navigation beside the page, no tabs, the first order near the top; every page fits',
    async () => {
      const w = await open(h, { viewport: DESKTOP })
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await page.goto(`${h.origin}/admin/orders`)
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor()
      const side = await box(page.getByRole('navigation', { name: 'Main' }))
      const main = await box(page.locator('main'))
      expect(side.x).toBe(0)
      expect(main.x).toBeGreaterThanOrEqual(side.x + side.width)
      expect(await page.getByRole('navigation', { name: 'Shortcuts' }).count()).toBe(0)
      expect((await box(page.locator('#orders > li').first())).y).toBeLessThan(200)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' }).click()
      await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor()
      expect(
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Activity' })
          .getAttribute('aria-current'),
      ).toBe('page')
      await walkEveryPage(page)
      await close(w)
    },
    TIMEOUT,
  )
})

describe('new-order alerts on every page', () => {
  test(
    'an order placed while the Dashboard and Products are open shows on both; the dashboard lists it; ' +
      'the chime and its switch',
    async () => {
      const w = await open(h, { viewport: PHONE })
      // Counts the chime's notes: the page's own AudioContext, observed from outside.
      await w.context.addInitScript(() => {
        const g = globalThis as unknown as { chimes: number; OscillatorNode: { prototype: { start(): void } } }
        g.chimes = 0
        const start = g.OscillatorNode.prototype.start
        g.OscillatorNode.prototype.start = function (this: unknown, ...args: unknown[]) {
          g.chimes++
          return (start as (...a: unknown[]) => void).apply(this, args)
        }
      })
      const dashboard = w.page
      await signInAs(h, dashboard, OWNER, PASSWORD)
      const products = await w.context.newPage()
      await products.goto(`${h.origin}/admin/products`)
      await products.getByRole('heading', { level: 1, name: 'Products' }).waitFor()
      const before = await dashboard.title()
      const unseen = Number(/^\((\d+)\)/.exec(before)?.[1] ?? 0)
      // The first interaction, which lets the page play sound.
      await dashboard.getByRole('heading', { level: 1, name: 'Dashboard' }).click()

      const number = await postOrder('Ana Alerta')
      const n = unseen + 1
      for (const page of [dashboard, products]) {
        await page.waitForFunction(
          (t) => (globalThis as unknown as { document: { title: string } }).document.title.startsWith(t),
          `(${n}) `,
          { timeout: 10_000 },
        )
        await page.getByRole('link', { name: `Orders ${n} new`, exact: true }).waitFor()
        await check(page)
      }
      expect(await dashboard.title()).toBe(`(${n}) Dashboard · Seller panel`)
      expect(await products.title()).toBe(`(${n}) Products · Seller panel`)
      // The dashboard's latest orders gained it, on top.
      const latest = dashboard.getByRole('list', { name: 'Latest orders' })
      await latest.getByRole('link', { name: number }).waitFor()
      expect(await latest.getByRole('listitem').count()).toBeLessThanOrEqual(5)
      expect(await latest.getByRole('listitem').first().getByRole('link', { name: number }).count()).toBe(1)
      await dashboard.waitForFunction(() => (globalThis as unknown as { chimes: number }).chimes === 1)

      // The switch turns the chime off; the count still grows; the choice outlives a reload.
      const toggle = dashboard.getByRole('button', { name: 'Order sound' })
      expect(await toggle.getAttribute('aria-pressed')).toBe('true')
      await toggle.click()
      expect(await toggle.getAttribute('aria-pressed')).toBe('false')
      await postOrder('Beto Silencio')
      await dashboard.waitForFunction(
        (t) => (globalThis as unknown as { document: { title: string } }).document.title.startsWith(t),
        `(${n + 1}) `,
        { timeout: 10_000 },
      )
      expect(await dashboard.evaluate(() => (globalThis as unknown as { chimes: number }).chimes)).toBe(1)
      await dashboard.reload()
      await dashboard.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      expect(await dashboard.getByRole('button', { name: 'Order sound' }).getAttribute('aria-pressed')).toBe('false')
      expect(await dashboard.title()).toBe(`(${n + 1}) Dashboard · Seller panel`)
      await check(dashboard)
      await close(w)
    },
    TIMEOUT,
  )
})

describe('the account page', () => {
  test(
    'a wrong current password and a too-short new one: the summary links both, each message sits at its field',
    async () => {
      const w = await open(h, { viewport: PHONE })
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await page.goto(`${h.origin}/admin/account`)
      await page.getByLabel('Current password').fill('not the password at all')
      await page.getByLabel('New password').fill('short')
      await page.getByRole('button', { name: 'Change password' }).click()
      const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' })
      await summary.waitFor()
      await page.waitForFunction(() =>
        (
          globalThis as unknown as { document: { activeElement: { hasAttribute(n: string): boolean } | null } }
        ).document.activeElement?.hasAttribute('data-error-summary'),
      )
      for (const [label, message] of [
        ['Current password', 'The current password is not right.'],
        ['New password', 'Use at least 10 characters.'],
      ]) {
        await summary.getByRole('link', { name: message }).waitFor()
        const control = page.getByLabel(label, { exact: true })
        expect(await control.getAttribute('aria-invalid')).toBe('true')
        const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ')
        expect(await page.locator(`#${ids.at(-1)}`).textContent()).toBe(message)
      }
      // The refused form's own 400 is the only console line, and it is expected.
      expect(w.problems.filter((p) => p.includes('status of 400'))).toHaveLength(1)
      w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('status of 400')))
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )
})
