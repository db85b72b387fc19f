/**
 * Product views as cached JSON fragments (db/fragments.ts): the product list and the public
 * store read read their ids from SQLite, then concatenate each product's serialized view,
 * building the missing ones in one query per table. The bodies are byte for byte what
 * `JSON.stringify` of the full build gives (tests/products/fragments.test.ts).
 */
import type { Ctx } from '../../kernel/context'
import type { Db } from '../../db/client'
import type { Store } from '../../db/schema'
import type { Fragments } from '../../db/fragments'
import type { CachedBody, StoreCache } from '../../db/cache'
import { imagesOf } from './images/views'
import { page } from '../shared'
import type { ProductListQuery } from './model'
import { ownProduct, productFilter, productView } from './service'
import { activeVariantsOf, countProducts, pageOfProductIds, productsByIds } from './sql'

/** Each id's `productView` as JSON, in `ids` order; the store's products only. */
export function productFragments(
  db: Db,
  store: Pick<Store, 'id' | 'currency'>,
  publicUrl: string | undefined,
  ids: string[],
  cache: Fragments,
): string[] {
  return cache.many(store.id, ids, (missing) => {
    const vs = activeVariantsOf(db.$client, missing)
    const imgs = imagesOf(db, missing, publicUrl)
    const built = new Map<string, string>()
    for (const p of productsByIds(db.$client, missing))
      built.set(p.id, JSON.stringify(productView(p, vs.get(p.id) ?? [], store.currency, imgs.get(p.id))))
    return built
  })
}

/**
 * The product list's body for the verb shape `{ ctx, input }`: served from the store's cache
 * until a write to the store drops it; built again, it reuses the views of the products the
 * write did not change (the fragments). `input.route` is the request's `routeKey` (db/cache.ts):
 * a hit is served by the pipeline before routing.
 */
export function productListBody({
  ctx,
  input,
  cache,
}: {
  ctx: Ctx
  input: { query: ProductListQuery; route: string }
  cache: StoreCache
}): CachedBody {
  return cache.body(ctx.store.id, input.route, () => listProductsJson(ctx, input.query, cache))
}

/**
 * `JSON.stringify(listProducts(ctx, q))`, from the page's ids and the count (kept as the store's
 * listing through stock-only writes: no filter reads stock) and the fragments.
 */
export function listProductsJson(
  ctx: Ctx,
  q: ProductListQuery,
  cache: Pick<StoreCache, 'fragments' | 'listing'>,
): string {
  const { limit, offset } = page(q)
  const f = productFilter(ctx, q)
  const client = ctx.db.$client
  const { ids, total } = cache.listing(
    ctx.store.id,
    `products ${f.isActive} ${f.createdSince} ${f.updatedSince} ${limit} ${offset}`,
    () => ({
      ids: pageOfProductIds(client, f, limit, offset),
      total: countProducts(client, f),
    }),
  )
  const data = productFragments(ctx.db, ctx.store, ctx.config.publicUrl, ids, cache.fragments)
  return `{"data":[${data.join(',')}],"total":${total},"limit":${limit},"offset":${offset}}`
}

/**
 * `JSON.stringify({ data: getProduct(…) })` from the product's fragment. A fragment under the
 * ctx's store is one of its products, built when the product was live, and any later change to
 * it (a deletion included) has dropped it, so a hit needs no read; a miss checks the product as
 * `getProduct` does (403 / 404) and builds the fragment.
 */
export function productJson({
  ctx,
  input: { id },
  cache,
}: {
  ctx: Ctx
  input: { id: string }
  cache: Fragments
}): string {
  const hit = cachedProductJson(ctx, id, cache)
  if (hit !== undefined) return hit
  ownProduct(ctx, id)
  return `{"data":${productFragments(ctx.db, ctx.store, ctx.config.publicUrl, [id], cache)[0]!}}`
}

/** productJson's answer when the product's fragment is cached; undefined otherwise. */
export function cachedProductJson(ctx: Ctx, id: string, cache: Fragments): string | undefined {
  const json = cache.of(ctx.store.id).get(id)
  return json === undefined ? undefined : `{"data":${json}}`
}
