/** What the orders module forgets on the prune job's schedule. */
import type { Db } from '../../db/client'
import type { Clock } from '../../lib/time'
import { IDEMPOTENCY_TTL_MS } from './idempotency'
import { deleteIdempotencyKeysBefore } from './sql'

/** Idempotency keys past their 24 hours. */
export function pruneIdempotencyKeys({ ctx }: { ctx: { db: Db; clock: Clock } }): void {
  deleteIdempotencyKeysBefore(ctx.db.$client, ctx.clock.now() - IDEMPOTENCY_TTL_MS)
}
