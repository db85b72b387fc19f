import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { discounts, type Discount, type DiscountType } from '../../db/schema'
import { Conflict, ValidationError, isUniqueViolation } from '../../lib/errors'
import { everyFault, faultsIn } from '../../lib/faults'
import { minorDigits, toMajor, toMajorOrNull, toMinor } from '../../lib/money'
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

/** A value in API units → stored integer, checked against the type (a percentage is in (0, 100]). */
function valueIn(currency: string, type: DiscountType, value: number): number {
  if (type === 'percentage') {
    if (!(value > 0 && value <= 100))
      throw new ValidationError('value', 'out_of_range', 'A percentage discount is more than 0 and at most 100')
    const hundredths = Math.round(value * 100)
    if (Math.abs(value * 100 - hundredths) > 1e-6)
      throw new ValidationError('value', 'invalid_format', 'A percentage has at most 2 decimals')
    return hundredths
  }
  const minor = toMinor(value, currency, 'value')
  if (minor <= 0) throw new ValidationError('value', 'out_of_range', 'A fixed discount is more than 0')
  return minor
}

const isType = (t: unknown): t is DiscountType => t === 'percentage' || t === 'fixed'

/**
 * The rules the schema can't state, over whichever fields are there (a form checks them beside
 * the schema's faults, so every fault shows at once): the value for its type, the minimum's
 * decimals, the expiry's date.
 */
export function discountFaults(
  currency: string,
  input: { type?: unknown; value?: unknown; minOrderAmount?: unknown; expiresAt?: unknown },
): ValidationError[] {
  const { type, value, minOrderAmount: min, expiresAt } = input
  // A form says how many decimals are allowed: a percentage's 2, else the currency's.
  const decimals = (field: string) => (f: ValidationError) =>
    f.details?.reason === 'invalid_format'
      ? new ValidationError(field, 'invalid_format', f.message, {
          decimals: field === 'value' && type === 'percentage' ? 2 : minorDigits(currency),
        })
      : f
  return [
    ...faultsIn(() => isType(type) && typeof value === 'number' && valueIn(currency, type, value)).map(
      decimals('value'),
    ),
    ...faultsIn(() => typeof min === 'number' && toMinor(min, currency, 'minOrderAmount')).map(
      decimals('minOrderAmount'),
    ),
    ...faultsIn(() => typeof expiresAt === 'string' && isoParam(expiresAt, 'expiresAt')),
  ]
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
export const ownDiscount = (ctx: Ctx, id: string): Discount =>
  owned(ctx, ctx.db.select().from(discounts).where(eq(discounts.id, id)).get(), 'Discount')

export const getDiscount = ({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) =>
  discountView(ownDiscount(ctx, id), ctx.store.currency)

export function createDiscount({ ctx, input }: { ctx: Ctx; input: DiscountCreate }) {
  const currency = ctx.store.currency
  const [value, minOrderAmount, expiresAt] = everyFault(
    () => valueIn(currency, input.type, input.value),
    () => (input.minOrderAmount == null ? null : toMinor(input.minOrderAmount, currency, 'minOrderAmount')),
    () => (input.expiresAt == null ? null : isoParam(input.expiresAt, 'expiresAt')!),
  )
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
  const currency = ctx.store.currency
  if (input.code !== undefined) {
    set.code = input.code
    set.codeKey = input.code.toUpperCase()
  }
  // The value is checked against the stored type inside the write; these two are checked together with it.
  const [minOrderAmount, expiresAt] = everyFault(
    () =>
      input.minOrderAmount == null ? input.minOrderAmount : toMinor(input.minOrderAmount, currency, 'minOrderAmount'),
    () => (input.expiresAt == null ? input.expiresAt : isoParam(input.expiresAt, 'expiresAt')!),
  )
  if (minOrderAmount !== undefined) set.minOrderAmount = minOrderAmount
  if (input.maxUses !== undefined) set.maxUses = input.maxUses
  if (expiresAt !== undefined) set.expiresAt = expiresAt
  if (input.isActive !== undefined) set.isActive = input.isActive
  try {
    const row = write(ctx, (tx) => {
      const current = ownDiscount(ctx, id)
      if (input.type !== undefined || input.value !== undefined) {
        const type = input.type ?? current.type
        set.type = type
        set.value = valueIn(currency, type, input.value ?? valueOut(current.type, current.value, currency))
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
    ownDiscount(ctx, id)
    tx.delete(discounts).where(eq(discounts.id, id)).run()
  })
  return { id, deleted: true as const }
}
