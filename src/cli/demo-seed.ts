/**
 * Seeds the demo store through the modules' verbs (same validation and caps as the API), and its
 * products' drawn pictures through the images service. Idempotent: what exists is kept.
 */
import { ctxFor, type Ctx } from '../kernel/context'
import type { Deps } from '../deps'
import { createCategory, listCategories } from '../modules/categories'
import { createDiscount, listDiscounts } from '../modules/discounts'
import { createKey, listKeys, revokeKey } from '../modules/keys'
import { createOwner, issueSignInLink } from '../modules/people'
import { createStore, getStore, type Store } from '../modules/platform-stores'
import { createProduct, getProduct, updateProduct, uploadImage } from '../modules/products'
import { productIdBySlug, storeBySlug } from '../modules/public-catalog'
import { createShipping, listShipping } from '../modules/shipping'
import { updateStoreSettings } from '../modules/store-settings'
import { picturePng } from './demo-pictures'
import {
  CATEGORIES,
  DEMO_DESCRIPTION,
  DEMO_DISCOUNT,
  DEMO_KEY_NAME,
  DEMO_OWNER_EMAIL,
  DEMO_SLUG,
  DEMO_WHATSAPP,
  PRODUCTS,
  SHIPPING,
} from './demo-catalog'

export interface DemoSeed {
  store: Store
  /** The new all-scopes key (shown once). */
  key: string
  /** Whether the store was created by this run (false: reused). */
  created: boolean
  productIds: string[]
  /** A variant and a shipping option for the public order example. */
  exampleVariantId: string
  shippingOptionId: string
  discountCode: string
  /** A one-time sign-in link's token for the demo owner (each run retires the previous one). */
  signInToken: string
}

/**
 * Seeds the demo store through the services (same validation and caps as the API). Idempotent:
 * rows that exist (by slug, name or code) are kept; only missing ones are added.
 */
export function seedDemo(deps: Deps): DemoSeed {
  let created = false
  let store = storeBySlug({ ctx: deps, input: { slug: DEMO_SLUG } })
  if (!store) {
    store = createStore({
      ctx: deps,
      input: {
        name: 'Demo Coffee & Tea',
        slug: DEMO_SLUG,
        plan: 'pro',
        currency: 'USD',
        whatsapp: DEMO_WHATSAPP,
        description: DEMO_DESCRIPTION,
      },
    })
    created = true
  } else if (!store.description || !store.whatsappNumber) {
    // A demo store from an earlier version may lack them; its storefront page shows both.
    const input = {
      description: store.description || DEMO_DESCRIPTION,
      whatsappNumber: store.whatsappNumber || DEMO_WHATSAPP,
    }
    updateStoreSettings({ ctx: ctxFor(deps, store), input })
    store = getStore({ ctx: deps, input: { id: store.id } })!
  }
  const ctx = ctxFor(deps, store)

  const categoryIds = new Map<string, string>()
  const categoriesNow = everyPage((page) => listCategories({ ctx, input: { ...page, isActive: 'all' } }))
  for (const [i, name] of CATEGORIES.entries()) {
    const slug = name.toLowerCase()
    const existing = categoriesNow.find((c) => c.slug === slug)
    categoryIds.set(name, existing?.id ?? createCategory({ ctx, input: { name, slug, position: i } }).id)
  }

  const productIds: string[] = []
  for (const p of PRODUCTS) {
    const slug = p.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    productIds.push(
      productIdBySlug({ ctx, input: { storeId: store.id, slug } }) ??
        createProduct({
          ctx,
          input: {
            name: p.name,
            slug,
            description: p.description,
            price: p.price,
            comparePrice: p.comparePrice ?? null,
            // The picture is an upload (seedDemoPictures): imageUrl then follows the first image.
            imageUrl: null,
            categoryId: categoryIds.get(p.category)!,
            stock: p.stock ?? null,
            variants: p.variants.map(([name, price, stock]) => ({ name, price, stock: stock ?? null })),
          },
        }).id,
    )
  }

  let shippingOptionId = ''
  const shippingNow = everyPage((page) => listShipping({ ctx, input: { ...page, isActive: 'all' } }))
  for (const s of SHIPPING) {
    const id = (shippingNow.find((o) => o.name === s.name) ?? createShipping({ ctx, input: s })).id
    shippingOptionId ||= id
  }
  const discountsNow = everyPage((page) => listDiscounts({ ctx, input: { ...page, isActive: 'all' } }))
  const code = DEMO_DISCOUNT.code.toUpperCase()
  if (!discountsNow.some((d) => d.code.toUpperCase() === code))
    createDiscount({ ctx, input: { code: DEMO_DISCOUNT.code, type: DEMO_DISCOUNT.type, value: DEMO_DISCOUNT.percent } })

  // A key is stored hashed and shown once, so each run issues a new one and retires the old.
  for (const k of listKeys({ ctx: deps, input: { storeId: store.id } }))
    if (k.name === DEMO_KEY_NAME && !k.revokedAt) revokeKey({ ctx: deps, input: { id: k.id } })
  deps.cache.invalidateKeys()
  const { key } = createKey({ ctx: deps, input: { storeId: store.id, scopes: ['all'], name: DEMO_KEY_NAME } })

  // The panel's owner: no password (the link signs in; set one on the account page), made once.
  const owner = createOwner({
    ctx: deps,
    input: { storeId: store.id, email: DEMO_OWNER_EMAIL, name: 'Demo Owner', passwordHash: null },
  })
  const signInToken = issueSignInLink({ ctx: deps, input: { userId: owner.id, createdBy: 'cli' } }).token

  const exampleVariantId = getProduct({ ctx, input: { id: productIds[0]! } }).variants[0]!.id
  return {
    store,
    key,
    created,
    productIds,
    exampleVariantId,
    shippingOptionId,
    discountCode: DEMO_DISCOUNT.code,
    signInToken,
  }
}

/** Every row of a paged list verb (a page holds at most 100). */
function everyPage<T>(list: (page: { limit: number; offset: number }) => { data: T[]; total: number }): T[] {
  const rows: T[] = []
  for (let offset = 0; ; offset += 100) {
    const { data, total } = list({ limit: 100, offset })
    rows.push(...data)
    if (data.length === 0 || rows.length >= total) return rows
  }
}

/** An earlier demo set pictures on another host, which the storefront does not show (CSP). */
const OLD_DEMO_IMAGES = 'https://images.example.com/demo/'

/**
 * Gives each demo product without an image a drawn picture (demo-pictures.ts), uploaded
 * through the images service like any seller's upload. Idempotent: a product that has an image
 * keeps it. Returns how many were uploaded.
 */
export async function seedDemoPictures(deps: Deps, seed: DemoSeed): Promise<number> {
  const ctx: Ctx = ctxFor(deps, seed.store)
  let uploaded = 0
  const jobs = PRODUCTS.map(async (p, i) => {
    const productId = seed.productIds[i]!
    const product = getProduct({ ctx, input: { id: productId } })
    if (product.imageUrl?.startsWith(OLD_DEMO_IMAGES)) updateProduct({ ctx, input: { id: productId, imageUrl: null } })
    if (product.images.length > 0) return
    const png = await picturePng(p.name, p.motif, i)
    await uploadImage({ ctx, input: { productId, file: new Blob([png], { type: 'image/png' }) } })
    uploaded++
  })
  await Promise.all(jobs)
  return uploaded
}
