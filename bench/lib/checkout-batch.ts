/** One checkout batch placed in-process with the batcher's own `commitOrders`, for the checkout profiles. */
import { commitOrders } from '../../src/checkout-batcher'
import { prepareOrder } from '../../src/modules/orders'
import type { Deps } from '../../src/deps'

/** Phones count up across every batch of the process, so no order is a duplicate. */
let phone = 2_000_000

/**
 * A function placing `size` orders (2 lines of `variants` + shipping option `shipbench`,
 * distinct phones) in one transaction on `deps`, running its after-commit effects; it throws
 * the first refused order's error.
 */
export function checkoutBatch(deps: Deps, storeId: string, [v1, v2]: readonly string[], size: number): () => void {
  const order = () =>
    prepareOrder(
      {
        storeId,
        name: 'Bench Buyer',
        address: '1 Main St, Springfield',
        phone: `+1415${++phone}`,
        items: [
          { variantId: v1!, quantity: 1 },
          { variantId: v2!, quantity: 2 },
        ],
        shippingOptionId: 'shipbench',
        notes: 'leave at the door',
      } as never,
      undefined,
      1000,
    )
  return () => {
    const r = commitOrders(deps, Array.from({ length: size }, order))
    r.effects.committed()
    if (r.outcomes.some((o) => !o.ok))
      throw new Error(String((r.outcomes.find((o) => !o.ok) as { error: unknown }).error))
  }
}
