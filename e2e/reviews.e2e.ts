/**
 * Reviews and sharing on the storefront in Chromium, on a phone (390 × 844), with JavaScript on
 * and off: writing a review (pending over the API), approving it over the API (then shown with
 * its text, name and rating), markup shown as text, a rejected review never shown, the fourth
 * review of a day from one IP told when it may write again, and the Share links. Driven by roles
 * and labels. Every page opened is audited (e2e/harness.ts): no request to another origin, no
 * console error, no axe-core serious/critical violation, no sideways scrolling.
 *
 * The server runs as behind a proxy so each test has its own client IP: the per-IP review limit
 * (3 a day, the default) is what one test checks, and must not be spent by the others.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { audit, close, expectProblems, startHarness, TIMEOUT, type Harness, type Watched } from './harness'
import { ctxFor } from '../src/kernel/context'
import { createStore } from '../src/modules/platform-stores/service'
import { createProduct } from '../src/modules/products/service'
import { createKey } from '../src/modules/keys/service'
import { retryText, WORDS } from '../src/shop/i18n'

let h: Harness
let key: string
let storeId: string
const products: Record<string, { id: string; slug: string }> = {}
const SHOP = '/s/review-roasters'
let ipN = 0
const newIp = () => `203.0.113.${++ipN}`

beforeAll(async () => {
  h = await startHarness({}, { proxy: true })
  const deps = h.server.running.deps
  const store = createStore({
    ctx: { db: deps.db, clock: deps.clock },
    input: {
      name: 'Review Roasters',
      slug: 'review-roasters',
      plan: 'pro',
      whatsapp: '+14155550123',
      description: 'Small-batch coffee.',
    },
  })
  storeId = store.id
  const ctx = ctxFor(deps, store)
  for (const name of ['Morning Blend', 'Evening Blend', 'Decaf', 'Espresso']) {
    const p = createProduct({ ctx, input: { name, price: 14, description: `${name}, roasted weekly.` } })
    products[name] = { id: p.id, slug: p.slug }
  }
  key = createKey({ ctx: { db: deps.db, clock: deps.clock }, input: { storeId: store.id, scopes: ['all'] } }).key
  deps.cache.clear()
})

afterAll(async () => {
  await h?.stop()
})

interface ApiReview {
  id: string
  customerName: string
  comment: string | null
  rating: number
  status: string
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; data: unknown }> {
  const res = await h.fetch(path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const json = (await res.json()) as { data: unknown }
  return { status: res.status, data: json.data }
}

async function reviewsOf(product: string): Promise<ApiReview[]> {
  return (await api('GET', `/api/v1/reviews?productId=${products[product]!.id}&limit=100`)).data as ApiReview[]
}

const moderate = async (id: string, status: 'approved' | 'rejected') =>
  expect((await api('PUT', `/api/v1/reviews/${id}`, { status })).status).toBe(200)

/** Opens a page and audits it once it has loaded. */
async function visit(w: Watched, path: string): Promise<void> {
  await w.page.goto(h.origin + path)
  await audit(w)
}

/** Fills and sends the form as a person does; without JavaScript the post ends on a new page, audited. */
async function writeReview(w: Watched, r: { name: string; stars: string; text: string }): Promise<void> {
  const { page } = w
  const form = page.getByRole('region', { name: 'Write a review' })
  await form.getByLabel('Your name').fill(r.name)
  await form.getByRole('group', { name: 'Rating' }).getByRole('radio', { name: r.stars, exact: true }).check()
  await form.getByLabel('Review', { exact: true }).fill(r.text)
  if (w.javaScriptEnabled) {
    // The live count follows the typing.
    await form.getByText(`${r.text.length.toLocaleString('en')} of 2,000 characters`, { exact: true }).waitFor()
    await form.getByRole('button', { name: 'Send review' }).click()
    return
  }
  // The post answers 303 and the browser loads the product page again (the URL may not change).
  await Promise.all([page.waitForEvent('load'), form.getByRole('button', { name: 'Send review' }).click()])
  expect(page.url()).toContain('review=')
  await audit(w)
}

