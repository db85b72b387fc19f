/**
 * GET /media/<storeId>/<imageId>-<width>.webp: the public image files. A name is a new upload's
 * id, so its bytes never change: cached for a year as immutable. Only names of the exact form
 * this module writes are looked up (storage.ts), matched on the raw path before any decoding:
 * `..`, encoded or not, a slash inside a segment or another directory can't name a file; and
 * the file must be a plain one whose real path is under the media folder (no links followed).
 */
import { Elysia } from 'elysia'
import type { Config } from '../../../config'
import type { Db } from '../../../db/client'
import { NotFound } from '../../../lib/errors'
import { liveImage } from './sql'
import { realServedFile, servedFile } from './storage'

const HEADERS = {
  'content-type': 'image/webp',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
}

export const mediaRoutes = (deps: { config: Config; db: Db }) =>
  new Elysia({ name: 'media' }).get(
    '/media/*',
    async ({ request }) => {
      const url = request.url
      const start = url.indexOf('/media/', url.indexOf('//') + 2) + '/media/'.length
      const q = url.indexOf('?', start)
      const name = servedFile(deps.config.dataDir, url.slice(start, q === -1 ? undefined : q))
      // A soft-deleted product's pictures (or a removed store's) stop being served at once; the
      // files go later (products/images/prune.ts).
      if (!name || !liveImage(deps.db.$client, name.storeId, name.imageId)) throw new NotFound('Image')
      const file = realServedFile(deps.config.dataDir, name.file)
      if (!file) throw new NotFound('Image')
      return new Response(Bun.file(file), { headers: HEADERS })
    },
    // Not an API operation (and `/media/*` is no OpenAPI path template): the URLs come from `images`.
    { detail: { hide: true } },
  )
