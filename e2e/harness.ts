/**
 * The browser tests' harness: a real server on a free port, Debian's Chromium driven by
 * playwright-core, and watched pages. Every page a test opens is watched: a request to another
 * origin, a console error, an uncaught exception or a dialog (alert) fails the test at `close`.
 *
 * `audit(w)` checks the page on screen: no axe-core violation of serious or critical impact, and
 * no sideways scrolling (at a phone's 390 × 844 when the page was opened with `phone`). With
 * `audited: true`, `close` also fails when a page was loaded and never audited, so a test can't
 * forget one after a click or a form post.
 *
 * `proxy: true` runs the server as it runs behind a TLS-terminating proxy (TRUST_PROXY=1 with
 * PUBLIC_URL): each browser context then has its own client IP (`open({ ip })`, sent as
 * X-Forwarded-For), so per-IP limits can be tested without the tests sharing one budget.
 */
import { expect } from 'bun:test'
import { readFileSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type BrowserServer, type Page } from 'playwright-core'
import type { Config } from '../src/config'
import { freePort, startTestServer, type TestServer } from '../tests/helpers/server'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const TIMEOUT = 60_000
export const PHONE = { width: 390, height: 844 }

const AXE_SOURCE = readFileSync(Bun.resolveSync('axe-core/axe.min.js', import.meta.dir), 'utf8')

export interface Watched {
  page: Page
  context: BrowserContext
  javaScriptEnabled: boolean
  viewport: { width: number; height: number } | null
  /** Requests that left the service's origin. */
  outside: string[]
  /** Console errors, page errors, dialogs, audit findings. */
  problems: string[]
  /** Pages loaded (URL without fragment), and those audited. */
  loaded: Set<string>
  audited: Set<string>
  checkAudited: boolean
}

export interface OpenOptions {
  javaScriptEnabled?: boolean
  /** Other origins this page may reach (a test's own second site). */
  allowOrigins?: string[]
  /** 390 × 844, a phone held upright. */
  phone?: boolean
  /** The client IP the proxy reports (proxy mode only). */
  ip?: string
  /** `close` fails for a loaded page that was never audited. */
  audited?: boolean
}

export interface Harness {
  server: TestServer
  origin: string
  browser: Browser
  /** Headers every request to the server needs (proxy mode: X-Forwarded-Proto). */
  headers: Record<string, string>
  open(opts?: OpenOptions): Promise<Watched>
  /** fetch on the server with the harness's headers. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
}

const bare = (url: string) => url.split('#')[0]!

/**
 * Debian's Chromium, launched as a server so the harness knows its pid: `stop` closes it and
 * kills exactly that pid if close() left it running. `extraArgs` e.g. map localhost for passkeys.
 */
export async function launchChromium(extraArgs: string[] = []): Promise<{ browser: Browser; stop(): Promise<void> }> {
  const chromiumServer: BrowserServer = await chromium.launchServer({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
  })
  const browser = await chromium.connect(chromiumServer.wsEndpoint())
  return {
    browser,
    async stop() {
      await browser.close().catch(() => {})
      const pid = chromiumServer.process().pid
      await chromiumServer.close()
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL') // only if close() left it running
        } catch {
          /* already gone */
        }
      }
    },
  }
}

