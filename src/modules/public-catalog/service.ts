/**
 * The storefront's public read side (no key): the directory of published stores, one store's
 * catalog, and the slug availability check. No function takes a store ctx: the store comes
 * from the URL, checked in the documented order (docs/api.md) (404 → 402 → 404 unpublished).
 */
import { and, asc, count, eq, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import type { CachedBody, StoreCache } from '../../db/cache'
import type { Ctx } from '../../kernel/context'
import { stores, type Store } from '../../db/schema'
import { ValidationError } from '../../lib/errors'
import { toMajor } from '../../lib/money'
import { isSlug, SLUG_RULE } from '../../lib/slug'
import { productParts, productView, productViewFragments } from '../products'
import type { Fragments } from '../../db/fragments'
import { activeCategories, activeProductIds, activeProducts, activeShipping, reviewStatsRows, storeBySlug } from './sql'
import { containsPattern, page } from '../shared'
import { publicStore } from '../platform-stores'
import type { DirectoryQuery } from './model'
import type { Config } from '../../config'

/** Published, not in maintenance, not suspended; `q` matches name or slug ignoring case. */
export function listDirectory({ ctx: { db }, input: q }: { ctx: { db: Db }; input: DirectoryQuery }) {
  const { limit, offset } = page(q)
  const conds = [eq(stores.isPublished, true), eq(stores.isMaintenance, false), eq(stores.status, 'active')]
  const term = q.q?.trim()
  if (term) {
    const pattern = containsPattern(term)
    conds.push(
      or(sql`lower(${stores.name}) LIKE ${pattern} ESCAPE '\\'`, sql`${stores.slug} LIKE ${pattern} ESCAPE '\\'`)!,
    )
  }
  const cond = and(...conds)
  const rows = db
    .select({ name: stores.name, slug: stores.slug, description: stores.description, currency: stores.currency })
    .from(stores)
    .where(cond)
    .orderBy(sql`${stores.name} COLLATE NOCASE`, asc(stores.slug))
    .limit(limit)
    .offset(offset)
    .all()
  const total = db.select({ n: count() }).from(stores).where(cond).get()!.n
  return { data: rows, total, limit, offset }
}

/** The store behind a public slug, checked as every public request's store is (read fresh each time). */
export const publicStoreBySlug = ({
  ctx: { db, config },
  input: { slug },
}: {
  ctx: { db: Db; config: Pick<Config, 'upgradeUrl'> }
  input: { slug: string }
}): Store => publicStore(storeBySlug(db.$client, slug), config.upgradeUrl)

/** Approved-review count and mean per product of the store, in one grouped query. */
function reviewStats(db: Db, storeId: string): Map<string, { reviewCount: number; averageRating: number | null }> {
  return new Map(
    reviewStatsRows(db.$client, storeId).map((r) => [
      r.productId,
      { reviewCount: r.n, averageRating: Math.round(r.avg * 100) / 100 },
    ]),
  )
}

/** The catalog a storefront renders: store info, active categories, products and shipping options. */
/** `ctx.config.publicUrl` makes picture URLs absolute (the API); the storefront's own pages leave it out. */
export function storefrontOf({
  ctx: { db, store: s, config },
}: {
  ctx: { db: Db; store: Store; config?: { publicUrl?: string } }
}) {
  const publicUrl = config?.publicUrl
  const client = db.$client
  const cats = activeCategories(client, s.id)
  const prods = activeProducts(client, s.id)
  const ids = prods.map((p) => p.id)
  const { variants: vs, images: imgs } = productParts({ ctx: { db }, input: { ids, publicUrl } })
  const stats = reviewStats(db, s.id)
  return {
    store: storeInfo(s),
    categories: cats,
    products: prods.map((p) => {
      const view = productView(p, vs.get(p.id) ?? [], s.currency, imgs.get(p.id))
      return { ...(s.showStockCount ? view : withoutStock(view)), ...(stats.get(p.id) ?? NO_REVIEWS) }
    }),
    shippingOptions: shippingViews(client, s),
  }
}

const NO_REVIEWS = { reviewCount: 0, averageRating: null }

const storeInfo = (s: Store) => ({
  id: s.id,
  name: s.name,
  slug: s.slug,
  description: s.description,
  currency: s.currency,
  whatsappNumber: s.whatsappNumber,
  whatsappTemplate: s.whatsappTemplate,
  language: s.language,
})

const shippingViews = (client: Db['$client'], s: Store) =>
  activeShipping(client, s.id).map((o) => ({
    id: o.id,
    name: o.name,
    price: toMajor(o.price, s.currency),
    description: o.description,
    estimatedDays: o.estimatedDays,
  }))

/**
 * `JSON.stringify({ data: storefrontOf({ ctx }) })`, with each product's view from its
 * cached fragment (products/fragments.ts) — without its stock counts, also cached, when the
 * store hides them — and its review figures appended (reviews are not in the fragment: they
 * change without touching the product).
 */
function storefrontJson(
  db: Db,
  s: Store,
  publicUrl: string | undefined,
  cache: Pick<StoreCache, 'fragments' | 'publicFragments' | 'listing'>,
): string {
  const client = db.$client
  // What the store lists besides the products' views: kept through stock-only writes (a checkout).
  const { ids, stats, categories, shipping } = cache.listing(s.id, STOREFRONT_KEY, () => ({
    ids: activeProductIds(client, s.id),
    stats: reviewStats(db, s.id),
    categories: JSON.stringify(activeCategories(client, s.id)),
    shipping: JSON.stringify(shippingViews(client, s)),
  }))
  let fragments = productViewFragments({ ctx: { db, store: s }, input: { ids, publicUrl }, cache: cache.fragments })
  if (!s.showStockCount) fragments = publicFragments(s.id, ids, fragments, cache.publicFragments)
  // Each product's view with its review figures, kept with the listing (so a review, which is not
  // a stock-only write, drops it with the figures) and reused while its fragment is the same.
  const withReviews = cache.listing(
    s.id,
    STOREFRONT_VIEWS_KEY,
    () => new Map<string, { fragment: string; view: string }>(),
  )
  const views = fragments.map((json, i) => {
    const id = ids[i]!
    const kept = withReviews.get(id)
    if (kept !== undefined && kept.fragment === json) return kept.view
    const r = stats.get(id) ?? NO_REVIEWS
    const rating = JSON.stringify(r.averageRating)
    const view = `${json.slice(0, -1)},"reviewCount":${r.reviewCount},"averageRating":${rating}}`
    withReviews.set(id, { fragment: json, view })
    return view
  })
  return (
    `{"data":{"store":${JSON.stringify(storeInfo(s))},"categories":${categories},` +
    `"products":[${views.join(',')}],"shippingOptions":${shipping}}}`
  )
}

/** `fragments` (of `ids`) without their stock counts, each kept until its product's fragment drops (db/cache.ts). */
function publicFragments(storeId: string, ids: string[], fragments: string[], cache: Fragments): string[] {
  const cached = cache.of(storeId)
  return fragments.map((json, i) => {
    let out = cached.get(ids[i]!)
    if (out === undefined) cache.set(storeId, ids[i]!, (out = withoutStockCounts(json)))
    return out
  })
}

/**
 * A product fragment without its `stock` members (the product's and each variant's): how many are
 * left is the seller's business unless the store opts in (showStockCount); `inStock` stays. JSON
 * escapes a quote inside a string as `\"`, so `"stock":` only ever matches a member name.
 */
const STOCK_MEMBER = /"stock":(?:null|\d+),/g
export const withoutStockCounts = (json: string) => json.replace(STOCK_MEMBER, '')

/** The same for a view object (storefrontOf): `stock` leaves the product and its variants. */
function withoutStock(view: ReturnType<typeof productView>) {
  // Members keep their order, so the body is byte for byte the fragments' (tests/product-fragments).
  const out: Omit<typeof view, 'stock'> & { stock?: unknown } = {
    ...view,
    variants: view.variants.map(({ stock: _s, ...v }) => v as (typeof view.variants)[number]),
  }
  delete out.stock
  return out as Omit<typeof view, 'stock'>
}

/** The key of the public read's body in the store's cache. */
const STOREFRONT_KEY = 'storefront'
/** The key of its products' views with review figures among the store's listings. */
const STOREFRONT_VIEWS_KEY = 'storefront:views'

/**
 * The public store read's body, in the verb shape (the public caller is just another actor):
 * cached per store until a write to that store drops it. The store row itself is read fresh by
 * the caller (status and publication).
 */
export function storefrontBody({ ctx, cache }: { ctx: Ctx; cache: StoreCache }): CachedBody {
  return cache.body(ctx.store.id, STOREFRONT_KEY, () => storefrontJson(ctx.db, ctx.store, ctx.config.publicUrl, cache))
}

/** Whether a store slug is free. An ill-formed slug is a 400, not "unavailable". */
export function checkSlug({ ctx: { db }, input: { slug } }: { ctx: { db: Db }; input: { slug: string } }) {
  if (!isSlug(slug)) throw new ValidationError('slug', 'invalid_format', SLUG_RULE)
  const taken = db.select({ id: stores.id }).from(stores).where(eq(stores.slug, slug)).get()
  return { slug, available: !taken }
}
