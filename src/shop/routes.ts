/**
 * The storefront pages (contract "The storefront"): `/` (directory, or the only store), the
 * store's catalog `/s/:slug`, product pages, the cart, the store's sitemap, `/robots.txt` and the
 * hashed static assets. Pages read the same services the JSON API reads (storefrontOf,
 * listDirectory) and are cached per store in the same StoreCache, so a write to a store drops
 * its pages exactly as it drops its JSON lists.
 */
import { Elysia } from 'elysia'
import { clientIp, ipBucket } from '../lib/client-ip'
import { eq, sql } from 'drizzle-orm'
import type { Config } from '../config'
import type { StoreCache } from '../db/cache'
import type { Db } from '../db/client'
import type { RateLimiter } from '../db/rate-limiter'
import type { VisitCounter } from '../modules/public-catalog/visits'
import { stores, type Store } from '../db/schema'
import { getStore } from '../modules/platform-stores/service'
import { listDirectory, storefrontOf } from '../modules/public-catalog/service'
import { ASSETS_BY_URL, IMMUTABLE } from './assets'
import { wordsFor } from './i18n'
import type { Html } from './html'
import { cartPage, catalogPage, directoryPage, messagePage, productPage, sitemap, type PageCtx, type ViewCatalog } from './views'

/**
 * Only this origin, no inline script (the JSON data blocks are not scripts), no framing. The
 * checkout posts to /api/orders on the same origin (connect-src 'self').
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** A rendered page as cached: the bytes, a gzip copy (made on first use) and the validator. */
interface Rendered {
  status: number
  type: string
  etag: string
  body: Blob
  gzip(): Blob
}

function rendered(status: number, text: string, type = 'text/html; charset=utf-8'): Rendered {
  const bytes = new TextEncoder().encode(text)
  const etag = `W/"${Bun.hash(bytes).toString(36)}"`
  let gz: Blob | undefined
  return { status, type, etag, body: new Blob([bytes]), gzip: () => (gz ??= new Blob([Bun.gzipSync(bytes)])) }
}

/** If-None-Match against our (weak) validator: weak comparison, as RFC 9110 says for GET. */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const bare = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare)
}

function respond(request: Request, set: { headers: Record<string, string | number> }, r: Rendered, cacheControl: string, extra: Record<string, string> = {}): Response {
  // Take the headers onRequest set (the request id) and hand Elysia a finished Response.
  const headers = set.headers as Record<string, string>
  set.headers = {}
  headers['content-type'] = r.type
  headers['cache-control'] = cacheControl
  headers['etag'] = r.etag
  headers['vary'] = 'accept-encoding'
  headers['x-content-type-options'] = 'nosniff'
  if (r.type.startsWith('text/html')) {
    headers['content-security-policy'] = PAGE_CSP
    headers['referrer-policy'] = 'strict-origin-when-cross-origin'
  }
  Object.assign(headers, extra)
  if (r.status === 200 && matches(request.headers.get('if-none-match'), r.etag)) return new Response(null, { status: 304, headers })
  const gzip = (request.headers.get('accept-encoding') ?? '').includes('gzip')
  if (gzip) headers['content-encoding'] = 'gzip'
  return new Response(gzip ? r.gzip() : r.body, { status: r.status, headers })
}

const PAGE_CACHE = 'no-cache'

/** What a store page needs of Elysia's context: the request, its headers, the socket (for the client address). */
interface PageRequest {
  request: Request
  set: { headers: Record<string, string | number> }
  server: Parameters<typeof clientIp>[1]
}

/** What the storefront pages use. */
export interface ShopDeps {
  db: Db
  config: Config
  cache: StoreCache
  limiter: Pick<RateLimiter, 'hit'>
  visits: Pick<VisitCounter, 'record'>
}

