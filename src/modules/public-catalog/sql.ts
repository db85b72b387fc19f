/**
 * The public store read's SQL as raw bun:sqlite statements: built with Drizzle, the six queries
 * of one catalog cost more CPU to build and map than to run (docs/decisions/001, 006). Row
 * types are the schema's (`columns` names columns by key; `booleans` maps 0/1
 * to booleans as Drizzle does).
 */
import type { Database } from 'bun:sqlite'
import { booleans } from '../../db/sql'
import { columns } from '../../db/sql'
import { categories, products, shippingOptions, stores, type Category, type Product, type ShippingOption, type Store } from '../../db/schema'

const STORE_FIELDS = columns(stores)
const PRODUCT_FIELDS = columns(products)
const CATEGORY_KEYS = ['id', 'name', 'slug', 'position'] as const
const SHIPPING_KEYS = ['id', 'name', 'price', 'description', 'estimatedDays'] as const
const CATEGORY_FIELDS = columns(categories, CATEGORY_KEYS)
const SHIPPING_FIELDS = columns(shippingOptions, SHIPPING_KEYS)
const storeRow = booleans<Store>(stores)
const productRow = booleans<Product>(products)

export const storeBySlug = (client: Database, slug: string): Store | undefined => {
  const s = client.query<Store, [string]>(`SELECT ${STORE_FIELDS} FROM stores WHERE slug = ?`).all(slug)[0]
  return s && storeRow(s)
}

export const activeCategories = (client: Database, storeId: string): Pick<Category, (typeof CATEGORY_KEYS)[number]>[] =>
  client.query<Pick<Category, (typeof CATEGORY_KEYS)[number]>, [string]>(`SELECT ${CATEGORY_FIELDS} FROM categories WHERE store_id = ? AND is_active = 1 ORDER BY position, created_at`).all(storeId)

/** Active, not deleted, newest first. */
export function activeProducts(client: Database, storeId: string): Product[] {
  const rows = client.query<Product, [string]>(`SELECT ${PRODUCT_FIELDS} FROM products WHERE store_id = ? AND is_active = 1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC`).all(storeId)
  for (const r of rows) productRow(r)
  return rows
}

/** The ids of `activeProducts`, in its order. */
export const activeProductIds = (client: Database, storeId: string): string[] =>
  client
    .query<{ id: string }, [string]>('SELECT id FROM products WHERE store_id = ? AND is_active = 1 AND deleted_at IS NULL ORDER BY created_at DESC, id DESC')
    .all(storeId)
    .map((r) => r.id)

/** Approved-review count and mean rating per product of the store. */
export const reviewStatsRows = (client: Database, storeId: string) =>
  client.query<{ productId: string; n: number; avg: number }, [string]>("SELECT product_id AS productId, count(*) AS n, avg(rating) AS avg FROM reviews WHERE store_id = ? AND status = 'approved' GROUP BY product_id").all(storeId)

export const activeShipping = (client: Database, storeId: string): Pick<ShippingOption, (typeof SHIPPING_KEYS)[number]>[] =>
  client.query<Pick<ShippingOption, (typeof SHIPPING_KEYS)[number]>, [string]>(`SELECT ${SHIPPING_FIELDS} FROM shipping_options WHERE store_id = ? AND is_active = 1 ORDER BY price, created_at`).all(storeId)
