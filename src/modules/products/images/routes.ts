import { Elysia, t } from 'elysia'
import { products } from '../../../db/schema'
import { access } from '../../../plugins/access'
import { data, Deleted, ErrorBody, Id, routeDoc, withConflict, withNotFound } from '../../shared/model'
import { ProductImage } from './model'
import { deleteImage, moveImage, uploadImage } from './service'

const doc = routeDoc('Catalog')
const write = { scope: 'products:write', owns: products } as const
const ImageParams = t.Object({ id: Id, imageId: Id })

/**
 * Upload, reorder, delete. The upload body is `multipart/form-data` parsed by Elysia itself;
 * the gate lets this one route past the 1 MiB body limit up to MEDIA_MAX_BYTES (limits.ts).
 */
export const imageRoutes = new Elysia({ prefix: '/api/v1/products/:id/images' })
    .use(access)
    .post(
      '',
      async ({ ctx, params, body, set }) => {
        const image = await uploadImage(ctx, params.id, body.file)
        set.status = 201
        return { data: image }
      },
      {
        access: { ...write, upload: true },
        params: t.Object({ id: Id }),
        parse: 'multipart/form-data',
        body: t.Object({ file: t.File({ description: 'JPEG, PNG or WebP (recognised by content), at most MEDIA_MAX_BYTES (8 MiB) and MEDIA_MAX_PIXELS (40 MP)' }) }),
        response: { 201: data(ProductImage), ...withConflict, 413: ErrorBody },
        detail: doc(
          'Upload a product image',
          ' Stored re-encoded as WebP at up to 320/640/1280 px wide, metadata (EXIF, GPS) removed, orientation applied; it takes the next position. Free plan: 3 images per product (403 PLAN_REQUIRED `productImages`); every plan: 10 (409 LIMIT_REACHED). Not an image → 400 `details.field: "file"`.',
        ),
      },
    )
    .put('/:imageId', ({ ctx, params, body }) => ({ data: moveImage(ctx, params.id, params.imageId, body.position) }), {
      access: write,
      params: ImageParams,
      body: t.Object({ position: t.Number({ multipleOf: 1, minimum: 0, maximum: 1000, description: 'New place, 0 = first; the others keep their order' }) }),
      response: { 200: data(ProductImage), ...withNotFound },
      detail: doc('Move a product image to another position'),
    })
    .delete('/:imageId', async ({ ctx, params }) => ({ data: await deleteImage(ctx, params.id, params.imageId) }), {
      access: write,
      params: ImageParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Delete a product image and its files'),
    })
