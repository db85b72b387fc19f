/**
 * Plan caps: free 10 products, 3 categories, no variants;
 * pro 500 products, 50 categories; lifetime none. Configurable by env.
 */
import type { Ctx } from '../../kernel/context'
import type { Plan } from '../../db/schema'
import { PlanRequired } from '../../lib/errors'
import type { Config } from '../../config'

export type CapFeature = 'productLimit' | 'categoryLimit' | 'variants' | 'productImages'

export function capFor(config: Config, plan: Plan, feature: CapFeature): number {
  // Images per product: free 3; pro and lifetime share one ceiling (modules/products/images).
  if (feature === 'productImages') return plan === 'free' ? config.freeMaxProductImages : config.maxProductImages
  if (plan === 'lifetime') return Infinity
  if (feature === 'variants') return plan === 'free' ? 0 : Infinity
  if (plan === 'free') return feature === 'productLimit' ? config.freeMaxProducts : config.freeMaxCategories
  return feature === 'productLimit' ? config.proMaxProducts : config.proMaxCategories
}

const TEXT: Record<CapFeature, (limit: number) => string> = {
  productLimit: (n) => `Your plan allows ${n} products. Upgrade to add more.`,
  categoryLimit: (n) => `Your plan allows ${n} categories. Upgrade to add more.`,
  variants: () => 'Product variants need a Pro or Lifetime plan.',
  productImages: (n) => `Your plan allows ${n} images per product. Upgrade to add more.`,
}

/** Throws 403 PLAN_REQUIRED when `wanted` exceeds the store plan's cap; `current` is reported as-is. */
export function enforceCap(ctx: Ctx, feature: CapFeature, wanted: number, current = wanted - 1): void {
  const limit = capFor(ctx.config, ctx.store.plan, feature)
  if (wanted > limit) throw new PlanRequired(feature, ctx.config.upgradeUrl, TEXT[feature](limit), { limit, current })
}
