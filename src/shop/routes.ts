/**
 * The storefront pages: `/` (directory, or the only store), the
 * store's catalog `/s/:slug`, product pages, the cart, the store's sitemap, `/robots.txt` and the
 * hashed static assets. Pages read the same services the JSON API reads (storefrontOf,
 * listDirectory) and are cached per store in the same StoreCache, so a write to a store drops
 * its pages exactly as it drops its JSON lists.
 */
import { Elysia } from 'elysia'
import type { ShopDeps } from './deps'
import { clientIp, ipBucket } from '../lib/client-ip'
import { getStore, type Store } from '../modules/platform-stores'
import { listDirectory, storeBySlug as storeRowBySlug, storefrontOf } from '../modules/public-catalog'
import { approvedReviews } from '../modules/reviews'
import { ASSETS_BY_URL, IMMUTABLE } from './assets'
import { wordsFor } from './i18n'
import type { Html } from './html'
import { REVIEWS_PER_PAGE, type ReviewsPage } from './review-views'
import { PAGE_CACHE, rendered, respond, type Rendered } from './respond'
import { reviewPoster, type Outcome } from './review-post'
import { outcomeOf, reviewPageNumber } from './review-form'
import {
  cartPage,
  catalogPage,
  directoryPage,
  messagePage,
  productPage,
  sitemap,
  type PageCtx,
  type ViewCatalog,
} from './views'

/** What a store page needs of Elysia's context: the request, its headers, the socket (for the client address). */
interface PageRequest {
  request: Request
  set: { headers: Record<string, string | number> }
  server: Parameters<typeof clientIp>[1]
}

export type { ShopDeps }

