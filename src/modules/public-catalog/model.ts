import { t } from 'elysia'
import { Id, Pagination } from '../shared'
import { Product, Variant } from '../products'
import { Language } from '../store-settings'

export const DirectoryEntry = t.Object(
  { name: t.String(), slug: t.String(), description: t.Nullable(t.String()), currency: t.String() },
  { title: 'DirectoryEntry' },
)

export const DirectoryQuery = t.Object({
  ...Pagination,
  q: t.Optional(t.String({ maxLength: 100, description: 'Matches store name or slug, ignoring case' })),
})

export const StorefrontParams = t.Object({ slug: t.String({ minLength: 1, maxLength: 100 }) })

export const PublicStore = t.Object(
  {
    id: Id,
    name: t.String(),
    slug: t.String(),
    description: t.Nullable(t.String()),
    currency: t.String(),
    whatsappNumber: t.Nullable(t.String({ description: 'E.164' })),
    whatsappTemplate: t.Nullable(t.String()),
    language: Language,
  },
  { title: 'PublicStore', description: '`id` is the `storeId` that POST /api/orders and POST /api/reviews take' },
)

export const PublicCategory = t.Object(
  { id: Id, name: t.String(), slug: t.String(), position: t.Integer() },
  { title: 'PublicCategory' },
)

const PublicStock = (description: string) =>
  t.Optional(t.Nullable(t.Number({ multipleOf: 1, minimum: 0 }), { description }))
const PublicVariant = t.Composite(
  [
    t.Omit(Variant, ['stock']),
    t.Object({
      stock: PublicStock('Units on hand, only when the store shows stock counts (showStockCount); null = not tracked'),
    }),
  ],
  { title: 'PublicVariant' },
)

export const PublicProduct = t.Composite(
  [
    t.Omit(Product, ['stock', 'variants']),
    t.Object({
      stock: PublicStock(
        'Units on hand of a product without variants, only when the store shows stock counts ' +
          '(showStockCount); null = not tracked',
      ),
      variants: t.Array(PublicVariant, { description: 'Active variants only' }),
      reviewCount: t.Integer({ description: 'Approved reviews' }),
      averageRating: t.Nullable(
        t.Number({ description: 'Mean of approved ratings, 2 decimals; null without reviews' }),
      ),
    }),
  ],
  { title: 'PublicProduct' },
)

export const PublicShipping = t.Object(
  {
    id: Id,
    name: t.String(),
    price: t.Number(),
    description: t.Nullable(t.String()),
    estimatedDays: t.Nullable(t.Integer()),
  },
  { title: 'PublicShippingOption' },
)

export const Storefront = t.Object(
  {
    store: PublicStore,
    categories: t.Array(PublicCategory, { description: 'Active categories by position' }),
    products: t.Array(PublicProduct, { description: 'Active products, newest first, with active variants' }),
    shippingOptions: t.Array(PublicShipping, { description: 'Active shipping options, cheapest first' }),
  },
  { title: 'Storefront' },
)

// Format is checked by the service so every ill-formed slug is `invalid_format` (a short one too).
export const CheckSlugQuery = t.Object({
  slug: t.String({ maxLength: 200, description: '3–50 characters of a-z, 0-9 and inner hyphens' }),
})
export const CheckSlugResult = t.Object({ slug: t.String(), available: t.Boolean() }, { title: 'CheckSlugResult' })

export type DirectoryQuery = typeof DirectoryQuery.static
