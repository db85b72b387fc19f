import { immediate, type Db } from '../../db/client'
import type { Ctx } from '../../context'

/**
 * A write on behalf of the request's store: one BEGIN IMMEDIATE transaction (check-then-write
 * can't interleave), then the store's cached reads are dropped so the next GET is fresh.
 */
export function write<T>(ctx: Ctx, fn: (tx: Db) => T): T {
  const result = immediate(ctx.db, fn)
  ctx.cache.invalidate(ctx.store.id)
  return result
}