/** A comment with no place to break a line: it must wrap, not make the phone's page scroll sideways. */
const LONG_WORD = `${'wo'.repeat(150)}w`

const THANKS = 'Thanks — your review will appear once the shop approves it.'

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? 'JavaScript on' : 'JavaScript off'
  describe(`reviews with ${mode}`, () => {
    test(
      'write a review: pending over the API and not shown; approved over the API: shown with its text, ' +
        'name and rating, markup as text',
      async () => {
        const w = await open(javaScriptEnabled)
        const { page } = w
        const product = javaScriptEnabled ? 'Morning Blend' : 'Evening Blend'
        const name = `<b>Ada</b> (${mode})`
        const text = `<img src=x onerror=alert(1)> Smooth, with a hint of cocoa. ${mode}.`
        await visit(w, SHOP)
        await page.getByRole('link', { name: product }).click()
        await page.getByRole('heading', { level: 1, name: product }).waitFor()
        await audit(w)
        await page.getByText('No reviews yet').first().waitFor()

        await writeReview(w, { name, stars: '4 stars', text })
        await page.getByRole('status').filter({ hasText: THANKS }).waitFor()

        const [pending] = await reviewsOf(product)
        expect(pending).toMatchObject({ customerName: name, comment: text, rating: 4, status: 'pending' })
        await visit(w, `${SHOP}/p/${products[product]!.slug}`)
        expect(await page.getByRole('region', { name: 'Reviews' }).getByRole('listitem').count()).toBe(0)

        await moderate(pending!.id, 'approved')
        await visit(w, `${SHOP}/p/${products[product]!.slug}`)
        const shown = page.getByRole('region', { name: 'Reviews' }).getByRole('listitem')
        expect(await shown.count()).toBe(1)
        await shown.getByText(name, { exact: true }).waitFor()
        await shown.getByText(text, { exact: true }).waitFor()
        await shown.getByRole('img', { name: '4 out of 5' }).waitFor()
        await shown
          .getByText(new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date()))
          .waitFor()
        await page.getByText('Rated 4 out of 5 · 1 review').waitFor()
        // The markup is text: no element was made of it (the page has no picture of its own).
        expect(await page.locator('main img, main b').count()).toBe(0)
        await close(w)
      },
      TIMEOUT,
    )

    test(
      'pending and rejected reviews never show; the form tells what is missing next to the field',
      async () => {
        const w = await open(javaScriptEnabled)
        const { page } = w
        const product = javaScriptEnabled ? 'Decaf' : 'Espresso'
        const path = `${SHOP}/p/${products[product]!.slug}`
        // Written from other addresses, straight to the public API.
        for (const [customerName, ip] of [
          ['Rejected Rita', newIp()],
          ['Pending Paul', newIp()],
          ['Approved Amy', newIp()],
        ] as const) {
          const res = await h.fetch('/api/reviews', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
            body: JSON.stringify({
              storeId,
              productId: products[product]!.id,
              customerName,
              rating: 2,
              comment: `${customerName} says ${LONG_WORD}`,
            }),
          })
          expect(res.status).toBe(201)
        }
        const all = await reviewsOf(product)
        await moderate(all.find((r) => r.customerName === 'Rejected Rita')!.id, 'rejected')
        await moderate(all.find((r) => r.customerName === 'Approved Amy')!.id, 'approved')
        await visit(w, path)
        const list = page.getByRole('region', { name: 'Reviews' })
        await list.getByText('Approved Amy', { exact: true }).waitFor()
        expect(await list.getByRole('listitem').count()).toBe(1)
        for (const hidden of ['Rejected Rita', 'Pending Paul']) expect(await page.getByText(hidden).count()).toBe(0)

        // Approved, then rejected after all: gone again.
        await moderate(all.find((r) => r.customerName === 'Approved Amy')!.id, 'rejected')
        await visit(w, path)
        expect(await page.getByText('Approved Amy').count()).toBe(0)

        // A name but no rating: the message is at the rating, in words.
        const form = page.getByRole('region', { name: 'Write a review' })
        await form.getByLabel('Your name').fill('Grace')
        if (javaScriptEnabled) {
          await form.getByRole('button', { name: 'Send review' }).click()
        } else {
          // The browser's own check stops a post without a rating;
          // a browser that lets it through gets the page's answer.
          await page.evaluate(() => {
            ;(
              globalThis as unknown as { document: { querySelector(s: string): { noValidate: boolean } } }
            ).document.querySelector('form[data-review]').noValidate = true
          })
          await Promise.all([page.waitForEvent('load'), form.getByRole('button', { name: 'Send review' }).click()])
          expect(page.url()).toContain('review=invalid&field=rating&reason=required')
          await audit(w)
        }
        const rating = page.getByRole('group', { name: 'Rating' })
        await rating.getByText('Choose a rating from 1 to 5 stars.').waitFor()
        expect(await rating.getAttribute('aria-describedby')).toBe('rv-rating-err')
        expect(
          await page
            .getByRole('radio', { name: '1 star', exact: true })
            .evaluate((el) => el.ownerDocument.activeElement === el),
        ).toBe(true)
        await close(w)
      },
      TIMEOUT,
    )

    test(
      'the fourth review of the day from one IP is told, in words, when another can be written',
      async () => {
        const w = await open(javaScriptEnabled)
        const { page } = w
        const product = javaScriptEnabled ? 'Morning Blend' : 'Evening Blend'
        await visit(w, `${SHOP}/p/${products[product]!.slug}`)
        for (let i = 1; i <= 3; i++) {
          await writeReview(w, { name: `Limit ${mode} ${i}`, stars: '5 stars', text: `Review ${i}` })
          await page.getByRole('status').filter({ hasText: THANKS }).waitFor()
        }
        const before = Date.now()
        await writeReview(w, { name: `Limit ${mode} 4`, stars: '5 stars', text: 'Review 4' })
        const alert = page.getByRole('alert').filter({ hasText: 'You can write another review in about' })
        await alert.waitFor()
        // The window is a day from midnight UTC; the words round what is left of it.
        const left = (at: number) => Math.ceil((86_400_000 - (at % 86_400_000)) / 1000)
        const said = (await alert.textContent())!.trim()
        expect([retryText(WORDS.en.review, left(before)), retryText(WORDS.en.review, left(Date.now()))]).toContain(said)
        const mine = (await reviewsOf(product))
          .filter((r) => r.customerName.startsWith(`Limit ${mode}`))
          .map((r) => r.customerName)
        expect(mine.sort()).toEqual([1, 2, 3].map((i) => `Limit ${mode} ${i}`))
        // The script's 429 is logged by Chromium as a failed resource: the test's own doing.
        if (javaScriptEnabled) expectProblems(w, /status of 429/, 1)
        await close(w)
      },
      TIMEOUT,
    )

    test(
      "Share links: the product's name, price and absolute URL; the catalog's URL",
      async () => {
        const w = await open(javaScriptEnabled)
        const { page } = w
        const product = javaScriptEnabled ? 'Decaf' : 'Espresso'
        await visit(w, `${SHOP}/p/${products[product]!.slug}`)
        const share = page.getByRole('link', { name: 'Share on WhatsApp' })
        const href = (await share.getAttribute('href'))!
        expect(href).toStartWith('https://wa.me/?text=')
        expect(decodeURIComponent(href.slice('https://wa.me/?text='.length))).toBe(
          `${product}\n$14.00\n${h.origin}${SHOP}/p/${products[product]!.slug}`,
        )
        await visit(w, SHOP)
        const storeShare = (await page.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href'))!
        expect(decodeURIComponent(storeShare.slice('https://wa.me/?text='.length))).toBe(
          `Review Roasters\n${h.origin}${SHOP}`,
        )
        await close(w)
      },
      TIMEOUT,
    )
  })
}

/** A phone-sized page with its own client IP; every page it loads must be audited. */
const open = (javaScriptEnabled: boolean) => h.open({ javaScriptEnabled, phone: true, ip: newIp(), audited: true })
