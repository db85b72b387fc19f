import { t } from 'elysia'
import { Id, IsoDate, Money, Pagination, Since, Timestamp } from '../shared'

// Not t.UnionEnum: it sets `default` to the first value, so a missing `type` would pass as 'percentage'.
const DiscountType = (opts = {}) => t.Union([t.Literal('percentage'), t.Literal('fixed')], opts)

export const CODE_PATTERN = '^[A-Za-z0-9_-]{2,40}$'

export const Discount = t.Object(
  {
    id: Id,
    code: t.String(),
    type: DiscountType(),
    value: t.Number({
      description:
        'percentage: percent in (0, 100], up to 2 decimals; fixed: amount in major units of the store currency',
    }),
    minOrderAmount: t.Nullable(t.Number({ description: 'Items subtotal needed to apply it (equal qualifies)' })),
    maxUses: t.Nullable(t.Integer()),
    usedCount: t.Integer({ description: 'Read-only: orders that used it' }),
    expiresAt: t.Nullable(Timestamp),
    isActive: t.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Discount' },
)

const Code = t.String({
  pattern: CODE_PATTERN,
  minLength: 2,
  maxLength: 40,
  description: '2–40 letters, digits, _ or -; unique per store ignoring case',
  error: 'A code is 2–40 letters, digits, _ or -',
})

export const DiscountCreate = t.Object({
  code: Code,
  type: DiscountType({ error: "type must be 'percentage' or 'fixed'" }),
  value: t.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
  minOrderAmount: t.Optional(t.Nullable(Money)),
  maxUses: t.Optional(t.Nullable(t.Integer({ minimum: 1, maximum: 1_000_000_000 }))),
  expiresAt: t.Optional(t.Nullable(IsoDate)),
  isActive: t.Optional(t.Boolean()),
})
export const DiscountUpdate = t.Partial(DiscountCreate)

export const DiscountListQuery = t.Object({
  ...Pagination,
  ...Since,
  isActive: t.Optional(
    t.Union([t.Literal('true'), t.Literal('false'), t.Literal('all')], {
      error: "isActive must be 'true', 'false' or 'all'",
    }),
  ),
})

export type DiscountCreate = typeof DiscountCreate.static
export type DiscountUpdate = typeof DiscountUpdate.static
export type DiscountListQuery = typeof DiscountListQuery.static
