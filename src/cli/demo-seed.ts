/**
 * Seeds the demo store through the services (same validation and caps as the API), and its
 * products' drawn pictures through the images service. Idempotent: what exists is kept.
 */
import { and, eq, isNull, like } from 'drizzle-orm'
import { ctxFor } from '../kernel/context'
import type { Deps } from '../deps'
import {
  apiKeys,
  categories,
  discounts,
  productImages,
  products,
  shippingOptions,
  stores,
  variants,
  type Store,
} from '../db/schema'
import { toMinor } from '../lib/money'
import { createCategory } from '../modules/categories'
import { createKey } from '../modules/keys'
import { createProduct, uploadImage } from '../modules/products'
import { createStore } from '../modules/platform-stores'
import { createOwner, issueSignInLink } from '../modules/people'
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
  const { db, clock } = deps
  let created = false
  let store = db.select().from(stores).where(eq(stores.slug, DEMO_SLUG)).get()
  if (!store) {
    store = createStore({
      ctx: { db, clock },
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
    store = db
      .update(stores)
      .set({
        description: store.description || DEMO_DESCRIPTION,
        whatsappNumber: store.whatsappNumber || DEMO_WHATSAPP,
        updatedAt: clock.now(),
      })
      .where(eq(stores.id, store.id))
      .returning()
      .get()!
  }
  const ctx = ctxFor(deps, store)

  const categoryIds = new Map<string, string>()
  for (const [i, name] of CATEGORIES.entries()) {
    const slug = name.toLowerCase()
    const existing = db
      .select({ id: categories.id })
      .from(categories)
      .where(and(eq(categories.storeId, store.id), eq(categories.slug, slug)))
      .get()
    categoryIds.set(name, existing?.id ?? createCategory({ ctx, input: { name, slug, position: i } }).id)
  }

  const productIds: string[] = []
  for (const p of PRODUCTS) {
    const slug = p.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    const existing = db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.storeId, store.id), eq(products.slug, slug), isNull(products.deletedAt)))
      .get()
    productIds.push(
      existing?.id ??
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

  // Shipping options and the discount are plain rows; written directly so the demo does not
  // depend on those modules' request shapes. Money in minor units, like every service writes it.
  const now = clock.now()
  let shippingOptionId = ''
  for (const s of SHIPPING) {
    const existing = db
      .select({ id: shippingOptions.id })
      .from(shippingOptions)
      .where(and(eq(shippingOptions.storeId, store.id), eq(shippingOptions.name, s.name)))
      .get()
    const id =
      existing?.id ??
      db
        .insert(shippingOptions)
        .values({
          storeId: store.id,
          name: s.name,
          price: toMinor(s.price, store.currency, 'price'),
          description: s.description,
          estimatedDays: s.estimatedDays,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: shippingOptions.id })
        .get().id
    shippingOptionId ||= id
  }
  const codeKey = DEMO_DISCOUNT.code.toUpperCase()
  if (
    !db
      .select({ id: discounts.id })
      .from(discounts)
      .where(and(eq(discounts.storeId, store.id), eq(discounts.codeKey, codeKey)))
      .get()
  ) {
    // percentage values are stored in hundredths of a percent (1000 = 10 %).
    db.insert(discounts)
      .values({
        storeId: store.id,
        code: DEMO_DISCOUNT.code,
        codeKey,
        type: DEMO_DISCOUNT.type,
        value: DEMO_DISCOUNT.percent * 100,
        createdAt: now,
        updatedAt: now,
      })
      .run()
  }
  deps.cache.invalidate(store.id)

  // A key is stored hashed and shown once, so each run issues a new one and retires the old.
  db.update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.storeId, store.id), eq(apiKeys.name, DEMO_KEY_NAME), isNull(apiKeys.revokedAt)))
    .run()
  deps.cache.invalidateKeys()
  const { key } = createKey({ ctx: { db, clock }, input: { storeId: store.id, scopes: ['all'], name: DEMO_KEY_NAME } })

  // The panel's owner: no password (the link signs in; set one on the account page), made once.
  const owner = createOwner({
    ctx: deps,
    input: { storeId: store.id, email: DEMO_OWNER_EMAIL, name: 'Demo Owner', passwordHash: null },
  })
  const signInToken = issueSignInLink({ ctx: deps, input: { userId: owner.id, createdBy: 'cli' } }).token

  const exampleVariantId = db
    .select({ id: variants.id })
    .from(variants)
    .where(and(eq(variants.productId, productIds[0]!), eq(variants.isActive, true)))
    .get()!.id
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

/** An earlier demo set pictures on another host, which the storefront does not show (CSP). */
const OLD_DEMO_IMAGES = 'https://images.example.com/demo/%'

/**
 * Gives each demo product without an image a drawn picture (demo-pictures.ts), uploaded
 * through the images service like any seller's upload. Idempotent: a product that has an image
 * keeps it. Returns how many were uploaded.
 */
export async function seedDemoPictures(deps: Deps, seed: DemoSeed): Promise<number> {
  const { db } = deps
  const ctx = ctxFor(deps, seed.store)
  let uploaded = 0
  const jobs = PRODUCTS.map(async (p, i) => {
    const productId = seed.productIds[i]!
    if (db.select({ id: productImages.id }).from(productImages).where(eq(productImages.productId, productId)).get())
      return
    const png = await picturePng(p.name, p.motif, i)
    await uploadImage({ ctx, input: { productId, file: new Blob([png], { type: 'image/png' }) } })
    uploaded++
  })
  await Promise.all(jobs)
  db.update(products)
    .set({ imageUrl: null })
    .where(and(eq(products.storeId, seed.store.id), like(products.imageUrl, OLD_DEMO_IMAGES)))
    .run()
  deps.cache.invalidate(seed.store.id)
  return uploaded
}
