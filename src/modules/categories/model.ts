import { t } from 'elysia'
import { Id, Pagination, Since, Slug, Timestamp } from '../shared/model'

export const Category = t.Object(
  {
    id: Id,
    name: t.String(),
    slug: t.String(),
    position: t.Integer(),
    isActive: t.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Category' },
)

export const CategoryCreate = t.Object({
  name: t.String({ minLength: 1, maxLength: 200 }),
  slug: t.Optional(Slug),
  position: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000 })),
  isActive: t.Optional(t.Boolean()),
})
export const CategoryUpdate = t.Partial(CategoryCreate)

export const CategoryListQuery = t.Object({
  ...Pagination,
  ...Since,
  isActive: t.Optional(t.Union([t.Literal('true'), t.Literal('false'), t.Literal('all')], { error: "isActive must be 'true', 'false' or 'all'" })),
})

export type CategoryCreate = typeof CategoryCreate.static
export type CategoryUpdate = typeof CategoryUpdate.static
export type CategoryListQuery = typeof CategoryListQuery.static
