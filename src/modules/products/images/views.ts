/** Images as products show them: `images: [...]` by position, URLs under /media. */
import type { Db } from '../../../db/client'
import { mediaUrl } from './storage'
import { imageRowsOfProducts, type ImageRow } from './sql'

export type { ImageRow }

export interface ImageView {
  id: string
  url: string
  width: number
  height: number
  position: number
  sizes: { width: number; url: string }[]
}

export function imageView(r: ImageRow, publicUrl?: string): ImageView {
  const widths = r.widths.split(',').map(Number)
  const sizes = widths.map((w) => ({ width: w, url: mediaUrl(r.storeId, r.id, w, publicUrl) }))
  return { id: r.id, url: sizes[sizes.length - 1]!.url, width: r.width, height: r.height, position: r.position, sizes }
}

/**
 * The images of many products in one query, by position, grouped by product.
 */
export function imagesOf(db: Db, productIds: string[], publicUrl?: string): Map<string, ImageView[]> {
  const out = new Map<string, ImageView[]>()
  if (productIds.length === 0) return out
  for (const r of imageRowsOfProducts(db.$client, productIds)) {
    const list = out.get(r.productId)
    if (list) list.push(imageView(r, publicUrl))
    else out.set(r.productId, [imageView(r, publicUrl)])
  }
  return out
}
