import { t } from 'elysia'
import { Id, Pagination, Since, Slug, Timestamp } from '../shared'

/**
 * A JSON integer. Elysia's `t.Integer` also accepts numeric strings (it is built for query
 * coercion), which a JSON body should not; `multipleOf: 1` keeps it a plain number.
 */
const Int = (opts: { minimum?: number; maximum?: number; description?: string } = {}) =>
  t.Number({ multipleOf: 1, ...opts })

export const Category = t.Object(
  {
    id: Id,
    name: t.String(),
    slug: t.String(),
    position: Int({ description: 'Lists are ordered by position, then creation' }),
    isActive: t.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Category' },
)

export const CategoryCreate = t.Object({
  name: t.String({ minLength: 1, maxLength: 200 }),
  slug: t.Optional(Slug),
  position: t.Optional(
    Int({ minimum: 0, maximum: 1_000_000, description: 'Defaults to one after the highest position (last)' }),
  ),
  isActive: t.Optional(t.Boolean()),
})
export const CategoryUpdate = t.Partial(CategoryCreate)

export const CategoryListQuery = t.Object({
  ...Pagination,
  ...Since,
  isActive: t.Optional(
    t.Union([t.Literal('true'), t.Literal('false'), t.Literal('all')], {
      error: "isActive must be 'true', 'false' or 'all'",
    }),
  ),
})

export type CategoryCreate = typeof CategoryCreate.static
export type CategoryUpdate = typeof CategoryUpdate.static
export type CategoryListQuery = typeof CategoryListQuery.static
