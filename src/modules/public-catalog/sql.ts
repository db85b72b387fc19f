/**
 * The public store read's SQL as raw bun:sqlite statements: built with Drizzle, the six queries
 * of one catalog cost more CPU to build and map than to run (docs/decisions/001, 006). Row
 * types are the schema's (`columns` names columns by key; `booleans` maps 0/1
 * to booleans as Drizzle does).
 */
import type { Database } from 'bun:sqlite'
import { booleans, columns } from '../../db/sql'
import {
  categories,
  products,
  shippingOptions,
  stores,
  type Category,
  type Product,
  type ShippingOption,
  type Store,
} from '../../db/schema'

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

/** A live (not deleted) product's id by its slug in the store, active or not. */
export const productIdBySlugRow = (client: Database, storeId: string, slug: string): string | undefined =>
  client
    .query<{ id: string }, [string, string]>(
      'SELECT id FROM products WHERE store_id = ? AND slug = ? AND deleted_at IS NULL',
    )
    .get(storeId, slug)?.id

export const activeCategories = (client: Database, storeId: string): Pick<Category, (typeof CATEGORY_KEYS)[number]>[] =>
  client
    .query<Pick<Category, (typeof CATEGORY_KEYS)[number]>, [string]>(
      `SELECT ${CATEGORY_FIELDS} FROM categories WHERE store_id = ? AND is_active = 1 ORDER BY position, created_at`,
    )
    .all(storeId)

/**
 * Active, not deleted, newest first; products made in the same millisecond in the order they were
 * made (rowid), as the API's product list — not by their random ids.
 */
export function activeProducts(client: Database, storeId: string): Product[] {
  const rows = client
    .query<Product, [string]>(
      `SELECT ${PRODUCT_FIELDS} FROM products WHERE store_id = ? AND is_active = 1 ` +
        'AND deleted_at IS NULL ORDER BY created_at DESC, rowid DESC',
    )
    .all(storeId)
  for (const r of rows) productRow(r)
  return rows
}

/** The ids of `activeProducts`, in its order. */
export const activeProductIds = (client: Database, storeId: string): string[] =>
  client
    .query<{ id: string }, [string]>(
      'SELECT id FROM products WHERE store_id = ? AND is_active = 1 AND deleted_at IS NULL ' +
        'ORDER BY created_at DESC, rowid DESC',
    )
    .all(storeId)
    .map((r) => r.id)

/** Approved-review count and mean rating per product of the store. */
export const reviewStatsRows = (client: Database, storeId: string) =>
  client
    .query<{ productId: string; n: number; avg: number }, [string]>(
      'SELECT product_id AS productId, count(*) AS n, avg(rating) AS avg FROM reviews WHERE store_id = ? ' +
        "AND status = 'approved' GROUP BY product_id",
    )
    .all(storeId)

export const activeShipping = (
  client: Database,
  storeId: string,
): Pick<ShippingOption, (typeof SHIPPING_KEYS)[number]>[] =>
  client
    .query<Pick<ShippingOption, (typeof SHIPPING_KEYS)[number]>, [string]>(
      `SELECT ${SHIPPING_FIELDS} FROM shipping_options WHERE store_id = ? AND is_active = 1 ORDER BY price, created_at`,
    )
    .all(storeId)

// ── Catalog visits (visits.ts): written behind in batches, raw rows pruned after the rollup keeps them.

/** One batch of counted visits, in one IMMEDIATE transaction. */
export function insertVisits(
  db: Database,
  items: readonly (readonly [storeId: string, at: number, count: number])[],
): void {
  const insert = db.query('INSERT INTO catalog_visits (store_id, created_at, count) VALUES (?1, ?2, ?3)')
  db.transaction(() => {
    for (const [storeId, at, count] of items) insert.run(storeId, at, count)
  }).immediate()
}

/** The id that ends the next prune batch of `size` raw rows before the cutoff; undefined when none is left. */
export function visitBatchEnd(db: Database, cutoff: number, size: number): number | undefined {
  const last = db
    .query<{ id: number }, [number, number]>(
      'SELECT id FROM catalog_visits WHERE created_at < ?1 ORDER BY id LIMIT 1 OFFSET ?2',
    )
    .get(cutoff, size - 1)?.id
  return (
    last ??
    db
      .query<{ id: number | null }, [number]>('SELECT max(id) AS id FROM catalog_visits WHERE created_at < ?1')
      .get(cutoff)?.id ??
    undefined
  )
}

/**
 * Deletes raw visits up to `upTo` before the cutoff, keeping the rollup: the delete trigger takes
 * each row off `visit_stats_daily`, so the same counts are added back first, in the same transaction.
 */
export function pruneVisitBatch(db: Database, upTo: number, cutoff: number): number {
  const keep = db.query(
    `UPDATE visit_stats_daily SET visits = visits + d.n
     FROM (SELECT store_id, created_at / 86400000 AS day, SUM(count) AS n FROM catalog_visits WHERE id <= ?1
     AND created_at < ?2 GROUP BY 1, 2) AS d
     WHERE visit_stats_daily.store_id = d.store_id AND visit_stats_daily.day = d.day`,
  )
  const remove = db.query('DELETE FROM catalog_visits WHERE id <= ?1 AND created_at < ?2')
  return db
    .transaction(() => {
      keep.run(upTo, cutoff)
      return remove.run(upTo, cutoff).changes
    })
    .immediate()
}
