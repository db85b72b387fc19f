import { t } from 'elysia'
import { Id } from '../../shared'

export const ProductImage = t.Object(
  {
    id: Id,
    url: t.String({
      description: 'Path of the largest WebP rendition under /media (immutable: a new upload gets a new URL)',
    }),
    width: t.Number({ multipleOf: 1, description: 'Pixels, of the image `url` names' }),
    height: t.Number({ multipleOf: 1 }),
    position: t.Number({ multipleOf: 1, minimum: 0, description: '0 is the first image' }),
    sizes: t.Array(t.Object({ width: t.Number({ multipleOf: 1 }), url: t.String() }), {
      description: 'Every WebP rendition, narrowest first (for srcset)',
    }),
  },
  { title: 'ProductImage' },
)

/** PUT /api/v1/products/:id/images/:imageId (and the panel's "Move earlier/later"). */
export const ImageMove = t.Object({
  position: t.Number({
    multipleOf: 1,
    minimum: 0,
    maximum: 1000,
    description: 'New place, 0 = first; the others keep their order',
  }),
})
