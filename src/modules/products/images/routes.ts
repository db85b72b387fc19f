import { Elysia, t } from 'elysia'
import { access } from '../../../plugins/access'
import { data, Deleted, ErrorBody, Id, routeDoc, withConflict, withNotFound } from '../../shared'
import { ImageMove, ProductImage } from './model'
import { deleteImage, moveImage, uploadImage } from './service'
import { stageUpload } from './staging'
import type { Config } from '../../../config'
import type { UploadAdmission } from './admission'

/**
 * What the picture routes reach besides `ctx`: where media go,
 * how big a file may be, and the per-store upload admission.
 */
export interface ImageRoutesPort {
  config: Pick<Config, 'dataDir' | 'mediaMaxBytes'>
  uploads: UploadAdmission
}

const doc = routeDoc('Catalog')
const write = { scope: 'products:write', owns: 'products' } as const
const ImageParams = t.Object({ id: Id, imageId: Id })

/**
 * Upload, reorder, delete. The upload takes a place among the uploads in flight before a byte
 * of its body is read (admission.ts: 429 + Retry-After past MEDIA_UPLOADS_PER_STORE), then its
 * file part streams to disk (staging.ts) instead of being parsed into memory; the gate lets
 * this one route past the 1 MiB body limit up to MEDIA_MAX_BYTES (limits.ts).
 */
export const imageRoutes = (port: ImageRoutesPort) =>
  new Elysia({ prefix: '/api/v1/products/:id/images' })
    .use(access)
    .post(
      '',
      async ({ ctx, params, request, set }) => {
        const release = port.uploads.admitRequest(ctx.store.id, request, set.headers)
        try {
          const staged = await stageUpload(request, port.config.dataDir, port.config.mediaMaxBytes)
          try {
            const image = await uploadImage({
              ctx,
              input: { productId: params.id, file: staged?.file, path: staged?.path },
            })
            set.status = 201
            return { data: image }
          } finally {
            await staged?.remove()
          }
        } finally {
          release()
        }
      },
      {
        access: { ...write, upload: true },
        params: t.Object({ id: Id }),
        // Read by stageUpload as a stream; the schema below is the document's.
        parse: 'none',
        response: { 201: data(ProductImage), ...withConflict, 413: ErrorBody, 429: ErrorBody },
        detail: {
          ...doc(
            'Upload a product image',
            ' Stored re-encoded as WebP at up to 320/640/1280 px wide, metadata (EXIF, GPS) removed, ' +
              'orientation applied; it takes the next position. Free plan: ' +
              '3 images per product (403 PLAN_REQUIRED `productImages`); every plan: ' +
              '10 (409 LIMIT_REACHED). Not an image → 400 `details.field: ' +
              '"file"`. At most MEDIA_UPLOADS_PER_STORE (2) uploads of one store in flight: ' +
              'beyond → 429 with Retry-After.',
          ),
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  required: ['file'],
                  properties: {
                    file: {
                      type: 'string',
                      format: 'binary',
                      description:
                        'JPEG, PNG or WebP (recognised by content), at most MEDIA_MAX_BYTES (8 MiB) and ' +
                        'MEDIA_MAX_PIXELS (40 MP)',
                    },
                  },
                },
              },
            },
          },
        },
      },
    )
    .put(
      '/:imageId',
      ({ ctx, params, body }) => ({
        data: moveImage({ ctx, input: { productId: params.id, imageId: params.imageId, position: body.position } }),
      }),
      {
        access: write,
        params: ImageParams,
        body: ImageMove,
        response: { 200: data(ProductImage), ...withNotFound },
        detail: doc('Move a product image to another position'),
      },
    )
    .delete(
      '/:imageId',
      async ({ ctx, params }) => ({
        data: await deleteImage({ ctx, input: { productId: params.id, imageId: params.imageId } }),
      }),
      {
        access: write,
        params: ImageParams,
        response: { 200: Deleted, ...withNotFound },
        detail: doc('Delete a product image and its files'),
      },
    )
