import type { Ctx } from '../../kernel/context'
import { NotFound, OtherStore } from '../../lib/errors'

/**
 * The rule for a looked-up record: 404 when it doesn't exist, 403 when it is another store's.
 * `resource` is named as the 404 says it ("Shipping option"). The modules' `own…(ctx, id)` guards
 * read through `ctx.db` even inside a write: the write's transaction is on that one connection,
 * so the guard sees the write's own rows and needs no transaction handed in.
 */
export function owned<T extends { storeId: string }>(ctx: Ctx, row: T | undefined, resource: string): T {
  if (!row) throw new NotFound(resource)
  if (row.storeId !== ctx.store.id) throw new OtherStore(resource.toLowerCase())
  return row
}
