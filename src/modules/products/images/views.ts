/** Images as products show them: `images: [...]` by position, URLs under /media. */
import type { Db } from '../../../db/client'
import { mediaUrl } from './storage'

export interface ImageView {
  id: string
  url: string
  width: number
  height: number
  position: number
  sizes: { width: number; url: string }[]
}

export interface ImageRow {
  id: string
  storeId: string
  productId: string
  position: number
  width: number
  height: number
  widths: string
}

export const IMAGE_FIELDS = 'id, store_id AS storeId, product_id AS productId, position, width, height, widths'

export function imageView(r: ImageRow, publicUrl?: string): ImageView {
  const widths = r.widths.split(',').map(Number)
  const sizes = widths.map((w) => ({ width: w, url: mediaUrl(r.storeId, r.id, w, publicUrl) }))
  return { id: r.id, url: sizes[sizes.length - 1]!.url, width: r.width, height: r.height, position: r.position, sizes }
}

/**
 * The images of many products in one query, by position, grouped by product. The ids go in as
 * one JSON array, so the statement text never changes and stays compiled.
 */
export function imagesOf(db: Db, productIds: string[], publicUrl?: string): Map<string, ImageView[]> {
  const out = new Map<string, ImageView[]>()
  if (productIds.length === 0) return out
  const rows = db.$client
    .query<ImageRow, [string]>(`SELECT ${IMAGE_FIELDS} FROM product_images WHERE product_id IN (SELECT value FROM json_each(?)) ORDER BY product_id, position`)
    .all(JSON.stringify(productIds))
  for (const r of rows) {
    const list = out.get(r.productId)
    if (list) list.push(imageView(r, publicUrl))
    else out.set(r.productId, [imageView(r, publicUrl)])
  }
  return out
}
