import { sql } from 'drizzle-orm'
import { sqliteTable, text, integer, uniqueIndex, index } from 'drizzle-orm/sqlite-core'
import { id, timestamps, bool } from './columns'
import { stores } from './stores'

export const categories = sqliteTable(
  'categories',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    position: integer('position').notNull().default(0),
    isActive: bool('is_active').notNull().default(true),
    ...timestamps,
  },
  (c) => [
    uniqueIndex('categories_store_slug_uq').on(c.storeId, c.slug),
    index('categories_store_position_idx').on(c.storeId, c.position),
  ],
)

export const products = sqliteTable(
  'products',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    categoryId: text('category_id').references(() => categories.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description'),
    /** Minor units of the store's currency. */
    price: integer('price').notNull(),
    comparePrice: integer('compare_price'),
    imageUrl: text('image_url'),
    isActive: bool('is_active').notNull().default(true),
    /** Units on hand for a product without variants; null = not tracked (never sold out). */
    stock: integer('stock'),
    /** Soft delete: the row stays because orders and reviews point at it. */
    deletedAt: integer('deleted_at'),
    ...timestamps,
  },
  (p) => [
    // A deleted product frees its slug; live slugs are unique per store.
    uniqueIndex('products_store_slug_uq').on(p.storeId, p.slug).where(sql`deleted_at IS NULL`),
    index('products_store_created_idx').on(p.storeId, p.createdAt),
    index('products_store_updated_idx').on(p.storeId, p.updatedAt),
    index('products_category_idx').on(p.categoryId),
  ],
)

export const variants = sqliteTable(
  'variants',
  {
    id: id(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    price: integer('price').notNull(),
    isActive: bool('is_active').notNull().default(true),
    position: integer('position').notNull().default(0),
    /** Units on hand; null = not tracked (never sold out). */
    stock: integer('stock'),
    ...timestamps,
  },
  (v) => [index('variants_product_idx').on(v.productId, v.position)],
)

/**
 * A product's uploaded images (modules/products/images). Files live under DATA_DIR/media, named by the
 * image id, so a new upload always has a new URL. Positions are 0..n-1 per product; the unique
 * index keeps two concurrent uploads from taking the same place.
 */
export const productImages = sqliteTable(
  'product_images',
  {
    id: id(),
    storeId: text('store_id')
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    productId: text('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** Of the largest rendition (the one `url` names). */
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Rendition widths stored, ascending, comma-separated (e.g. "320,640,1280"). */
    widths: text('widths').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (i) => [uniqueIndex('product_images_product_position_uq').on(i.productId, i.position)],
)

export type Category = typeof categories.$inferSelect
export type Product = typeof products.$inferSelect
export type Variant = typeof variants.$inferSelect
export type ProductImage = typeof productImages.$inferSelect
