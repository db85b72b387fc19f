/** The view types the shop's pages render (what the public catalog read returns). */
import type { Words } from '../i18n'

export interface ViewImage {
  url: string
  width?: number | null
  height?: number | null
  /** The same picture at other widths (e.g. 320/640/1280 WebP), for `srcset`. */
  sizes?: { url: string; width: number }[]
}
export interface ViewVariant {
  id: string
  name: string
  price: number
  inStock?: boolean
}
export interface ViewProduct {
  id: string
  name: string
  slug: string
  description: string | null
  price: number
  comparePrice: number | null
  imageUrl: string | null
  categoryId: string | null
  variants: ViewVariant[]
  reviewCount: number
  averageRating: number | null
  inStock?: boolean
  images?: ViewImage[]
}
export interface ViewStore {
  id: string
  name: string
  slug: string
  description: string | null
  currency: string
  whatsappNumber: string | null
}
export interface ViewCatalog {
  store: ViewStore
  categories: { id: string; name: string; slug: string }[]
  products: ViewProduct[]
  shippingOptions: {
    id: string
    name: string
    price: number
    description: string | null
    estimatedDays: number | null
  }[]
}

/** What every page needs besides its data: words, the absolute origin for links and tags. */
export interface PageCtx {
  words: Words
  language: string
  origin: string
}
