import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { shippingOptions, type ShippingOption } from '../../db/schema'
import { ValidationError } from '../../lib/errors'
import { toMajor, toMinor } from '../../lib/money'
import { iso } from '../../lib/time'
import { activeFilter, page, sinceFilters } from '../shared'
import { owned } from '../shared'
import { write } from '../../kernel/write'
import type { ShippingCreate, ShippingListQuery, ShippingUpdate } from './model'

export function shippingView(s: ShippingOption, currency: string) {
  return {
    id: s.id,
    name: s.name,
    price: toMajor(s.price, currency),
    description: s.description,
    estimatedDays: s.estimatedDays,
    isActive: s.isActive,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  }
}

export function listShipping({ ctx, input: q }: { ctx: Ctx; input: ShippingListQuery }) {
  const { limit, offset } = page(q)
  const where: SQL[] = [eq(shippingOptions.storeId, ctx.store.id), ...sinceFilters(q, shippingOptions)]
  const active = activeFilter(q.isActive, 'all')
  if (active !== undefined) where.push(eq(shippingOptions.isActive, active))
  const cond = and(...where)
  const rows = ctx.db
    .select()
    .from(shippingOptions)
    .where(cond)
    .orderBy(desc(shippingOptions.createdAt), desc(shippingOptions.id))
    .limit(limit)
    .offset(offset)
    .all()
  const total = ctx.db.select({ n: count() }).from(shippingOptions).where(cond).get()!.n
  return { data: rows.map((s) => shippingView(s, ctx.store.currency)), total, limit, offset }
}

/** The store's shipping option: 404 when missing, 403 when another store's. */
export const ownShipping = (ctx: Ctx, id: string): ShippingOption =>
  owned(ctx, ctx.db.select().from(shippingOptions).where(eq(shippingOptions.id, id)).get(), 'Shipping option')

export const getShipping = ({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) =>
  shippingView(ownShipping(ctx, id), ctx.store.currency)

function name(raw: string): string {
  const n = raw.trim()
  if (!n) throw new ValidationError('name', 'required', "'name' must not be blank")
  return n
}

export function createShipping({ ctx, input }: { ctx: Ctx; input: ShippingCreate }) {
  const values = {
    storeId: ctx.store.id,
    name: name(input.name),
    price: toMinor(input.price, ctx.store.currency, 'price'),
    description: input.description ?? null,
    estimatedDays: input.estimatedDays ?? null,
    isActive: input.isActive ?? true,
    createdAt: ctx.clock.now(),
    updatedAt: ctx.clock.now(),
  }
  const row = write(ctx, (tx) => tx.insert(shippingOptions).values(values).returning().get())
  return shippingView(row, ctx.store.currency)
}

export function updateShipping({ ctx, input: { id, ...input } }: { ctx: Ctx; input: { id: string } & ShippingUpdate }) {
  const set: Partial<typeof shippingOptions.$inferInsert> = {}
  if (input.name !== undefined) set.name = name(input.name)
  if (input.price !== undefined) set.price = toMinor(input.price, ctx.store.currency, 'price')
  if (input.description !== undefined) set.description = input.description
  if (input.estimatedDays !== undefined) set.estimatedDays = input.estimatedDays
  if (input.isActive !== undefined) set.isActive = input.isActive
  const row = write(ctx, (tx) => {
    ownShipping(ctx, id)
    return tx
      .update(shippingOptions)
      .set({ ...set, updatedAt: ctx.clock.now() })
      .where(eq(shippingOptions.id, id))
      .returning()
      .get()!
  })
  return shippingView(row, ctx.store.currency)
}

/** Hard delete: orders keep their `{ name, price }` snapshot; their FK is set null. */
export function deleteShipping({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  write(ctx, (tx) => {
    ownShipping(ctx, id)
    tx.delete(shippingOptions).where(eq(shippingOptions.id, id)).run()
  })
  return { id, deleted: true as const }
}
