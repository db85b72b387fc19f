/**
 * CORS proven in a real browser (Debian's Chromium driven by playwright-core): a page served
 * from another origin places an order on the API with fetch (JSON body and an Idempotency-Key, so
 * the browser sends a preflight first), reads the 201 and the exposed rate-limit header; the
 * same page cannot read a key-authenticated route. Skipped with a message when Chromium is absent.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import { makeShop } from '../helpers/factories'
import { addProduct, uniqPhone } from '../helpers/factories'
import { startTestServer, type TestServer } from '../helpers/server'

const CHROMIUM = '/usr/bin/chromium'
const haveBrowser = existsSync(CHROMIUM)

let api: TestServer
let page: ReturnType<typeof Bun.serve> | undefined
let browser: Browser | undefined

beforeAll(async () => {
  if (!haveBrowser) return
  api = await startTestServer()
  // The storefront: another origin (plain http, another port), one empty page.
  page = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () =>
      new Response('<!doctype html><title>Shop</title><h1>Shop</h1>', { headers: { 'content-type': 'text/html' } }),
  })
  const { chromium } = await import('playwright-core')
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
})

afterAll(async () => {
  await browser?.close()
  page?.stop(true)
  await api?.stop()
})

test.skipIf(!haveBrowser)(
  'a page on another origin posts an order from the browser; keyed routes stay closed to it',
  async () => {
    const { store, key } = makeShop(api.running.deps)
    const product = addProduct(api.running.deps, store.id, { price: 1250 })
    // The API's certificate is self-signed for this test run: this context trusts it.
    const context = await browser!.newContext({ ignoreHTTPSErrors: true })
    try {
      const tab = await context.newPage()
      await tab.goto(page!.url.href)
      const order = {
        storeId: store.id,
        name: 'Ana Pérez',
        phone: uniqPhone(),
        address: 'Calle 1',
        items: [{ productId: product.id, quantity: 2 }],
      }
      const out = await tab.evaluate(
        async ({ url, order }) => {
          const res = await fetch(`${url}/api/orders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
            body: JSON.stringify(order),
          })
          return {
            status: res.status,
            body: (await res.json()) as { orderNumber: string },
            remaining: res.headers.get('x-ratelimit-remaining'),
            requestId: res.headers.get('x-request-id'),
          }
        },
        { url: api.running.url, order },
      )
      expect(out.status).toBe(201)
      expect(out.body.orderNumber).toMatch(/^ORD-/)
      expect(out.remaining).not.toBeNull()
      expect(out.requestId).not.toBeNull()
      // A JSON body and a custom header are not "simple": the browser sent a preflight first and
      // only then the POST (before CORS, that preflight was a 404 and fetch threw a TypeError).

      const keyed = await tab.evaluate(
        async ({ url, key }) => {
          try {
            const res = await fetch(`${url}/api/v1/orders`, { headers: { authorization: `Bearer ${key}` } })
            return `read ${res.status}`
          } catch (e) {
            return `blocked: ${(e as Error).name}`
          }
        },
        { url: api.running.url, key },
      )
      expect(keyed).toBe('blocked: TypeError')
    } finally {
      await context.close()
    }
  },
  30_000,
)

if (!haveBrowser)
  test('CORS in a browser (needs /usr/bin/chromium)', () => console.warn('skipped: no Chromium at /usr/bin/chromium'))
