/**
 * The media lifecycle: pictures of a soft-deleted
 * product stop being served at once (images/media.ts) and leave the disk, with their rows,
 * MEDIA_RETENTION_DAYS later — long enough for an operator to take a mistaken delete back from
 * DATA_DIR before the nightly backups rotate it out. A store whose rows are gone loses its media
 * at the next run.
 */
import type { OperatorCtx } from '../../../kernel/context'
import { deleteImageRow, existingStoreIds, imagesOfDeletedProducts } from './sql'
import { removeImage, removeStoreMedia, storesWithMedia } from './storage'

export const MEDIA_RETENTION_DAYS = 30

/** The prune job's media pass. Takes the operator's ctx. */
export async function pruneMedia({
  ctx,
  input,
}: {
  ctx: OperatorCtx
  input: { dataDir: string }
}): Promise<{ images: number; stores: number }> {
  const db = ctx.db.$client
  const now = ctx.clock.now()
  const { dataDir } = input
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
