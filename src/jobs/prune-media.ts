/**
 * The media lifecycle: pictures of a soft-deleted
 * product stop being served at once (images/media.ts) and leave the disk, with their rows,
 * MEDIA_RETENTION_DAYS later — long enough for an operator to take a mistaken delete back from
 * DATA_DIR before the nightly backups rotate it out. A store whose rows are gone loses its media
 * at the next run.
 */
import type { Database } from 'bun:sqlite'
import { deleteImageRow, existingStoreIds, imagesOfDeletedProducts } from '../modules/products'
import { removeImage, removeStoreMedia, storesWithMedia } from '../modules/products'

export const MEDIA_RETENTION_DAYS = 30

export async function pruneMedia(
  db: Database,
  dataDir: string,
  now: number,
): Promise<{ images: number; stores: number }> {
  const expired = imagesOfDeletedProducts(db, now - MEDIA_RETENTION_DAYS * 86_400_000)
  for (const img of expired) {
    // Files first: a crash in between leaves a row without files (served as 404), never files without a row.
    await removeImage(dataDir, img.storeId, img.id, img.widths.split(',').map(Number))
    deleteImageRow(db, img.id)
  }
  const withMedia = storesWithMedia(dataDir)
  const live = existingStoreIds(db, withMedia)
  const gone = withMedia.filter((id) => !live.has(id))
  for (const id of gone) await removeStoreMedia(dataDir, id)
  return { images: expired.length, stores: gone.length }
}
