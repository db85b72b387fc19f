/**
 * `bun run demo`: a working store in one command. Migrates DATA_DIR, creates (or reuses) the
 * store `demo` with categories, products with variants, shipping options and a discount, makes a
 * fresh all-scopes key (earlier demo keys are revoked: a key is shown only once, so it can't be
 * reused), uploads a drawn picture for each product, starts the server and prints
 * ready-to-paste curl lines and the storefront's URL.
 */
import { and, eq, isNull, like } from 'drizzle-orm'
import { loadConfigOrExit } from '../config'
import { ctxFor } from '../kernel/context'
import { createDeps, type Deps } from '../deps'
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
import { createProduct } from '../modules/products'
import { createStore } from '../modules/platform-stores'
import { serveUntilSignal, startServer } from '../server'
import { uploadImage } from '../modules/products'
import { picturePng, type Motif } from './demo-pictures'
import { createOwner, issueSignInLink } from '../modules/people'

export const DEMO_SLUG = 'demo'
export const DEMO_KEY_NAME = 'demo'
/** The demo store's owner in the panel (contract): signs in with the one-time link the demo prints. */
export const DEMO_OWNER_EMAIL = 'owner@demo.example'
const DEMO_WHATSAPP = '+14155550123'
const DEMO_DESCRIPTION =
  'Freshly roasted coffee, loose-leaf tea and brewing gear. This demo store comes from bun run demo: place an order in the browser.'

const CATEGORIES = ['Coffee', 'Tea', 'Accessories']

/**
 * Variants are [name, price, stock?]; stock absent = not tracked. Some items run low and the
 * Ethiopia 500 g is sold out, so a storefront shows every state.
 */
const PRODUCTS: {
  name: string
  category: string
  price: number
  comparePrice?: number
  description: string
  stock?: number
  motif: Motif
  variants: [string, number, number?][]
}[] = [
  {
    name: 'House Blend Coffee',
    category: 'Coffee',
    price: 14.5,
    description: 'Medium roast, chocolate and hazelnut notes.',
    motif: 'bag',
    variants: [
      ['250 g', 14.5, 40],
      ['500 g', 26, 25],
      ['1 kg', 48, 3],
    ],
  },
  {
    name: 'Ethiopia Yirgacheffe',
    category: 'Coffee',
    price: 18,
    comparePrice: 21,
    description: 'Light roast, floral and citrus.',
    motif: 'bag',
    variants: [
      ['250 g', 18, 2],
      ['500 g', 33, 0],
    ],
  },
  {
    name: 'Decaf Colombia',
    category: 'Coffee',
    price: 15,
    description: 'Swiss-water decaf, caramel sweetness.',
    stock: 12,
    motif: 'bag',
    variants: [],
  },
  {
    name: 'Jasmine Green Tea',
    category: 'Tea',
    price: 9.75,
    description: 'Loose leaf, scented with jasmine blossoms.',
    motif: 'tin',
    variants: [
      ['50 g', 9.75],
      ['100 g', 17.5],
    ],
  },
  {
    name: 'Earl Grey',
    category: 'Tea',
    price: 8.5,
    description: 'Black tea with bergamot.',
    motif: 'tin',
    variants: [
      ['50 g', 8.5],
      ['100 g', 15],
    ],
  },
  {
    name: 'Ceramic Pour-Over',
    category: 'Accessories',
    price: 32,
    description: 'Hand-glazed dripper, size 02.',
    motif: 'dripper',
    variants: [
      ['White', 32, 5],
      ['Black', 32, 1],
      ['Sage', 34],
    ],
  },
  {
    name: 'Glass Teapot',
    category: 'Accessories',
    price: 27.9,
    comparePrice: 34.9,
    description: '800 ml borosilicate with steel infuser.',
    stock: 4,
    motif: 'teapot',
    variants: [],
  },
]

const SHIPPING: { name: string; price: number; description: string; estimatedDays: number }[] = [
  { name: 'Standard', price: 4.99, description: 'Tracked parcel', estimatedDays: 5 },
  { name: 'Express', price: 12.5, description: 'Next business day', estimatedDays: 1 },
]

export const DEMO_DISCOUNT = { code: 'WELCOME10', type: 'percentage' as const, percent: 10 }

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

/** The lines printed once the server listens. */
export function demoInstructions(seed: DemoSeed, url: string, certFile: string | undefined): string {
  const ca = certFile ? `--cacert ${certFile} ` : ''
  const order = JSON.stringify({
    storeId: seed.store.id,
    name: 'Ada Lovelace',
    phone: '+14155550199',
    address: '12 Example Street, Springfield',
    items: [{ variantId: seed.exampleVariantId, quantity: 2 }],
    shippingOptionId: seed.shippingOptionId,
  })
  return [
    '',
    `Demo store '${seed.store.slug}' ${seed.created ? 'created' : 'reused'} (id ${seed.store.id}, plan ${seed.store.plan}, ${seed.store.currency}); ${seed.productIds.length} products, discount code ${seed.discountCode}.`,
    `API key (all scopes, shown once; earlier demo keys were revoked):`,
    `  export KEY=${seed.key}`,
    '',
    'List products:',
    `  curl ${ca}-H "Authorization: Bearer $KEY" ${url}/api/v1/products`,
    '',
    'Place a public order (no key):',
    `  curl ${ca}-X POST ${url}/api/orders -H 'content-type: application/json' -d '${order}'`,
    '',
    `Storefront (open it in a browser and place an order${certFile ? '; the certificate is self-signed, so the browser asks once' : ''}):`,
    `  ${url}/s/${seed.store.slug}`,
    '',
    `Seller panel: sign in as ${DEMO_OWNER_EMAIL} with this one-time link (72 h; a new one each run):`,
    `  ${url}/admin/join?token=${seed.signInToken}`,
    '',
    `API docs: ${url}/docs    Stop with Ctrl-C.`,
    '',
  ].join('\n')
}

async function main(): Promise<void> {
  const config = loadConfigOrExit()
  const deps = createDeps(config)
  const seed = seedDemo(deps)
  await seedDemoPictures(deps, seed)
  const running = await startServer(config, { deps })
  serveUntilSignal(running)
  process.stdout.write(demoInstructions(seed, running.url, running.certFile))
}

if (import.meta.main) await main()
