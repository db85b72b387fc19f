/**
 * The panel's browser-test harness: a real server (TLS, random port) reached as
 * https://localhost:PORT (WebAuthn refuses IP origins; Chromium maps localhost to 127.0.0.1), a
 * second https listener on another port for the cross-origin page, and Chromium via
 * playwright-core. Every page a test opens is watched: a request to another origin, a console
 * error, an uncaught exception or a dialog fails the test, and `check(page)` runs axe-core
 * (serious and critical violations fail) and looks for sideways scrolling at 390 × 844.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { expect } from 'bun:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startTestServer, type TestServer } from '../tests/helpers/server'
import type { Config } from '../src/config'
import { launchChromium } from './harness'
import { createKey } from '../src/modules/keys'
import { createOwner, hashPassword } from '../src/modules/people'
import { createStore } from '../src/modules/platform-stores/service'

export { CHROMIUM } from './harness'
const AXE = readFileSync(
  path.join(path.dirname(createRequire(import.meta.url).resolve('axe-core')), 'axe.min.js'),
  'utf8',
)
export const PHONE = { width: 390, height: 844 }
export const DESKTOP = { width: 1280, height: 900 }

export interface Harness {
  server: TestServer
  origin: string
  browser: Browser
  /** Another https origin on this host (same site, another port) serving `page` at `/`. */
  otherOrigin(page: string): Promise<{ origin: string; stop(): void }>
  close(): Promise<void>
}

export async function startHarness(overrides: Partial<Config> = {}): Promise<Harness> {
  const server = await startTestServer(overrides)
  const origin = `https://localhost:${server.running.port}`
  // WebAuthn refuses IP-address origins: the panel is https://localhost, mapped to loopback.
  // Every panel page registers the panel's service worker, which Chromium refuses (with a
  // console error) over a certificate it does not trust, whatever the context's
  // ignoreHTTPSErrors says: the test server's is self-signed, so Chromium is told to accept it,
  // as a phone trusts a real one.
  const { browser, stop: stopBrowser } = await launchChromium([
    '--host-resolver-rules=MAP localhost 127.0.0.1',
    '--ignore-certificate-errors',
  ])
  const others: { stop(): void }[] = []
  return {
    server,
    origin,
    browser,
    async otherOrigin(page: string) {
      const tls = {
        cert: readFileSync(path.join(server.config.dataDir, 'tls/cert.pem'), 'utf8'),
        key: readFileSync(path.join(server.config.dataDir, 'tls/key.pem'), 'utf8'),
      }
      const other = Bun.serve({
        port: 0,
        hostname: '127.0.0.1',
        tls,
        fetch: () => new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
      })
      const handle = { origin: `https://localhost:${other.port}`, stop: () => other.stop(true) }
      others.push(handle)
      return handle
    },
    async close() {
      for (const o of others) o.stop()
      await stopBrowser()
      await server.stop()
    },
  }
}

export interface Watched {
  page: Page
  context: BrowserContext
  outside: string[]
  problems: string[]
}

/**
 * A fresh context (its own cookies) and a page (phone-sized unless `viewport`
 * says otherwise) whose requests, console and dialogs are watched.
 */
export async function open(
  h: Harness,
  opts: { allowOrigins?: string[]; viewport?: { width: number; height: number } } = {},
): Promise<Watched> {
  const context = await h.browser.newContext({ ignoreHTTPSErrors: true, viewport: opts.viewport ?? PHONE })
  const page = await context.newPage()
  const outside: string[] = []
  const problems: string[] = []
  const allowed = [h.origin, ...(opts.allowOrigins ?? [])]
  page.on('request', (r) => {
    if (!allowed.some((o) => r.url() === o || r.url().startsWith(`${o}/`))) outside.push(r.url())
  })
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`)
  })
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`))
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`)
    void d.dismiss()
  })
  return { page, context, outside, problems }
}

/** axe-core (serious/critical) and no sideways scrolling at the page's own size, on the page as it stands. */
export async function check(page: Page): Promise<void> {
  await page.waitForLoadState('load')
  // A <script> tag would be blocked by the page's CSP; playwright's evaluate runs outside it.
  await page.evaluate(AXE)
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>
        }
      }
    ).axe
    const r = await axe.run({ resultTypes: ['violations'] })
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
  expect({ url: page.url(), violations }).toEqual({ url: page.url(), violations: [] })
  const sideways = await page.evaluate(() => {
    const g = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number }
    return g.document.documentElement.scrollWidth - g.innerWidth
  })
  expect({ url: page.url(), sideways: sideways > 0 }).toEqual({ url: page.url(), sideways: false })
}

/** The clipboard's text, after a "Copy" button (the context needs clipboard-read). */
/**
 * A link of the panel's navigation, header or More page: on a phone only Orders, Products and
 * Dashboard are tabs, so when the page shows no such link this opens the More page first.
 */
export async function navLink(page: Page, name: string | RegExp) {
  const exact = typeof name === 'string'
  if ((await page.getByRole('link', { name, exact }).count()) === 0) {
    await page.getByRole('link', { name: 'More pages', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'More' }).waitFor()
  }
  return page.getByRole('link', { name, exact }).first()
}

/**
 * Follows a navigation link to its page (through the phone's More page when it
 * is not a tab), waits for the page's heading, and checks the page (check).
 */
export async function goTo(page: Page, name: string): Promise<void> {
  await (await navLink(page, name)).click()
  await page.getByRole('heading', { level: 1, name }).waitFor()
  await check(page)
}

export const clipboardText = async (page: Page): Promise<string> =>
  (
    await page.evaluate(() =>
      (
        globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }
      ).navigator.clipboard.readText(),
    )
  ).trim()

/**
 * A platform authenticator in the page's browser (DevTools'
 * WebAuthn domain): it makes and uses passkeys with no prompt.
 */
export async function addPasskeyAuthenticator(w: Watched): Promise<void> {
  const cdp = await w.context.newCDPSession(w.page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
}

export async function close(w: Watched): Promise<void> {
  await w.context.close()
  expect(w.outside).toEqual([])
  expect(w.problems).toEqual([])
}

/** Signs in with e-mail and password on the sign-in page, and waits for the dashboard. */
export async function signInAs(h: Harness, page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${h.origin}/admin/login`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
}

/**
 * A pro store with an owner who signs in with `password`, and a key
 * that reads its products (to check what the panel wrote over the API).
 */
export async function ownerStore(
  h: Harness,
  input: { name: string; slug: string; email: string; password: string; whatsapp?: string },
) {
  const deps = h.server.running.deps
  const store = createStore({
    ctx: deps,
    input: { name: input.name, slug: input.slug, plan: 'pro', ...(input.whatsapp ? { whatsapp: input.whatsapp } : {}) },
  })
  createOwner({
    ctx: deps,
    input: { storeId: store.id, email: input.email, name: 'Owner', passwordHash: await hashPassword(input.password) },
  })
  return { store, readKey: createKey({ ctx: deps, input: { storeId: store.id, scopes: ['products:read'] } }).key }
}
