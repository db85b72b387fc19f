/** Reviews and products made directly through the services, for review and stats tests. */
import type { Deps } from '../../src/deps'
import { ctxFor } from '../../src/kernel/context'
import { reviews, type ReviewStatus } from '../../src/db/schema'
import { createProduct } from '../../src/modules/products/service'
import { getStore } from '../../src/modules/platform-stores/service'
import { uniq } from './factories'

export function makeProduct(deps: Deps, storeId: string, input: { name?: string; price?: number; isActive?: boolean } = {}) {
  return createProduct({ ctx: ctxFor(deps, getStore(deps.db, storeId)!), input: { name: input.name ?? uniq('Product'), price: input.price ?? 10, isActive: input.isActive } })
}

/** A review row of the store (a new product unless one is given). */
export function makeReview(
  deps: Deps,
  storeId: string,
  input: { productId?: string; status?: ReviewStatus; rating?: number; customerName?: string; comment?: string | null; createdAt?: number } = {},
) {
  const productId = input.productId ?? makeProduct(deps, storeId).id
  const at = input.createdAt ?? deps.clock.now()
  return deps.db
    .insert(reviews)
    .values({
      storeId,
      productId,
      customerName: input.customerName ?? uniq('Ana'),
      rating: input.rating ?? 5,
      comment: input.comment === undefined ? 'Great' : input.comment,
      status: input.status ?? 'pending',
      createdAt: at,
      updatedAt: at,
    })
    .returning()
    .get()
}
