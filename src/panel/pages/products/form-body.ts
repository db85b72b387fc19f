/**
 * The new-product form's body, read by its handler (the route streams, so files never sit in
 * memory): a browser's multipart body with the picked pictures staged to disk, or a plain
 * url-encoded form (a client that sends no pictures), read up to the panel's usual 1 MiB.
 */
import { readLimited } from '../../../http/body-limit'
import { stageUploads, type StagedParts } from '../../../modules/products'
import { PANEL_MAX_BODY } from '../../gate'
import { MAX_VARIANT_ROWS } from './form'

/** ~8 fields and 5 per variant row, a 10,000-character description; all of them the panel's 1 MiB. */
const FORM_TEXT = { count: 16 + 5 * MAX_VARIANT_ROWS, size: 40_000, total: PANEL_MAX_BODY }

/** A url-encoded form's text, read up to the panel's 1 MiB (PayloadTooLarge past it). */
const formText = async (request: Request) =>
  request.body ? new TextDecoder().decode(await readLimited(request.body, PANEL_MAX_BODY)) : ''

export async function readNewProductBody(
  request: Request,
  config: { dataDir: string; mediaMaxBytes: number; maxProductImages: number },
): Promise<StagedParts> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase()
  if (type.startsWith('multipart/form-data'))
    return stageUploads(request, config.dataDir, config.mediaMaxBytes, config.maxProductImages, FORM_TEXT)
  const fields = Object.fromEntries(new URLSearchParams(await formText(request)))
  return { files: [], fields, remove: async () => {} }
}
