/**
 * Pending orders expire: an order still `pending`
 * `pendingOrderTtlHours` after it was placed is cancelled by the system — its stock goes back
 * and `order.updated` is sent, exactly as a cancellation over the API does — so an anonymous
 * order nobody follows up can't hold stock for ever. 0 hours means never.
 */
import { ctxFor, type CtxBase } from '../kernel/context'
import { InvalidTransition } from '../modules/orders'
import { expiredPendingOrders, updateOrderStatus } from '../modules/orders'
import { getStore } from '../modules/platform-stores'

/** Orders cancelled per store per run; the job runs every minute, so a backlog drains in turns. */
const BATCH = 200

/** Cancels every expired pending order; returns how many it cancelled. */
export function expirePendingOrders(deps: CtxBase): number {
  let cancelled = 0
  for (const { storeId, ids } of expiredPendingOrders({ ctx: deps, input: { limit: BATCH } })) {
    const store = getStore({ ctx: { db: deps.db }, input: { id: storeId } })
    if (!store) continue
    for (const id of ids) {
      // The system is the actor; its activity line is written in the cancelling transaction.
      const ctx = ctxFor(
        deps,
        store,
        { kind: 'system' },
        { actor: 'system', verb: 'cancel', recordType: 'order', recordId: id },
      )
      try {
        updateOrderStatus({ ctx, input: { id, status: 'cancelled' } })
        cancelled++
      } catch (err) {
        // Confirmed (or cancelled) by someone between the read and the move: nothing to do.
        if (!(err instanceof InvalidTransition)) throw err
      }
    }
  }
  return cancelled
}
