/**
 * Internal notes on an order: written by the store's team in the panel, read only
 * there (the API's order has no notes field but the customer's own `notes`). Each names its
 * author; a note is never edited, so the list is the record of what the team said.
 */
import type { Ctx } from '../../kernel/context'
import { write } from '../../kernel/write'
import { orderNotes, type OrderNote } from '../../db/schema'
import { ValidationError } from '../../lib/errors'
import { ownOrder } from './service'
import { notesOfOrder, type NoteLine } from './sql'

export type { NoteLine }

export const MAX_NOTE_LENGTH = 2000

const authorOf = (ctx: Ctx): string => {
  const a = ctx.actor
  return a.kind === 'user'
    ? `user:${a.userId}`
    : a.kind === 'key'
      ? `key:${a.keyId}`
      : a.kind === 'app'
        ? `app:${a.grantId}`
        : a.kind
}

/** Adds a note to the ctx's store's order (404 / 403 as the order's other verbs). */
export function addOrderNote({ ctx, input }: { ctx: Ctx; input: { orderId: string; body: unknown } }): OrderNote {
  const body = typeof input.body === 'string' ? input.body.trim() : ''
  if (!body) throw new ValidationError('body', 'required', 'A note needs some text')
  if (body.length > MAX_NOTE_LENGTH)
    throw new ValidationError('body', 'too_long', `A note is at most ${MAX_NOTE_LENGTH} characters`)
  return write(ctx, (tx, fx) => {
    const order = ownOrder(ctx, input.orderId)
    // Internal notes are not in the API's order: a note changes no product and no order's view.
    fx.productsChanged([])
    fx.ordersChanged([])
    fx.catalogStockOnly()
    return tx
      .insert(orderNotes)
      .values({ storeId: ctx.store.id, orderId: order.id, author: authorOf(ctx), body, createdAt: ctx.clock.now() })
      .returning()
      .get()
  })
}

/** The order's notes, oldest first. */
export function notesOf({ ctx, input: { orderId } }: { ctx: Ctx; input: { orderId: string } }): NoteLine[] {
  return notesOfOrder(ctx.db.$client, ctx.store.id, orderId)
}
