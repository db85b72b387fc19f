/**
 * The catalog's read SQL, as raw bun:sqlite statements: Drizzle's per-call query building
 * cost more than the queries (docs/decisions/001, 006): for a page of 50 products with 150
 * variants, ~560 µs of Drizzle select/count/variants against ~150 µs raw. Row types are the
 * schema's (`columns` names every column by its key, `booleans` maps 0/1 to booleans as
 * Drizzle does). Texts depend only on which filters are present, so bun:sqlite keeps each
 * compiled; ids go in as one JSON array for the same reason.
 */
import type { Database } from 'bun:sqlite'
import { booleans, columns } from '../../db/sql'
import { products, variants, type Product, type Variant } from '../../db/schema'

const PRODUCT_FIELDS = columns(products)
/** What a product's view shows of a variant (plus its product, to group by): fewer columns, cheaper rows. */
const VARIANT_KEYS = ['id', 'productId', 'name', 'price', 'isActive', 'stock'] as const
export type VariantFields = Pick<Variant, (typeof VARIANT_KEYS)[number]>
const VARIANT_FIELDS = columns(variants, VARIANT_KEYS)
const productRow = booleans<Product>(products)
const variantRow = booleans<VariantFields>(variants)

/** A store's live (not deleted) products, optionally by active flag and time bounds. */
export interface ProductFilter {
  storeId: string
  isActive?: boolean
  createdSince?: number
  updatedSince?: number
}

function whereOf(f: ProductFilter): { sql: string; params: (string | number)[] } {
  const parts = ['store_id = ?', 'deleted_at IS NULL']
  const params: (string | number)[] = [f.storeId]
  if (f.isActive !== undefined) parts.push('is_active = ?'), params.push(f.isActive ? 1 : 0)
  if (f.createdSince !== undefined) parts.push('created_at >= ?'), params.push(f.createdSince)
  if (f.updatedSince !== undefined) parts.push('updated_at >= ?'), params.push(f.updatedSince)
  return { sql: parts.join(' AND '), params }
}

/** One page, newest first; ties on createdAt (same millisecond) by insertion order, so pages are stable. */
export function pageOfProducts(client: Database, f: ProductFilter, limit: number, offset: number): Product[] {
  const w = whereOf(f)
  const rows = client
    .query<Product, (string | number)[]>(
      `SELECT ${PRODUCT_FIELDS} FROM products WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    )
    .all(...w.params, limit, offset)
  for (const r of rows) productRow(r)
  return rows
}

/** The ids of `pageOfProducts`'s page, in its order (the list's views come from cached fragments). */
export function pageOfProductIds(client: Database, f: ProductFilter, limit: number, offset: number): string[] {
  const w = whereOf(f)
  return client
    .query<{ id: string }, (string | number)[]>(
      `SELECT id FROM products WHERE ${w.sql} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`,
    )
    .all(...w.params, limit, offset)
    .map((r) => r.id)
}

/** Products by id, in no particular order. */
export function productsByIds(client: Database, ids: string[]): Product[] {
  const rows = client
    .query<Product, [string]>(`SELECT ${PRODUCT_FIELDS} FROM products WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids))
  for (const r of rows) productRow(r)
  return rows
}

export function countProducts(client: Database, f: ProductFilter): number {
  const w = whereOf(f)
  return client
    .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM products WHERE ${w.sql}`)
    .get(...w.params)!.n
}

/** Active variants of many products in one query (variants_product_idx), grouped by product, by position. */
export function activeVariantsOf(client: Database, productIds: string[]): Map<string, VariantFields[]> {
  const out = new Map<string, VariantFields[]>()
  if (productIds.length === 0) return out
  const rows = client
    .query<VariantFields, [string]>(
      `SELECT ${VARIANT_FIELDS} FROM variants WHERE product_id IN (SELECT value FROM json_each(?)) ` +
        'AND is_active = 1 ORDER BY product_id, position',
    )
    .all(JSON.stringify(productIds))
  for (const v of rows) {
    variantRow(v)
    const list = out.get(v.productId)
    if (list) list.push(v)
    else out.set(v.productId, [v])
  }
  return out
}

/** One product by id, deleted or not (the caller decides). */
export function productById(client: Database, id: string): Product | undefined {
  const r = client.query<Product, [string]>(`SELECT ${PRODUCT_FIELDS} FROM products WHERE id = ?`).all(id)[0]
  return r && productRow(r)
}