export const shopRoutes = (deps: ShopDeps) => {
  const { db, config, cache } = deps
  // Keyed by the cached page Blob, so an entry leaves with it when a write drops the store's pages.
  const meta = new WeakMap<Blob, Rendered>()
  const slugIds = new Map<string, string>()
  const bySlug = db.select().from(stores).where(eq(stores.slug, sql.placeholder('slug'))).prepare()

  /** The store behind a slug; the row comes from the StoreCache (dropped on every write to the store). */
  function storeBySlug(slug: string): Store | undefined {
    const id = slugIds.get(slug)
    if (id) {
      const s = cache.stores.get(id) ?? getStore(db, id)
      if (s && s.slug === slug) {
        cache.stores.set(id, s)
        return s
      }
      slugIds.delete(slug)
    }
    const s = bySlug.get({ slug })
    if (s) {
      slugIds.set(slug, s.id)
      cache.stores.set(s.id, s)
    }
    return s
  }

  function originOf(request: Request): string {
    // Behind a proxy PUBLIC_URL is required (config.ts): a client's X-Forwarded-Host never
    // decides canonical links, the sitemap line or redirects.
    if (config.publicUrl) return config.publicUrl
    const url = request.url
    return url.slice(0, url.indexOf('/', url.indexOf('//') + 2))
  }

  const ctxOf = (request: Request, language: string): PageCtx => ({ words: wordsFor(language), language, origin: originOf(request) })

  type Outcome = { store: Store } | { page: Rendered }

  /** The contract's public checks, as pages: unknown/unpublished/maintenance → 404, suspended → 503. */
  function open(request: Request, slug: string): Outcome {
    cache.syncExternal()
    const s = storeBySlug(slug)
    if (!s) return { page: rendered(404, messagePage('notFound', ctxOf(request, 'en')).value) }
    if (s.status === 'suspended') return { page: rendered(503, messagePage('unavailable', ctxOf(request, s.language), s).value) }
    if (!s.isPublished || s.isMaintenance) return { page: rendered(404, messagePage('notFound', ctxOf(request, s.language), s).value) }
    return { store: s }
  }

  /**
   * A store page from the cache, or rendered from the catalog and cached. `build` returns
   * undefined for a page that doesn't exist (an unknown product): a 404, not cached.
   */
  function storePage(req: PageRequest, slug: string, key: string, build: (cat: ViewCatalog, c: PageCtx) => Html | string | undefined, opts: { visit?: boolean; type?: string } = {}) {
    const { request, set } = req
    const o = open(request, slug)
    if ('page' in o) return respond(request, set, o.page, 'no-store')
    const { store } = o
    const visitor = ipBucket(clientIp(request, req.server, config.trustProxy))
    const busy = overLimit(visitor)
    if (busy) return respond(request, set, rendered(429, messagePage('busy', ctxOf(request, store.language), store).value), 'no-store', { 'retry-after': String(busy) })
    const origin = originOf(request)
    const cacheKey = `page:${origin}${key}`
    const blob = cache.getResponse(store.id, cacheKey) as Blob | undefined
    let r = blob && meta.get(blob)
    if (!r) {
      const c = ctxOf(request, store.language)
      const out = build(storefrontOf(db, store), c)
      if (out === undefined) return respond(request, set, rendered(404, messagePage('notFound', c, store).value), 'no-store')
      r = rendered(200, typeof out === 'string' ? out : out.value, opts.type)
      meta.set(r.body, r)
      cache.setResponse(store.id, cacheKey, r.body)
    }
    if (opts.visit) deps.visits.record(store.id, visitor)
    return respond(request, set, r, PAGE_CACHE)
  }

  /**
   * Seconds to wait when the visitor is past SHOP_PAGES_PER_IP_PER_MIN, else 0. In-process
   * requests have no address ('unknown') and are not limited.
   */
  function overLimit(visitor: string): number {
    if (visitor === 'unknown') return 0
    const w = deps.limiter.hit(`ip:shop:${visitor}`, config.shopPagesPerIpPerMin, 60)
    return w.allowed ? 0 : w.resetSec
  }

  const hidden = { detail: { hide: true } }

  return new Elysia({ name: 'shop' })
    .get(
      '/',
      ({ request, set }) => {
        const dir = listDirectory(db, { limit: 100, offset: 0 })
        if (dir.total === 1) {
          const headers = set.headers as Record<string, string>
          set.headers = {}
          return new Response(null, { status: 302, headers: { ...headers, location: `/s/${encodeURIComponent(dir.data[0]!.slug)}`, 'cache-control': 'no-cache' } })
        }
        return respond(request, set, rendered(200, directoryPage(dir.data, ctxOf(request, 'en')).value), PAGE_CACHE)
      },
      hidden,
    )
    .get(
      '/robots.txt',
      ({ request, set }) => {
        const origin = originOf(request)
        const dir = listDirectory(db, { limit: 1000, offset: 0 })
        const lines = ['User-agent: *', 'Disallow: /api/', 'Disallow: /mcp', '', ...dir.data.map((d) => `Sitemap: ${origin}/s/${encodeURIComponent(d.slug)}/sitemap.xml`)]
        return respond(request, set, rendered(200, lines.join('\n') + '\n', 'text/plain; charset=utf-8'), 'public, max-age=3600')
      },
      hidden,
    )
    .get(
      '/assets/:file',
      ({ request, set, path }) => {
        const a = ASSETS_BY_URL.get(path)
        if (!a) return respond(request, set, rendered(404, 'Not found\n', 'text/plain; charset=utf-8'), 'no-store')
        return respond(request, set, { status: 200, type: a.type, etag: a.etag, body: a.body, gzip: () => a.gzip }, IMMUTABLE)
      },
      hidden,
    )
    .get('/s/:slug', (c) => storePage(c, c.params.slug, '/', catalogPage, { visit: true }), hidden)
    .get(
      '/s/:slug/p/:product',
      (r) =>
        storePage(r, r.params.slug, `/p/${r.params.product}`, (cat, c) => {
          const p = cat.products.find((x) => x.slug === r.params.product)
          return p && productPage(cat, p, c)
        }, { visit: true }),
      hidden,
    )
    .get('/s/:slug/cart', (c) => storePage(c, c.params.slug, '/cart', cartPage), hidden)
    // Any other address under /s/ is a page a person followed: a page, not a JSON 404.
    .get('/s/*', ({ request, set }) => respond(request, set, rendered(404, messagePage('notFound', ctxOf(request, 'en')).value), 'no-store'), hidden)
    .get(
      '/s/:slug/sitemap.xml',
      (r) => storePage(r, r.params.slug, '/sitemap.xml', (cat, c) => sitemap(cat, c.origin), { type: 'application/xml; charset=utf-8' }),
      hidden,
    )
}
