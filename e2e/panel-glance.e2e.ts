/**
 * The seller's day at a glance, in Chromium on a phone (390 × 844), by roles and labels: a new
 * product with pictures picked on its first form, the product list's thumbnail, stock and
 * low-stock mark; a form with three faults showing three messages at their fields behind a focused
 * summary; the dashboard's conversion (storefront orders only) and its chart's legend; the
 * two-step set-up's QR code; the webhook delivery log moving on without a reload. Every page is
 * checked (panel-harness.ts: no off-origin request, console error or dialog, no serious or
 * critical axe violation, no sideways scroll).
 * Run: `bun test ./e2e/panel-glance.e2e.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { startReceiver, type Receiver } from '../tests/helpers/webhook-receiver'
import {
  check,
  close,
  goTo,
  navLink,
  open,
  ownerStore,
  signInAs,
  startHarness,
  type Harness,
  type Watched,
} from './panel-harness'

const TIMEOUT = 120_000
const PASSWORD = 'a long and quiet passphrase'
const OWNER = 'glance-owner@example.com'
let h: Harness
let rx: Receiver
let storeId = ''

beforeAll(async () => {
  // The receiver listens on loopback, which only WEBHOOK_ALLOW_PRIVATE=1 lets an endpoint name.
  h = await startHarness({ webhookAllowPrivate: true })
  rx = startReceiver()
  const made = await ownerStore(h, { name: 'Glance Goods', slug: 'glance-goods', email: OWNER, password: PASSWORD })
  storeId = made.store.id
})
afterAll(async () => {
  rx?.stop()
  await h?.close()
})

const picture = (width: number, color: string) =>
  sharp({ create: { width, height: 300, channels: 3, background: color } })
    .jpeg()
    .toBuffer()

/** A refused form or file answers 400, which Chromium logs: exactly `n` of them were expected. */
function expectRefusals(w: Watched, n: number) {
  expect(w.problems.filter((p) => p.includes('status of 400'))).toHaveLength(n)
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('status of 400')))
}

