/**
 * /docs in a real browser with no network beyond the service: every request to another origin
 * is refused (and recorded), and the reference still renders its operations, with the bearer
 * scheme selected. Needs Debian's Chromium at /usr/bin/chromium (`bun run test:e2e`).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { chromium, type Browser } from 'playwright-core'
import { makeApp, type TestApp } from '../tests/helpers/app'

const SHOT = process.env.DOCS_SCREENSHOT ?? '/tmp/docs-offline.png'

let t: TestApp
let server: ReturnType<typeof Bun.serve>
let browser: Browser
beforeAll(async () => {
  t = makeApp()
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => t.app.handle(req) })
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
})
afterAll(async () => {
  await browser?.close()
  server?.stop(true)
  t?.close()
})

for (const path of ['/docs', '/docs/']) {
  test(`${path} lists the operations offline, loading nothing from another origin`, async () => {
    const origin = server.url.origin
    const context = await browser.newContext()
    const page = await context.newPage()
    const elsewhere: string[] = []
    const cspViolations: string[] = []
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text())
    })
    await page.route('**/*', (route) => {
      const url = route.request().url()
      if (new URL(url).origin === origin || url.startsWith('data:') || url.startsWith('blob:')) return route.continue()
      elsewhere.push(url)
      return route.abort('internetdisconnected')
    })
    await page.goto(origin + path)
    // Operations and tags as a reader finds them: the sidebar's links, by name.
    const sidebar = page.getByRole('complementary')
    await sidebar.getByRole('link', { name: /List products, newest first/ }).waitFor({ timeout: 15_000 })
    for (const op of [/Create a product/, /Get a product/, /Delete a category/])
      expect(await sidebar.getByRole('link', { name: op }).count()).toBe(1)
    for (const tag of ['Orders', 'Store', 'Webhooks', 'Public'])
      expect(await sidebar.getByRole('link', { name: tag, exact: true }).count()).toBe(1)
    await sidebar.getByRole('button', { name: /Open Group - Public/ }).click()
    await sidebar.getByRole('link', { name: /Place an order/ }).waitFor({ timeout: 5_000 })
    // Bearer auth is pre-selected.
    await page
      .getByText(/Selected Auth Type: bearerAuth/)
      .first()
      .waitFor({ timeout: 5_000 })
    const text = await page.locator('body').textContent()
    expect(text).toContain('Storefront API')
    expect(text).not.toContain('No authentication selected')
    if (path === '/docs') await page.screenshot({ path: SHOT, fullPage: false })
    expect(elsewhere).toEqual([])
    expect(cspViolations).toEqual([])
    await context.close()
  }, 60_000)
}
