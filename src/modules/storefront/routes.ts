import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { data, list, publicErrors, ErrorBody } from '../shared/model'
import { sendJson } from '../shared/query'
import { CheckSlugQuery, CheckSlugResult, DirectoryEntry, DirectoryQuery, Storefront, StorefrontParams } from './model'
import { checkSlug, listDirectory, publicStoreBySlug, storefrontOf } from './service'

const CACHE_KEY = 'storefront'

/** Public reads: no key; the gate applies the per-IP `storeReads` / `checkSlug` buckets first. */
export const storefrontRoutes = (deps: Deps) => {
  return new Elysia({ name: 'storefront-public' })
    .get('/api/v1/stores', ({ query }) => listDirectory(deps.db, query), {
      query: DirectoryQuery,
      response: { 200: list(DirectoryEntry), 400: ErrorBody, 429: ErrorBody, 500: ErrorBody },
      detail: {
        tags: ['Public'],
        summary: 'Directory of published stores',
        description: `No key. Published stores that are neither in maintenance nor suspended, by name. \`q\` matches the name or slug, ignoring case. Limited per client IP (${deps.config.rateLimitStoreReads}/min).`,
      },
    })
    .get(
      '/api/v1/stores/:slug',
      ({ params, set }) => {
        // The store row is read every time (status and publication are checked fresh); the
        // catalog body is cached per store until a write to that store drops it.
        const store = publicStoreBySlug(deps, params.slug)
        let body = deps.cache.getResponse(store.id, CACHE_KEY)
        if (!body) {
          body = new Blob([JSON.stringify({ data: storefrontOf(deps.db, store, deps.config.publicUrl) })])
          deps.cache.setResponse(store.id, CACHE_KEY, body)
        }
        // Counted in memory and written behind: a read never writes (storefront/visits.ts).
        deps.visits.record(store.id)
        return sendJson(set, body)
      },
      {
        params: StorefrontParams,
        response: { 200: data(Storefront), ...publicErrors },
        detail: {
          tags: ['Public'],
          summary: "A store's public catalog",
          description: `No key. Store info, active categories, active products with active variants and approved-review count and average, active shipping options. Counts one catalog visit (stats). Unknown, unpublished or maintenance store → 404; suspended → 402. Limited per client IP (${deps.config.rateLimitStoreReads}/min).`,
        },
      },
    )
    .get('/api/check-slug', ({ query }) => checkSlug(deps.db, query.slug), {
      query: CheckSlugQuery,
      response: { 200: CheckSlugResult, 400: ErrorBody, 429: ErrorBody, 500: ErrorBody },
      detail: {
        tags: ['Public'],
        summary: 'Is a store slug available?',
        description: `No key. \`{ slug, available }\` against store slugs; an ill-formed slug → 400. Limited per client IP (${deps.config.rateLimitCheckSlug}/hour).`,
      },
    })
}
