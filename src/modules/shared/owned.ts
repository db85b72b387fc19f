import type { Ctx } from '../../kernel/context'
import { NotFound, OtherStore } from '../../lib/errors'

/**
 * The rule for a looked-up record: 404 when it doesn't exist, 403 when it is another store's.
 * `resource` is named as the 404 says it ("Shipping option").
 */
export function owned<T extends { storeId: string }>(ctx: Ctx, row: T | undefined, resource: string): T {
  if (!row) throw new NotFound(resource)
  if (row.storeId !== ctx.store.id) throw new OtherStore(resource.toLowerCase())
  return row
}
