/**
 * The pictures module's SQL (db/sql.ts): a product's rows in order, the insert and renumbering
 * an upload, move or delete makes inside its write, many products' rows for the views, and what
 * the media lifecycle reads — whether a served picture still belongs to a live product, and which
 * pictures of deleted products are past their retention.
 */
import type { Database } from 'bun:sqlite'
import { placeholders } from '../../../db/sql'

/** A picture's row: its renditions' widths as a comma-separated list. */
export interface ImageRow {
  id: string
  storeId: string
  productId: string
  position: number
  width: number
  height: number
  widths: string
}

const IMAGE_FIELDS = 'id, store_id AS storeId, product_id AS productId, position, width, height, widths'

/** A product's pictures, by position. */
export const imageRowsOf = (db: Database, productId: string): ImageRow[] =>
  db
    .query<ImageRow, [string]>(`SELECT ${IMAGE_FIELDS} FROM product_images WHERE product_id = ? ORDER BY position`)
    .all(productId)

/**
 * Many products' pictures in one query, by product then position;
 * the ids go in as one JSON array, so the text never changes.
 */
export const imageRowsOfProducts = (db: Database, productIds: string[]): ImageRow[] =>
  db
    .query<ImageRow, [string]>(
      `SELECT ${IMAGE_FIELDS} FROM product_images WHERE product_id IN (SELECT value FROM json_each(?)) ` +
        'ORDER BY product_id, position',
    )
    .all(JSON.stringify(productIds))

export function insertImage(db: Database, r: ImageRow, at: number): void {
  db.query(
    'INSERT INTO product_images (id, store_id, product_id, position, width, height, widths, created_at) ' +
      'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(r.id, r.storeId, r.productId, r.position, r.width, r.height, r.widths, at)
}

/**
 * Rewrites positions to 0..n-1 in `ids` order, through negatives
 * so the unique (product_id, position) index never sees a clash.
 */
export function renumberImages(db: Database, productId: string, ids: string[]): void {
  db.query('UPDATE product_images SET position = -1 - position WHERE product_id = ?').run(productId)
  const set = db.query('UPDATE product_images SET position = ? WHERE id = ?')
  ids.forEach((id, i) => set.run(i, id))
}

/** True while the image's row exists and its product is not deleted (the store row included). */
export function liveImage(db: Database, storeId: string, imageId: string): boolean {
  return (
    db
      .query<{ one: number }, [string, string]>(
        `SELECT 1 AS one FROM product_images i JOIN products p ON p.id = i.product_id
          WHERE i.id = ? AND i.store_id = ? AND p.deleted_at IS NULL`,
      )
      .get(imageId, storeId) !== null
  )
}

export interface ExpiredImage {
  id: string
  storeId: string
  widths: string
}

/** Pictures of products deleted before `before`. */
export function imagesOfDeletedProducts(db: Database, before: number): ExpiredImage[] {
  return db
    .query<ExpiredImage, [number]>(
      `SELECT i.id, i.store_id AS storeId, i.widths FROM product_images i JOIN products p ON p.id = i.product_id
        WHERE p.deleted_at IS NOT NULL AND p.deleted_at < ?`,
    )
    .all(before)
}

export function deleteImageRow(db: Database, id: string): void {
  db.run('DELETE FROM product_images WHERE id = ?', [id])
}

export function existingStoreIds(db: Database, ids: string[]): Set<string> {
  if (!ids.length) return new Set()
  const rows = db
    .query<{ id: string }, string[]>(`SELECT id FROM stores WHERE id IN (${placeholders(ids.length)})`)
    .all(...ids)
  return new Set(rows.map((r) => r.id))
}
