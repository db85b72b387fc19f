import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { data, list, publicErrors, ErrorBody } from '../shared'
import { sendJson } from '../shared'
import { CheckSlugQuery, CheckSlugResult, DirectoryEntry, DirectoryQuery, Storefront, StorefrontParams } from './model'
import { checkSlug, listDirectory, publicStoreBySlug, storefrontBody } from './service'
import { ctxFor, type Actor, type CtxBase } from '../../kernel/context'
import type { CachedBody, StoreCache } from '../../db/cache'
import type { PreRoutedRead } from '../../http/pre-routed'
import { clientBucketOf } from '../../plugins/request-state'
import type { VisitCounter } from './visits'

const PUBLIC: Actor = { kind: 'public' }
const STORE_READS = 'Limited per client IP (`RATE_LIMIT_STORE_READS_PER_MIN`, 120 a minute by default).'

/** What the public reads reach: a public actor's ctx base, the store cache and the visit counter. */
export type PublicCatalogPort = CtxBase & { cache: StoreCache; visits: Pick<VisitCounter, 'record'> }

/**
 * The store read, answered before routing (http/pre-routed.ts) as its route answers it: a
 * missing, unpublished or suspended store throws, and the route answers that.
 */
export const publicCatalogReads = (port: PublicCatalogPort): PreRoutedRead[] => [
  {
    route: '/api/v1/stores/:slug',
    contentType: 'application/json',
    query: false,
    public: true,
    answer: ({ id, clientBucket }) => storeRead(port, id!, clientBucket),
  },
]

/** The store's public catalog body; counts the visit. */
function storeRead(port: PublicCatalogPort, slug: string, clientBucket: () => string): CachedBody {
  // The store row is read every time (status and publication are checked fresh); the
  // catalog body is cached per store until a write to that store drops it.
  const store = publicStoreBySlug({ ctx: port, input: { slug } })
  const body = storefrontBody({ ctx: ctxFor(port, store, PUBLIC), cache: port.cache })
  // Counted in memory and written behind: a read never writes (visits.ts).
  port.visits.record(store.id, clientBucket())
  return body
}

/** Public reads: no key; the gate applies the per-IP `storeReads` / `checkSlug` buckets first. */
export const publicCatalogRoutes = (port: PublicCatalogPort) =>
  new Elysia({ name: 'storefront-public' })
    .use(access)
    .get('/api/v1/stores', ({ query }) => listDirectory({ ctx: { db: port.db }, input: query }), {
      access: { public: 'storeReads' },
      query: DirectoryQuery,
      response: { 200: list(DirectoryEntry), 400: ErrorBody, 429: ErrorBody, 500: ErrorBody },
      detail: {
        tags: ['Public'],
        summary: 'Directory of published stores',
        description:
          'No key. Published stores that are neither in maintenance nor suspended, ' +
          `by name. \`q\` matches the name or slug, ignoring case. ${STORE_READS}`,
      },
    })
    .get(
      '/api/v1/stores/:slug',
      (c) =>
        sendJson(
          c.set,
          storeRead(port, c.params.slug, () => clientBucketOf(c)),
        ),
      {
        access: { public: 'storeReads' },
        params: StorefrontParams,
        response: { 200: data(Storefront), ...publicErrors },
        detail: {
          tags: ['Public'],
          summary: "A store's public catalog",
          description:
            'No key. Store info, active categories, active products with active variants and ' +
            'approved-review count and average, active shipping options. Counts one catalog visit (stats). ' +
            `Unknown, unpublished or maintenance store → 404; suspended → 402. ${STORE_READS}`,
        },
      },
    )
    .get('/api/check-slug', ({ query }) => checkSlug({ ctx: { db: port.db }, input: { slug: query.slug } }), {
      access: { public: 'checkSlug' },
      query: CheckSlugQuery,
      response: { 200: CheckSlugResult, 400: ErrorBody, 429: ErrorBody, 500: ErrorBody },
      detail: {
        tags: ['Public'],
        summary: 'Is a store slug available?',
        description:
          'No key. `{ slug, available }` against store slugs; an ill-formed slug → 400. Limited per ' +
          'client IP (`RATE_LIMIT_CHECK_SLUG_PER_HOUR`, 30 an hour by default).',
      },
    })
