/** A product as the API shows it: major units, its active variants and its pictures. */
import type { Product } from '../../db/schema'
import { toMajor, toMajorOrNull } from '../../lib/money'
import { iso } from '../../lib/time'
import type { ImageView } from './images/views'
import type { VariantFields } from './sql'

const variantView = (v: VariantFields, currency: string) => ({
  id: v.id,
  name: v.name,
  price: toMajor(v.price, currency),
  isActive: v.isActive,
  stock: v.stock,
  inStock: v.stock === null || v.stock > 0,
})

/** `vs`: the product's active variants; `imgs`: its images by position (images/service.ts). */
export function productView(p: Product, vs: VariantFields[], currency: string, imgs: ImageView[] = []) {
  const variantViews = vs.filter((v) => v.isActive).map((v) => variantView(v, currency))
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    description: p.description,
    price: toMajor(p.price, currency),
    comparePrice: toMajorOrNull(p.comparePrice, currency),
    imageUrl: p.imageUrl ?? imgs[0]?.url ?? null,
    images: imgs,
    isActive: p.isActive,
    stock: p.stock,
    // A product with variants is sold through them (checkout refuses its bare productId).
    inStock: variantViews.length > 0 ? variantViews.some((v) => v.inStock) : p.stock === null || p.stock > 0,
    categoryId: p.categoryId,
    variants: variantViews,
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
  }
}
