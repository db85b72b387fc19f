/**
 * The product editor's pictures in Chromium on a phone, by roles and labels: create a
 * product with two variants with stock, pick two pictures at once (uploaded one by one with a
 * progress bar each), reorder them by keyboard ("Move later", said in the live region, focus
 * kept on the moved picture), and see the new order on the storefront's product page and through
 * GET /api/v1/products/:id with an API key. Every page is checked (panel-harness.ts: no
 * off-origin request, console error or dialog, no serious or critical axe violation, no
 * sideways scroll at 390 × 844).
 * Run: `bun test ./e2e/panel-products.e2e.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import sharp from 'sharp'
import { check, close, open, signInAs, ownerStore, startHarness, type Harness } from './panel-harness'

const TIMEOUT = 120_000
const PASSWORD = 'a long and quiet passphrase'
const OWNER = 'pictures-owner@example.com'
let h: Harness
let readKey = ''

beforeAll(async () => {
  h = await startHarness()
  const made = await ownerStore(h, {
    name: 'Phone Pottery',
    slug: 'phone-pottery',
    email: OWNER,
    password: PASSWORD,
    whatsapp: '+14155550123',
  })
  readKey = made.readKey
})
afterAll(async () => {
  await h?.close()
})

const api = (path: string, key: string) => h.server.fetch(path, { headers: { authorization: `Bearer ${key}` } })
/** Two pictures told apart by their width (the API reports it). */
const picture = (width: number, color: string) =>
  sharp({ create: { width, height: 300, channels: 3, background: color } })
    .jpeg()
    .toBuffer()

describe('the product editor on a phone', () => {
  test(
    'two variants with stock and two pictures; reorder the pictures by keyboard; ' +
      'the storefront and the API show the new order',
    async () => {
      const w = await open(h)
      const { page } = w
      await signInAs(h, page, OWNER, PASSWORD)
      await page.getByRole('link', { name: 'Products', exact: true }).click()
      await page.getByRole('link', { name: 'New product' }).click()
      await page.getByRole('heading', { level: 1, name: 'New product' }).waitFor()
      await page.getByLabel('Name', { exact: true }).fill('Stoneware mug')
      await page.getByLabel('Price (USD)', { exact: true }).fill('18')
      await page.getByRole('button', { name: 'Add variant' }).click()
      const first = page.getByRole('group', { name: 'Variant 1' })
      await first.getByLabel('Variant name').fill('Blue')
      await first.getByLabel('Variant price').fill('18')
      await first.getByLabel('Variant stock').fill('4')
      await page.getByRole('button', { name: 'Add variant' }).click()
      const second = page.getByRole('group', { name: 'Variant 2' })
      await second.getByLabel('Variant name').fill('Sand')
      await second.getByLabel('Variant price').fill('20')
      await second.getByLabel('Variant stock').fill('6')
      await check(page)
      await page.getByRole('button', { name: 'Create product' }).click()
      await page.getByText('Saved.').waitFor()
      await check(page)
      const id = /\/admin\/products\/([^/?#]+)/.exec(page.url())![1]!

      // Two pictures picked at once: each gets its progress bar, then the list shows both.
      await page.getByLabel('Add pictures').setInputFiles([
        { name: 'wide.jpg', mimeType: 'image/jpeg', buffer: await picture(500, '#1d4e89') },
        { name: 'narrow.jpg', mimeType: 'image/jpeg', buffer: await picture(400, '#c2a878') },
      ])
      await page.getByRole('progressbar', { name: 'Uploading wide.jpg' }).waitFor()
      await page.getByRole('progressbar', { name: 'Uploading narrow.jpg' }).waitFor()
      await page.getByText('Picture 2 of 2').waitFor()
      await expect(
        page
          .getByRole('progressbar', { name: 'Uploading narrow.jpg' })
          .evaluate((e) => (e as unknown as { value: number }).value),
      ).resolves.toBe(100)
      await check(page)
      const widths = async () =>
        (
          (await (await api(`/api/v1/products/${id}`, readKey)).json()) as { data: { images: { width: number }[] } }
        ).data.images.map((i) => i.width)
      expect(await widths()).toEqual([500, 400])

      // By keyboard: focus "Move later" on the first picture and press Enter.
      await page.getByRole('button', { name: 'Move later, picture 1' }).focus()
      await page.keyboard.press('Enter')
      await page.getByRole('status').filter({ hasText: 'Picture moved to position 2 of 2.' }).waitFor()
      // The focus stays on the moved picture (now second): its remaining button.
      await expect(
        page.evaluate(() =>
          (
            globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } } }
          ).document.activeElement.getAttribute('aria-label'),
        ),
      ).resolves.toBe('Move earlier, picture 2')
      await check(page)
      expect(await widths()).toEqual([400, 500])

      // The API, with a key: the variants with their stock, the pictures in the new order.
      const body = (await (await api(`/api/v1/products/${id}`, readKey)).json()) as {
        data: { slug: string; variants: { name: string; stock: number }[]; images: { url: string; width: number }[] }
      }
      expect(body.data.variants.map((v) => [v.name, v.stock])).toEqual([
        ['Blue', 4],
        ['Sand', 6],
      ])

      // The storefront's product page shows them in that order.
      await page.goto(`${h.origin}/s/phone-pottery/p/${body.data.slug}`)
      await page.getByRole('heading', { level: 1, name: 'Stoneware mug' }).waitFor()
      // Every picture, in the seller's order: the first large, the rest in the gallery after it.
      const shown = await page
        .locator('main img')
        .evaluateAll((imgs) =>
          imgs.map((i) => (i as unknown as { getAttribute(n: string): string | null }).getAttribute('src') ?? ''),
        )
      const stems = body.data.images.map((i) => new URL(i.url, h.origin).pathname.replace(/-\d+\.webp$/, ''))
      expect(shown.map((src) => stems.findIndex((s) => src.startsWith(`${s}-`)))).toEqual([0, 1])
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )
})
