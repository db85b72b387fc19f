import { t } from 'elysia'
import { Id, Money, Pagination, Since, Slug, Timestamp } from '../shared'
import { ProductImage } from './images/model'

/** Plain integers in JSON (Elysia's `t.Integer` also admits strings, for query coercion). */
const StockCount = t.Number({ multipleOf: 1, minimum: 0, maximum: 1_000_000_000, description: 'Units on hand' })
const Stock = t.Nullable(StockCount, { description: 'Units on hand; null = not tracked (never sold out)' })
const InStock = t.Boolean({ description: 'False when tracked stock is 0 (the checkout refuses it: 409 OUT_OF_STOCK)' })

export const Variant = t.Object(
  { id: Id, name: t.String(), price: t.Number(), isActive: t.Boolean(), stock: Stock, inStock: InStock },
  { title: 'Variant' },
)

export const Product = t.Object(
  {
    id: Id,
    name: t.String(),
    slug: t.String(),
    description: t.Nullable(t.String()),
    price: t.Number(),
    comparePrice: t.Nullable(t.Number()),
    imageUrl: t.Nullable(t.String({ description: 'As set, or else the first uploaded image' })),
    images: t.Array(ProductImage, { description: 'Uploaded images by position' }),
    isActive: t.Boolean(),
    stock: t.Nullable(StockCount, {
      description:
        'Units on hand of a product without variants; null = not tracked. A product with variants keeps ' +
        'stock per variant.',
    }),
    inStock: t.Boolean({
      description: 'Without variants: tracked stock above 0 or untracked; with variants: some active variant in stock',
    }),
    categoryId: t.Nullable(t.String()),
    variants: t.Array(Variant, { description: 'Active variants only' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Product' },
)

const VariantInput = t.Object({
  id: t.Optional(Id),
  name: t.String({ minLength: 1, maxLength: 100 }),
  price: Money,
  isActive: t.Optional(t.Boolean()),
  stock: t.Optional(Stock),
})

const ImageUrl = t.String({ maxLength: 2048, pattern: '^https?://', error: 'imageUrl must be an http(s) URL' })

export const ProductCreate = t.Object({
  name: t.String({ minLength: 1, maxLength: 200 }),
  slug: t.Optional(Slug),
  description: t.Optional(t.Nullable(t.String({ maxLength: 10_000 }))),
  price: Money,
  comparePrice: t.Optional(t.Nullable(Money)),
  imageUrl: t.Optional(t.Nullable(ImageUrl)),
  isActive: t.Optional(t.Boolean()),
  stock: t.Optional(Stock),
  categoryId: t.Optional(t.Nullable(Id)),
  variants: t.Optional(t.Array(VariantInput, { maxItems: 100 })),
})

export const ProductUpdate = t.Partial(ProductCreate)

export const ProductListQuery = t.Object({
  ...Pagination,
  ...Since,
  isActive: t.Optional(
    t.Union([t.Literal('true'), t.Literal('false'), t.Literal('all')], {
      error: "isActive must be 'true', 'false' or 'all'",
    }),
  ),
})

export type ProductCreate = typeof ProductCreate.static
export type ProductUpdate = typeof ProductUpdate.static
export type ProductListQuery = typeof ProductListQuery.static
