/**
 * The image rows the media lifecycle reads: whether a served picture still belongs to a live
 * product, and which pictures of deleted products are past their retention.
 */
import type { Database } from 'bun:sqlite'

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
  const rows = db.query<{ id: string }, string[]>(`SELECT id FROM stores WHERE id IN (${ids.map(() => '?').join(', ')})`).all(...ids)
  return new Set(rows.map((r) => r.id))
}