export const shopRoutes = (deps: ShopDeps) => {
  const { db, config, cache } = deps
  // Keyed by the cached page Blob, so an entry leaves with it when a write drops the store's pages.
  const meta = new WeakMap<Blob, Rendered>()
  const slugIds = new Map<string, string>()
  /** The store behind a slug; the row comes from the StoreCache (dropped on every write to the store). */
  function storeBySlug(slug: string): Store | undefined {
    const id = slugIds.get(slug)
    if (id) {
      const s = cache.stores.get(id) ?? getStore({ ctx: { db }, input: { id } })
      if (s && s.slug === slug) {
        cache.stores.set(id, s)
        return s
      }
      slugIds.delete(slug)
    }
    const s = storeRowBySlug({ ctx: { db }, input: { slug } })
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

  const ctxOf = (request: Request, language: string): PageCtx => ({
    words: wordsFor(language),
    language,
    origin: originOf(request),
  })

  /** A page of a product's approved reviews; undefined past the last page (the first always exists). */
  function reviewsPage(storeId: string, productId: string, page: number): ReviewsPage | undefined {
    const r = approvedReviews({
      ctx: { db },
      input: { storeId, productId, ...{ limit: REVIEWS_PER_PAGE, offset: (page - 1) * REVIEWS_PER_PAGE } },
    })
    const pages = Math.max(1, Math.ceil(r.total / REVIEWS_PER_PAGE))
    return page > pages ? undefined : { ...r, page, pages }
  }

  /** The public checks (docs/api.md), as pages: unknown/unpublished/maintenance → 404, suspended → 503. */
  function open(request: Request, slug: string): Outcome {
    cache.syncExternal()
    const s = storeBySlug(slug)
    if (!s) return { page: rendered(404, messagePage('notFound', ctxOf(request, 'en')).value) }
    if (s.status === 'suspended')
      return { page: rendered(503, messagePage('unavailable', ctxOf(request, s.language), s).value) }
    if (!s.isPublished || s.isMaintenance)
      return { page: rendered(404, messagePage('notFound', ctxOf(request, s.language), s).value) }
    return { store: s }
  }

  /**
   * A store page from the cache, or rendered from the catalog and cached. `build` returns
   * undefined for a page that doesn't exist (an unknown product): a 404, not cached.
   */
  function storePage(
    req: PageRequest,
    slug: string,
    key: string,
    build: (cat: ViewCatalog, c: PageCtx, store: Store) => Html | string | undefined,
    opts: { visit?: boolean; type?: string; personal?: boolean } = {},
  ) {
    const { request, set } = req
    const o = open(request, slug)
    if ('page' in o) return respond(request, set, o.page, 'no-store')
    const { store } = o
    const visitor = ipBucket(clientIp(request, req.server, config.trustProxy))
    const busy = overLimit(visitor)
    if (busy)
      return respond(
        request,
        set,
        rendered(429, messagePage('busy', ctxOf(request, store.language), store).value),
        'no-store',
        { 'retry-after': String(busy) },
      )
    const origin = originOf(request)
    const cacheKey = `page:${origin}${key}`
    // A personal page (what one person's form post came to) is neither cached here nor kept by the browser.
    const blob = opts.personal ? undefined : (cache.getResponse(store.id, cacheKey) as Blob | undefined)
    let r = blob && meta.get(blob)
    if (!r) {
      const c = ctxOf(request, store.language)
      const out = build(storefrontOf({ ctx: { db, store } }), c, store)
      if (out === undefined)
        return respond(request, set, rendered(404, messagePage('notFound', c, store).value), 'no-store')
      r = rendered(200, typeof out === 'string' ? out : out.value, opts.type)
      if (!opts.personal) {
        meta.set(r.body, r)
        cache.setResponse(store.id, cacheKey, r.body)
      }
    }
    if (opts.visit) deps.visits.record(store.id, visitor)
    return respond(request, set, r, opts.personal ? 'no-store' : PAGE_CACHE)
  }

  const postReview = reviewPoster(deps, { storeBySlug, open, originOf, ctxOf })

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

  return (
    new Elysia({ name: 'shop' })
      .get(
        '/',
        ({ request, set }) => {
          const dir = listDirectory({ ctx: { db }, input: { limit: 100, offset: 0 } })
          if (dir.total === 1) {
            const headers = set.headers as Record<string, string>
            set.headers = {}
            return new Response(null, {
              status: 302,
              headers: {
                ...headers,
                location: `/s/${encodeURIComponent(dir.data[0]!.slug)}`,
                'cache-control': 'no-cache',
              },
            })
          }
          return respond(request, set, rendered(200, directoryPage(dir.data, ctxOf(request, 'en')).value), PAGE_CACHE)
        },
        hidden,
      )
      .get(
        '/robots.txt',
        ({ request, set }) => {
          const origin = originOf(request)
          const dir = listDirectory({ ctx: { db }, input: { limit: 1000, offset: 0 } })
          const lines = [
            'User-agent: *',
            'Disallow: /api/',
            'Disallow: /mcp',
            '',
            ...dir.data.map((d) => `Sitemap: ${origin}/s/${encodeURIComponent(d.slug)}/sitemap.xml`),
          ]
          return respond(
            request,
            set,
            rendered(200, `${lines.join('\n')}\n`, 'text/plain; charset=utf-8'),
            'public, max-age=3600',
          )
        },
        hidden,
      )
      .get(
        '/assets/:file',
        ({ request, set, path }) => {
          const a = ASSETS_BY_URL.get(path)
          if (!a) return respond(request, set, rendered(404, 'Not found\n', 'text/plain; charset=utf-8'), 'no-store')
          return respond(
            request,
            set,
            { status: 200, type: a.type, etag: a.etag, body: a.body, gzip: () => a.gzip },
            IMMUTABLE,
          )
        },
        hidden,
      )
      .get('/s/:slug', (c) => storePage(c, c.params.slug, '/', catalogPage, { visit: true }), hidden)
      .get(
        '/s/:slug/p/:product',
        (r) => {
          const { params, query } = r
          const page = reviewPageNumber(query.reviews)
          const outcome = outcomeOf(query, deps.clock.now())
          const key = `/p/${params.product}${page > 1 ? `?reviews=${page}` : ''}`
          return storePage(
            r,
            params.slug,
            key,
            (cat, c, store) => {
              const p = cat.products.find((x) => x.slug === params.product)
              const reviews = p && reviewsPage(store.id, p.id, outcome ? 1 : page)
              return p && reviews && productPage(cat, p, c, { reviews, outcome })
            },
            // The page after a form post is the product page again, for one person: not a visit.
            { visit: !outcome, personal: outcome !== undefined },
          )
        },
        hidden,
      )
      .post(
        '/s/:slug/p/:product/reviews',
        ({ request, set, params, server }) => postReview(request, set, server, params.slug, params.product),
        { ...hidden, parse: 'none' },
      )
      .get('/s/:slug/cart', (c) => storePage(c, c.params.slug, '/cart', cartPage), hidden)
      // Any other address under /s/ is a page a person followed: a page, not a JSON 404.
      .get(
        '/s/*',
        ({ request, set }) =>
          respond(request, set, rendered(404, messagePage('notFound', ctxOf(request, 'en')).value), 'no-store'),
        hidden,
      )
      .get(
        '/s/:slug/sitemap.xml',
        (r) =>
          storePage(r, r.params.slug, '/sitemap.xml', (cat, c) => sitemap(cat, c.origin), {
            type: 'application/xml; charset=utf-8',
          }),
        hidden,
      )
  )
}
