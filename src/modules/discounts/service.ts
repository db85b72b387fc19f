import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import type { Runner } from '../../db/client'
import { discounts, type Discount, type DiscountType } from '../../db/schema'
import { Conflict, ValidationError, isUniqueViolation } from '../../lib/errors'
import { toMajor, toMajorOrNull, toMinor } from '../../lib/money'
import { iso, isoOrNull } from '../../lib/time'
import { activeFilter, isoParam, page, sinceFilters } from '../shared'
import { owned } from '../shared'
import { write } from '../../kernel/write'
import type { DiscountCreate, DiscountListQuery, DiscountUpdate } from './model'

/** API number of a stored value: hundredths of a percent → percent; minor units → major. */
const valueOut = (type: DiscountType, value: number, currency: string) =>
  type === 'percentage' ? value / 100 : toMajor(value, currency)

export function discountView(d: Discount, currency: string) {
  return {
    id: d.id,
    code: d.code,
    type: d.type,
    value: valueOut(d.type, d.value, currency),
    minOrderAmount: toMajorOrNull(d.minOrderAmount, currency),
    maxUses: d.maxUses,
    usedCount: d.usedCount,
    expiresAt: isoOrNull(d.expiresAt),
    isActive: d.isActive,
    createdAt: iso(d.createdAt),
    updatedAt: iso(d.updatedAt),
  }
}

/** A value in API units → stored integer, checked against the type (contract: percentage in (0, 100]). */
function valueIn(ctx: Ctx, type: DiscountType, value: number): number {
  if (type === 'percentage') {
    if (!(value > 0 && value <= 100))
      throw new ValidationError('value', 'out_of_range', 'A percentage discount is more than 0 and at most 100')
    const hundredths = Math.round(value * 100)
    if (Math.abs(value * 100 - hundredths) > 1e-6)
      throw new ValidationError('value', 'invalid_format', 'A percentage has at most 2 decimals')
    return hundredths
  }
  const minor = toMinor(value, ctx.store.currency, 'value')
  if (minor <= 0) throw new ValidationError('value', 'out_of_range', 'A fixed discount is more than 0')
  return minor
}

const duplicateCode = (code: string) =>
  new Conflict('DUPLICATE_CODE', `A discount with code '${code}' already exists (codes ignore case)`, {
    field: 'code',
    code,
  })

export function listDiscounts({ ctx, input: q }: { ctx: Ctx; input: DiscountListQuery }) {
  const { limit, offset } = page(q)
  const where: SQL[] = [eq(discounts.storeId, ctx.store.id), ...sinceFilters(q, discounts)]
  const active = activeFilter(q.isActive, 'all')
  if (active !== undefined) where.push(eq(discounts.isActive, active))
  const cond = and(...where)
  const rows = ctx.db
    .select()
    .from(discounts)
    .where(cond)
    .orderBy(desc(discounts.createdAt), desc(discounts.id))
    .limit(limit)
    .offset(offset)
    .all()
  const total = ctx.db.select({ n: count() }).from(discounts).where(cond).get()!.n
  return { data: rows.map((d) => discountView(d, ctx.store.currency)), total, limit, offset }
}

/** The store's discount: 404 when missing, 403 when another store's. */
export const ownDiscount = (ctx: Ctx, id: string, db: Runner = ctx.db): Discount =>
  owned(ctx, db.select().from(discounts).where(eq(discounts.id, id)).get(), 'Discount')

export const getDiscount = ({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) =>
  discountView(ownDiscount(ctx, id), ctx.store.currency)

export function createDiscount({ ctx, input }: { ctx: Ctx; input: DiscountCreate }) {
  const value = valueIn(ctx, input.type, input.value)
  const minOrderAmount =
    input.minOrderAmount == null ? null : toMinor(input.minOrderAmount, ctx.store.currency, 'minOrderAmount')
  const expiresAt = input.expiresAt == null ? null : isoParam(input.expiresAt, 'expiresAt')!
  const now = ctx.clock.now()
  try {
    const row = write(ctx, (tx) =>
      tx
        .insert(discounts)
        .values({
          storeId: ctx.store.id,
          code: input.code,
          codeKey: input.code.toUpperCase(),
          type: input.type,
          value,
          minOrderAmount,
          maxUses: input.maxUses ?? null,
          expiresAt,
          isActive: input.isActive ?? true,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get(),
    )
    return discountView(row, ctx.store.currency)
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateCode(input.code)
    throw err
  }
}

/**
 * Partial update. The value is re-checked against the resulting type: changing `type` alone
 * keeps the number the API shows (a 50 % discount becomes 50.00 off), so fixed 150 → percentage
 * is refused with 400 on `value`.
 */
export function updateDiscount({ ctx, input: { id, ...input } }: { ctx: Ctx; input: { id: string } & DiscountUpdate }) {
  const set: Partial<typeof discounts.$inferInsert> = {}
  if (input.code !== undefined) {
    set.code = input.code
    set.codeKey = input.code.toUpperCase()
  }
  if (input.minOrderAmount !== undefined)
    set.minOrderAmount =
      input.minOrderAmount === null ? null : toMinor(input.minOrderAmount, ctx.store.currency, 'minOrderAmount')
  if (input.maxUses !== undefined) set.maxUses = input.maxUses
  if (input.expiresAt !== undefined)
    set.expiresAt = input.expiresAt === null ? null : isoParam(input.expiresAt, 'expiresAt')!
  if (input.isActive !== undefined) set.isActive = input.isActive
  try {
    const row = write(ctx, (tx) => {
      const current = ownDiscount(ctx, id, tx)
      if (input.type !== undefined || input.value !== undefined) {
        const type = input.type ?? current.type
        set.type = type
        set.value = valueIn(ctx, type, input.value ?? valueOut(current.type, current.value, ctx.store.currency))
      }
      return tx
        .update(discounts)
        .set({ ...set, updatedAt: ctx.clock.now() })
        .where(eq(discounts.id, id))
        .returning()
        .get()!
    })
    return discountView(row, ctx.store.currency)
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateCode(input.code ?? '')
    throw err
  }
}

/** Hard delete: orders keep their snapshot (discount_code, discount_amount); their FK is set null. */
export function deleteDiscount({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  write(ctx, (tx) => {
    ownDiscount(ctx, id, tx)
    tx.delete(discounts).where(eq(discounts.id, id)).run()
  })
  return { id, deleted: true as const }
}
