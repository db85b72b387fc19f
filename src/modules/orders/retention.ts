/** What the orders module forgets on the prune job's schedule. */
import type { OperatorCtx } from '../../kernel/context'
import { IDEMPOTENCY_TTL_MS } from './idempotency'
import { deleteIdempotencyKeysBefore, pendingOrdersBefore, storesExpiringOrders } from './sql'

const HOUR_MS = 3_600_000

/** Idempotency keys past their 24 hours. Takes the operator's ctx. */
export function pruneIdempotencyKeys({ ctx }: { ctx: OperatorCtx }): void {
  deleteIdempotencyKeysBefore(ctx.db.$client, ctx.clock.now() - IDEMPOTENCY_TTL_MS)
}

/**
 * The pending orders older than their store's `pendingOrderTtlHours`, at most `limit` per store,
 * for the stores that expire them. Takes the operator's ctx.
 */
export function expiredPendingOrders({
  ctx,
  input,
}: {
  ctx: OperatorCtx
  input: { limit: number }
}): { storeId: string; ids: string[] }[] {
  const db = ctx.db.$client
  const now = ctx.clock.now()
  return storesExpiringOrders(db)
    .map((s) => ({ storeId: s.id, ids: pendingOrdersBefore(db, s.id, now - s.ttl * HOUR_MS, input.limit) }))
    .filter((e) => e.ids.length > 0)
}