/** What `document.activeElement` is: its id and whether it is the error summary. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = (
      globalThis as unknown as {
        document: { activeElement: { id: string; hasAttribute(n: string): boolean } | null }
      }
    ).document.activeElement
    return { id: el?.id ?? '', summary: el?.hasAttribute('data-error-summary') ?? false }
  })

/** The text of the elements a control's aria-describedby names. */
const description = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((el) => {
    const doc = (el as unknown as { ownerDocument: { getElementById(id: string): { textContent: string } | null } })
      .ownerDocument
    return ((el as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => doc.getElementById(id)?.textContent ?? '')
      .join(' ')
  })

describe('the seller panel at a glance, on a phone', () => {
  test(
    'a new product with two pictures picked on its first form; the list shows its thumbnail, stock and low-stock mark',
    async () => {
      const w = await open(h)
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await goTo(page, 'Products')
      await page.getByRole('link', { name: 'New product' }).click()
      await page.getByRole('heading', { level: 1, name: 'New product' }).waitFor()
      await page.getByLabel('Name', { exact: true }).fill('Clay bowl')
      await page.getByLabel('Price (USD)', { exact: true }).fill('12.5')
      await page.getByRole('button', { name: 'Add variant' }).click()
      const first = page.getByRole('group', { name: 'Variant 1' })
      await first.getByLabel('Variant name').fill('Small')
      await first.getByLabel('Variant price').fill('12.5')
      await first.getByLabel('Variant stock').fill('3')
      await page.getByLabel('Add pictures').setInputFiles([
        { name: 'bowl.jpg', mimeType: 'image/jpeg', buffer: await picture(500, '#8a4b00') },
        { name: 'side.jpg', mimeType: 'image/jpeg', buffer: await picture(400, '#c2a878') },
      ])
      await check(page)
      await page.getByRole('button', { name: 'Create product' }).click()
      await page.getByText('Saved.').waitFor()
      await page.getByText('2 pictures added.').waitFor()
      await page.getByText('Picture 2 of 2').waitFor()
      // Money with the currency's decimals.
      expect(await page.getByLabel('Price (USD)', { exact: true }).inputValue()).toBe('12.50')
      await check(page)

      // With the script, picking uploads at once: no Upload button; a refused file shows no full bar.
      expect(await page.getByRole('button', { name: 'Upload pictures' }).isVisible()).toBe(false)
      await page
        .getByLabel('Add pictures')
        .setInputFiles([
          { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<html>not a picture</html>') },
        ])
      await page.getByText('notes.jpg: This file is not a JPEG, PNG or WebP picture.').first().waitFor()
      expect(await page.getByRole('progressbar', { name: 'Uploading notes.jpg' }).count()).toBe(0)
      await check(page)
      expectRefusals(w, 1)

      await goTo(page, 'Products')
      const row = page.getByRole('row').filter({ hasText: 'Clay bowl' })
      expect(await row.getByRole('cell').nth(1).textContent()).toBe('$12.50')
      expect((await row.getByRole('cell').nth(2).textContent())?.trim()).toBe('3 Low stock')
      const thumb = row.locator('img.thumb')
      expect(await thumb.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'a discount with three faults: a focused summary lists three messages, each also at its field',
    async () => {
      const w = await open(h)
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await goTo(page, 'Discounts')
      await page.getByRole('link', { name: 'New discount' }).click()
      await page.getByRole('heading', { level: 1, name: 'New discount' }).waitFor()
      await page.getByLabel('Code').fill('no spaces!')
      await page.getByLabel('Value').fill('150')
      await page.getByLabel('Maximum uses').fill('1.5')
      await page.getByRole('button', { name: 'Create discount' }).click()
      await page.getByRole('heading', { level: 2, name: 'There is a problem' }).waitFor()
      await check(page)
      expect(await focused(page)).toEqual({ id: '', summary: true })
      const messages = {
        Code: 'This value is not in the right format.',
        Value: 'A percentage is more than 0 and at most 100.',
        'Maximum uses': 'Enter a whole number.',
      }
      const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' })
      expect((await summary.getByRole('link').allTextContents()).sort()).toEqual(Object.values(messages).sort())
      for (const [label, message] of Object.entries(messages)) {
        expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).toBe('true')
        expect(await description(page, label)).toContain(message)
      }
      // A summary link takes the person to its field.
      await summary.getByRole('link', { name: messages.Value }).click()
      expect((await focused(page)).id).toBe('value')
      expectRefusals(w, 1)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    "the dashboard's conversion counts storefront orders only; the chart has axes and a legend",
    async () => {
      const w = await open(h)
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      const deps = h.server.running.deps
      const product = deps.db.$client
        .query<{ id: string }, [string, string]>('SELECT id FROM products WHERE store_id = ? AND name = ?')
        .get(storeId, 'Clay bowl')!
      const variant = deps.db.$client
        .query<{ id: string }, [string]>('SELECT id FROM variants WHERE product_id = ?')
        .get(product.id)!
      const order = (phone: string) => ({
        storeId,
        name: 'Ana',
        phone,
        address: '1 Main St',
        items: [{ variantId: variant.id, quantity: 1 }],
      })
      // One order from the store's own origin (the browser says same-origin), two from an API client.
      const status = await page.evaluate(
        async (body) =>
          (
            await fetch('/api/orders', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify(body),
            })
          ).status,
        order('+14155550101'),
      )
      expect(status).toBe(201)
      for (const phone of ['+14155550102', '+14155550103']) {
        const res = await h.server.fetch('/api/orders', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(order(phone)),
        })
        expect(res.status).toBe(201)
      }
      deps.db.$client.run('INSERT INTO catalog_visits (store_id, created_at, count) VALUES (?, ?, 4)', [
        storeId,
        Date.now(),
      ])
      await goTo(page, 'Dashboard')
      const today = page.locator('.stat').filter({ hasText: 'Today' })
      expect(await today.textContent()).toContain('Orders: 3')
      expect(await today.textContent()).toContain('Visits: 4 · Conversion: 25%')
      await page.getByRole('img', { name: /Orders and revenue per day/ }).waitFor()
      await page.getByText('Orders (bars, left axis)').waitFor()
      await page.getByText('Revenue (line, right axis)').waitFor()
      await page.getByRole('heading', { level: 2, name: 'Share your store' }).waitFor()
      await page.getByRole('img', { name: "QR code of your store's link" }).waitFor()
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'two-step set-up shows a QR code of the key above it',
    async () => {
      const w = await open(h)
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await (await navLink(page, 'Account')).click()
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
      const qr = page.getByRole('img', { name: /QR code for your authenticator app/ })
      await qr.waitFor()
      const qrBox = (await qr.boundingBox())!
      const keyBox = (await page.locator('#totp-secret').boundingBox())!
      expect(qrBox.y + qrBox.height).toBeLessThanOrEqual(keyBox.y)
      expect(qrBox.width).toBeGreaterThan(100)
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'the webhook log moves on without a reload: sending, then delivered, with the attempts counted',
    async () => {
      const w = await open(h)
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await goTo(page, 'Webhooks')
      await page.getByLabel('URL').fill(rx.url)
      await page.getByRole('button', { name: 'Add webhook' }).click()
      await page.getByRole('heading', { level: 1, name: 'Webhook added' }).waitFor()
      await page.getByRole('link', { name: 'Done' }).click()
      await page.getByRole('link', { name: `Delivery log of ${rx.url}` }).click()
      await page.getByRole('heading', { level: 1, name: `Deliveries to ${rx.url}` }).waitFor()
      // With the script the log refreshes itself: no Refresh link.
      expect(await page.getByRole('link', { name: 'Refresh the log' }).isVisible()).toBe(false)

      // The receiver holds its answer until the page shows the delivery under way.
      let answer: (r: Response) => void = () => {}
      rx.respond = () => new Promise<Response>((resolve) => (answer = resolve))
      await page.getByRole('button', { name: 'Send test event' }).click()
      await page.getByText('A test event is on its way.').waitFor()
      await rx.waitFor(() => rx.received.length === 1)
      let navigations = 0
      page.on('framenavigated', () => navigations++)
      await page.locator('#delivery-log').getByText('Sending').waitFor({ timeout: 30_000 })
      answer(new Response(null, { status: 204 }))
      await page.locator('#delivery-log').getByText('Delivered').waitFor({ timeout: 30_000 })
      expect(navigations).toBe(0)
      expect(await page.locator('#delivery-log').textContent()).toContain('Attempts1')
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )
})
