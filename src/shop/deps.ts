import type { StoreCache } from '../db/cache'
import type { RateLimiter } from '../db/rate-limiter'
import type { CtxBase } from '../kernel/context'
import type { VisitCounter } from '../modules/public-catalog'

/** What the storefront pages use: the ctx base (the review form calls the reviews verb), caches, limits, visits. */
export type ShopDeps = CtxBase & {
  cache: StoreCache
  limiter: Pick<RateLimiter, 'hit'>
  visits: Pick<VisitCounter, 'record'>
}
