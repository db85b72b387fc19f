import { asc, eq } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { categories } from '../../db/schema'
import { write } from '../../kernel/write'
import { categoryView, ownCategory } from './service'

/**
 * Moves a category one place earlier or later in the order the storefront shows (position, then
 * creation). The store's categories are renumbered 0…n-1 in the same transaction: positions set
 * through the API may repeat or leave gaps, and swapping two equal positions would move nothing.
 * At either end it changes nothing.
 */
export function moveCategory({ ctx, input: { id, by } }: { ctx: Ctx; input: { id: string; by: -1 | 1 } }) {
  const row = write(ctx, (tx) => {
    ownCategory(ctx, id)
    const order = tx
      .select({ id: categories.id, position: categories.position })
      .from(categories)
      .where(eq(categories.storeId, ctx.store.id))
      .orderBy(asc(categories.position), asc(categories.createdAt))
      .all()
    const from = order.findIndex((c) => c.id === id)
    const to = from + by
    if (to >= 0 && to < order.length) [order[from], order[to]] = [order[to]!, order[from]!]
    const now = ctx.clock.now()
    order.forEach((c, i) => {
      if (c.position !== i)
        tx.update(categories).set({ position: i, updatedAt: now }).where(eq(categories.id, c.id)).run()
    })
    return ownCategory(ctx, id)
  })
  return categoryView(row)
}
