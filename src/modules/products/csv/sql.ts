/**
 * The catalog CSV's raw SQL (db/sql.ts): categories by id, and products page by page in rowid order
 * for the export; the store's live product count for the dry run's plan cap.
 */
import type { Database } from 'bun:sqlite'

export const categoriesOfStore = (client: Database, storeId: string) =>
  client
    .query<{ id: string; name: string; slug: string }, [string]>(
      'SELECT id, name, slug FROM categories WHERE store_id = ?',
    )
    .all(storeId)

export interface ExportRow {
  rid: number
  id: string
  name: string
  slug: string
  description: string | null
  price: number
  comparePrice: number | null
  categoryId: string | null
  stock: number | null
  isActive: number
}

/** Up to `limit` live products of the store after rowid `after`: a page whose reads are consistent within it. */
export const productsAfter = (client: Database, storeId: string, after: number, limit: number): ExportRow[] =>
  client
    .query<ExportRow, [string, number, number]>(
      'SELECT rowid AS rid, id, name, slug, description, price, compare_price AS comparePrice, ' +
        'category_id AS categoryId, stock, is_active AS isActive FROM products WHERE store_id = ? ' +
        'AND deleted_at IS NULL AND rowid > ? ORDER BY rowid LIMIT ?',
    )
    .all(storeId, after, limit)

/** The store's live products: the dry run's starting count against the plan's cap. */
export const liveProductCount = (client: Database, storeId: string): number =>
  client
    .query<{ n: number }, [string]>('SELECT count(*) AS n FROM products WHERE store_id = ? AND deleted_at IS NULL')
    .get(storeId)!.n
