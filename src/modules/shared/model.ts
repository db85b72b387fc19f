/**
 * Schemas every resource uses: list queries, envelopes, the error bodies of part 7, and the
 * helpers that declare them on a route so the OpenAPI document is complete.
 */
import { t, type TSchema } from 'elysia'
import { SLUG_PATTERN, SLUG_RULE } from '../../lib/slug'
import { ERROR_CODES } from '../../lib/errors'

export const Id = t.String({ minLength: 1, maxLength: 64, description: 'CUID2 identifier' })
export const IdParams = t.Object({ id: Id })
export const Timestamp = t.String({ format: 'date-time', description: 'ISO 8601, UTC, millisecond precision' })
export const Slug = t.String({
  pattern: SLUG_PATTERN,
  minLength: 3,
  maxLength: 50,
  description: '3–50 characters of a-z, 0-9 and inner hyphens',
  error: SLUG_RULE,
})
export const Money = t.Number({ minimum: 0, maximum: 1e12, description: 'Amount in major units of the store currency' })
export const IsoDate = t.String({ maxLength: 40, description: 'ISO 8601 date or date-time' })

/** limit/offset paging and the createdSince/updatedSince filters (docs/api.md). */
export const Pagination = {
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Page size, at most 100' })),
  offset: t.Optional(t.Integer({ minimum: 0, maximum: 1e9, default: 0, description: 'Records to skip' })),
}
export const Since = {
  createdSince: t.Optional(IsoDate),
  updatedSince: t.Optional(IsoDate),
}

export const ErrorBody = t.Object(
  {
    error: t.String(),
    code: t.Optional(t.UnionEnum(ERROR_CODES, { description: 'One of the closed catalogue of error codes' })),
    details: t.Optional(t.Record(t.String(), t.Unknown())),
  },
  { title: 'Error' },
)
export const PaymentRequiredBody = t.Object(
  { error: t.Literal('payment_required'), message: t.String(), state: t.Literal('suspended'), upgradeUrl: t.String() },
  { title: 'PaymentRequired' },
)
export const PlanRequiredBody = t.Object(
  {
    error: t.Literal('plan_required'),
    code: t.Literal('PLAN_REQUIRED'),
    message: t.String(),
    feature: t.String(),
    upgradeUrl: t.String(),
    details: t.Optional(t.Object({ limit: t.Integer(), current: t.Integer() })),
  },
  { title: 'PlanRequired' },
)

export const data = <T extends TSchema>(schema: T) => t.Object({ data: schema })
/** Elysia's `t.Integer` is a string-coercion union (for queries); responses document a plain integer. */
const Count = (description: string) => t.Number({ multipleOf: 1, minimum: 0, description })
export const list = <T extends TSchema>(schema: T) =>
  t.Object({
    data: t.Array(schema),
    total: Count('Matching records before pagination'),
    limit: Count('Page size used'),
    offset: Count('Records skipped'),
  })
export const Deleted = data(t.Object({ id: t.String(), deleted: t.Literal(true) }))

/** Error responses every authenticated route can give. */
export const authErrors = {
  400: ErrorBody,
  401: ErrorBody,
  402: PaymentRequiredBody,
  403: t.Union([ErrorBody, PlanRequiredBody]),
  429: ErrorBody,
  500: ErrorBody,
}
export const withNotFound = { ...authErrors, 404: ErrorBody }
export const withConflict = { ...withNotFound, 409: ErrorBody }

export const publicErrors = { 400: ErrorBody, 402: PaymentRequiredBody, 404: ErrorBody, 429: ErrorBody, 500: ErrorBody }

/**
 * OpenAPI `detail` of a route of one tag. The route's `access` adds the security and the
 * sentence naming its scope (plugins/access.ts); `extra` follows that sentence.
 */
export const routeDoc =
  (tag: string) =>
  (summary: string, extra = '') => ({ tags: [tag], summary, description: extra })
