import { t } from 'elysia'
import { Id, Pagination, Timestamp } from '../shared'

export const Review = t.Object(
  {
    id: Id,
    productId: t.String(),
    productName: t.String(),
    customerName: t.String(),
    rating: t.Integer({ minimum: 1, maximum: 5 }),
    comment: t.Nullable(t.String()),
    status: t.Union([t.Literal('pending'), t.Literal('approved'), t.Literal('rejected')]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Review' },
)

/** The limits of a review's text; the shop's form shows and enforces the same ones. */
export const REVIEW_NAME_MAX = 100
export const REVIEW_COMMENT_MAX = 2000

export const ReviewCreate = t.Object({
  storeId: Id,
  productId: Id,
  customerName: t.String({ minLength: 1, maxLength: REVIEW_NAME_MAX }),
  rating: t.Integer({ minimum: 1, maximum: 5, description: 'Whole stars, 1–5' }),
  comment: t.Optional(t.Nullable(t.String({ maxLength: REVIEW_COMMENT_MAX }))),
})

export const ReviewCreated = t.Object({ id: Id, status: t.Literal('pending') }, { title: 'ReviewCreated' })

const StatusFilter = t.Union([t.Literal('pending'), t.Literal('approved'), t.Literal('rejected')], {
  error: "status must be 'pending', 'approved' or 'rejected'",
})

export const ReviewListQuery = t.Object({
  ...Pagination,
  status: t.Optional(StatusFilter),
  productId: t.Optional(Id),
})

/** `pending` passes the schema so the service can answer `not_allowed` rather than `invalid_format`. */
export const ReviewModerate = t.Object({ status: StatusFilter })

export type ReviewCreate = typeof ReviewCreate.static
export type ReviewListQuery = typeof ReviewListQuery.static
export type ReviewModerate = typeof ReviewModerate.static