export async function startHarness(overrides: Partial<Config> = {}, opts: { proxy?: boolean } = {}): Promise<Harness> {
  let config = overrides
  if (opts.proxy) {
    const port = await freePort()
    config = { trustProxy: true, port, publicUrl: `http://127.0.0.1:${port}`, ...overrides }
  }
  const server = await startTestServer(config)
  const origin = server.running.url
  const headers: Record<string, string> = opts.proxy ? { 'x-forwarded-proto': 'https' } : {}
  const { browser, stop: stopBrowser } = await launchChromium()

  async function open(o: OpenOptions = {}): Promise<Watched> {
    const viewport = o.phone ? PHONE : null
    const extra = { ...headers, ...(o.ip ? { 'x-forwarded-for': o.ip } : {}) }
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      javaScriptEnabled: o.javaScriptEnabled ?? true,
      ...(viewport ? { viewport } : {}),
      ...(Object.keys(extra).length ? { extraHTTPHeaders: extra } : {}),
    })
    const page = await context.newPage()
    const w: Watched = {
      page,
      context,
      javaScriptEnabled: o.javaScriptEnabled ?? true,
      viewport,
      outside: [],
      problems: [],
      loaded: new Set(),
      audited: new Set(),
      checkAudited: o.audited ?? false,
    }
    const allowed = [origin, ...(o.allowOrigins ?? [])]
    page.on('request', (r) => {
      if (!allowed.some((a) => r.url().startsWith(`${a}/`))) w.outside.push(r.url())
    })
    page.on('console', (m) => {
      if (m.type() === 'error') w.problems.push(`console: ${m.text()}`)
    })
    page.on('pageerror', (e) => w.problems.push(`pageerror: ${e.message}`))
    page.on('dialog', (d) => {
      w.problems.push(`dialog: ${d.message()}`)
      void d.dismiss()
    })
    page.on('load', () => w.loaded.add(bare(page.url())))
    return w
  }

  return {
    server,
    origin,
    browser,
    headers,
    open,
    fetch: (path, init = {}) =>
      server.fetch(path, { ...init, headers: { ...headers, ...(init.headers as Record<string, string> | undefined) } }),
    async stop() {
      await stopBrowser()
      await server.stop()
    },
  }
}

/**
 * axe-core on the page as it is now. Injected through the DevTools protocol, which the page's CSP
 * does not govern. A page without JavaScript can't run axe (its promises never settle), so its
 * DOM is audited in a twin page with scripts allowed: same URL, same stylesheet, same markup,
 * its script elements removed.
 */
async function axeViolations(w: Watched): Promise<string[]> {
  let page = w.page
  let twin: BrowserContext | undefined
  if (!w.javaScriptEnabled) {
    const url = page.url()
    const markup = (await page.content()).replace(/<script\b[^>]*\bsrc="[^"]*"[^>]*><\/script>/g, '')
    twin = await page
      .context()
      .browser()!
      .newContext({ ignoreHTTPSErrors: true, ...(w.viewport ? { viewport: w.viewport } : {}) })
    page = await twin.newPage()
    await page.route(
      (u) => bare(u.href) === bare(url),
      (r) => r.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: markup }),
    )
    await page.goto(url)
  }
  try {
    await page.evaluate(AXE_SOURCE)
    return await page.evaluate(async () => {
      type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }
      const g = globalThis as unknown as { document: unknown; axe: { run(ctx: unknown, o: object): Promise<Result> } }
      const r = await g.axe.run(g.document, { resultTypes: ['violations'] })
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    })
  } finally {
    await twin?.close()
  }
}

/** axe-core (serious and critical) and sideways scrolling on the page now shown; findings go to `w.problems`. */
export async function audit(w: Watched): Promise<void> {
  const url = w.page.url()
  const [scrollWidth, clientWidth] = await w.page.evaluate(() => {
    const root = (
      globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
    ).document.documentElement
    return [root.scrollWidth, root.clientWidth]
  })
  if (scrollWidth! > clientWidth!)
    w.problems.push(`sideways scroll on ${url}: ${scrollWidth}px of content in ${clientWidth}px`)
  for (const v of await axeViolations(w)) w.problems.push(`axe on ${url}: ${v}`)
  w.audited.add(bare(url))
}

/**
 * Removes the console errors a test caused on purpose (Chromium logs every 4xx answer to a
 * fetch as one), failing unless there are exactly `n` of them; anything else logged stays.
 */
export function expectProblems(w: Watched, pattern: RegExp, n: number): void {
  const expected = w.problems.filter((p) => pattern.test(p))
  expect(expected).toHaveLength(n)
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !expected.includes(p)))
}

export async function close(w: Watched): Promise<void> {
  await w.context.close()
  expect(w.outside).toEqual([])
  expect(w.problems).toEqual([])
  if (w.checkAudited) expect([...w.loaded].filter((u) => !w.audited.has(u))).toEqual([])
}
