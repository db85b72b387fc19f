/**
 * Product images: upload (check, re-encode off the event loop, store the files, then one
 * BEGIN IMMEDIATE insert), reorder and delete. How products show them: views.ts.
 */
import type { Database } from 'bun:sqlite'
import type { Ctx } from '../../../kernel/context'
import { createId } from '../../../lib/cuid'
import { Conflict, NotFound, PayloadTooLarge, ValidationError } from '../../../lib/errors'
import { capFor, enforceCap } from '../../plans'
import { ownProduct } from '../service'
import { write, type Fx } from '../../../kernel/write'
import { inResizeSlot, renditions } from './process'
import { removeImage, saveImage } from './storage'
import { imageView, type ImageRow, type ImageView } from './views'
import { deleteImageRow, imageRowsOf as rowsOf, insertImage, renumberImages } from './sql'

// ---------------------------------------------------------------------------------------------
// Writes. Each check-then-write is one BEGIN IMMEDIATE transaction (kernel/write.ts): the count
// against the cap and the position an upload takes can't interleave with another upload, and
// the unique (product_id, position) index would refuse it if they did.

// Drizzle's transaction object has no $client: raw statements (sql.ts) go through ctx.db's
// connection, which is the one holding the transaction.

/** Free plan: 403 PLAN_REQUIRED at its cap; at the ceiling every plan shares: 409 LIMIT_REACHED. */
function checkCap(ctx: Ctx, current: number): void {
  const limit = capFor(ctx.config, ctx.store.plan, 'productImages')
  if (current < limit) return
  if (limit < ctx.config.maxProductImages) enforceCap(ctx, 'productImages', current + 1, current)
  throw new Conflict('LIMIT_REACHED', `A product has at most ${limit} images`, { limit })
}

/** Rewrites positions to 0..n-1 in `ids` order (sql.ts). */
function renumber(db: Database, fx: Fx, productId: string, ids: string[]): void {
  fx.productsChanged([productId])
  renumberImages(db, productId, ids)
}

export async function uploadImage({
  ctx,
  input: { productId, file, path },
}: {
  ctx: Ctx
  /** `path`: where `file` is on disk (a staged upload); without it the bytes are read into memory. */
  input: { productId: string; file: Blob | undefined; path?: string }
}): Promise<ImageView> {
  ownProduct(ctx, productId)
  if (!(file instanceof Blob))
    throw new ValidationError('file', 'required', "Send the image as the multipart/form-data field 'file'")
  if (file.size > ctx.config.mediaMaxBytes) throw new PayloadTooLarge(ctx.config.mediaMaxBytes)
  // Refused early without decoding when the cap is already reached; checked again when writing.
  checkCap(ctx, rowsOf(ctx.db.$client, productId).length)
  // Inside the slot: a waiting upload (a disk-backed Blob) holds no memory, and a staged one is
  // never read into it at all — sharp reads the file and the original is copied on disk.
  const { original, made } = await inResizeSlot(ctx.store.id, async () => {
    const original = path ?? new Uint8Array(await file.arrayBuffer())
    return { original, made: await renditions(original, ctx.config.mediaMaxPixels) }
  })
  const id = createId()
  const { dataDir } = ctx.config
  const widths = made.map((r) => r.width)
  await saveImage(dataDir, ctx.store.id, id, original, made)
  try {
    const largest = made[made.length - 1]!
    const row = write(ctx, (_tx, fx) => {
      ownProduct(ctx, productId)
      const position = rowsOf(ctx.db.$client, productId).length
      checkCap(ctx, position)
      const r: ImageRow = {
        id,
        storeId: ctx.store.id,
        productId,
        position,
        width: largest.width,
        height: largest.height,
        widths: widths.join(','),
      }
      insertImage(ctx.db.$client, r, ctx.clock.now())
      fx.productsChanged([productId])
      return r
    })
    return imageView(row, ctx.config.publicUrl)
  } catch (err) {
    await removeImage(dataDir, ctx.store.id, id, widths)
    throw err
  }
}

function ownImage(ctx: Ctx, productId: string, imageId: string): ImageRow[] {
  ownProduct(ctx, productId)
  const rows = rowsOf(ctx.db.$client, productId)
  if (!rows.some((r) => r.id === imageId)) throw new NotFound('Image')
  return rows
}

/** Moves an image to `position` (0 = first); the others keep their order around it. */
export function moveImage({
  ctx,
  input: { productId, imageId, position },
}: {
  ctx: Ctx
  input: { productId: string; imageId: string; position: number }
}): ImageView {
  const moved = write(ctx, (_tx, fx) => {
    const rows = ownImage(ctx, productId, imageId)
    if (position > rows.length - 1)
      throw new ValidationError('position', 'out_of_range', `position must be between 0 and ${rows.length - 1}`, {
        max: rows.length - 1,
      })
    const ids = rows.map((r) => r.id).filter((id) => id !== imageId)
    ids.splice(position, 0, imageId)
    renumber(ctx.db.$client, fx, productId, ids)
    return { ...rows.find((r) => r.id === imageId)!, position }
  })
  return imageView(moved, ctx.config.publicUrl)
}

/** Deletes the row (the rest close up), then its files: a URL that answered once now answers 404. */
export async function deleteImage({
  ctx,
  input: { productId, imageId },
}: {
  ctx: Ctx
  input: { productId: string; imageId: string }
}) {
  const gone = write(ctx, (_tx, fx) => {
    const rows = ownImage(ctx, productId, imageId)
    deleteImageRow(ctx.db.$client, imageId)
    renumber(
      ctx.db.$client,
      fx,
      productId,
      rows.filter((r) => r.id !== imageId).map((r) => r.id),
    )
    return rows.find((r) => r.id === imageId)!
  })
  await removeImage(ctx.config.dataDir, ctx.store.id, imageId, gone.widths.split(',').map(Number))
  return { id: imageId, deleted: true as const }
}
