/** Seeding: a store, a key and products written with the services themselves, before the server opens the DATA_DIR. */
import { existsSync } from 'node:fs'

export interface SeedOpts {
  slug?: string
  products?: number
  variantsPerProduct?: number
  categories?: number
  plan?: 'free' | 'pro' | 'lifetime'
  /** Published stores are visible to public endpoints (orders, reviews). */
  published?: boolean
  whatsapp?: string
  scopes?: string[] | 'all'
}

export interface Seeded {
  storeId: string
  slug: string
  key: string
  productIds: string[]
  variantIds: string[]
  categoryIds: string[]
}

/**
 * Creates a store, an API key and products (with variants) through the services. Runs in this
 * process on `dataDir`, then closes the database so the server can open it.
 */
export async function seed(dataDir: string, opts: SeedOpts = {}): Promise<Seeded> {
  const { testConfig } = await import('../../src/config')
  const { createDeps, closeDeps } = await import('../../src/deps')
  const { ctxFor } = await import('../../src/kernel/context')
  const { createStore } = await import('../../src/modules/platform-stores/service')
  const { createKey } = await import('../../src/modules/keys/service')
  const { createProduct } = await import('../../src/modules/products/service')
  const { createCategory } = await import('../../src/modules/categories/service')
  const { stores } = await import('../../src/db/schema')
  const { eq } = await import('drizzle-orm')

  const deps = createDeps(
    testConfig({ dataDir, logLevel: 'silent', proMaxProducts: 100_000, proMaxCategories: 10_000 }),
  )
  try {
    const slug = opts.slug ?? 'bench-store'
    let store = createStore({
      ctx: deps,
      input: {
        name: 'Bench Store',
        slug,
        plan: opts.plan ?? 'pro',
        currency: 'USD',
        whatsapp: opts.whatsapp ?? '+14155550123',
      },
    })
    if (opts.published ?? true)
      store = deps.db.update(stores).set({ isPublished: true }).where(eq(stores.id, store.id)).returning().get()!
    const scopes = opts.scopes === undefined || opts.scopes === 'all' ? ['all'] : opts.scopes
    const { key } = createKey({ ctx: deps, input: { storeId: store.id, scopes, name: 'bench' } })
    const ctx = ctxFor(deps, store)
    const categoryIds: string[] = []
    for (let i = 0; i < (opts.categories ?? 3); i++)
      categoryIds.push(createCategory({ ctx, input: { name: `Category ${i + 1}`, position: i } }).id)
    const productIds: string[] = []
    const variantIds: string[] = []
    const nVariants = opts.variantsPerProduct ?? 3
    for (let i = 0; i < (opts.products ?? 60); i++) {
      const p = createProduct({
        ctx,
        input: {
          name: `Product ${i + 1}`,
          description: `A fine product number ${i + 1}, described in a sentence or two so the payload looks real.`,
          price: 10 + (i % 40) + 0.99,
          comparePrice: i % 3 === 0 ? 59.99 : null,
          imageUrl: `https://cdn.example.com/products/${i + 1}.jpg`,
          categoryId: categoryIds.length ? categoryIds[i % categoryIds.length] : null,
          variants: Array.from({ length: nVariants }, (_, j) => ({
            name: ['Small', 'Medium', 'Large', 'XL', 'XXL'][j % 5]! + (j >= 5 ? ` ${j}` : ''),
            price: 10 + (i % 40) + j + 0.99,
          })),
        },
      })
      productIds.push(p.id)
      for (const v of p.variants) variantIds.push(v.id)
    }
    return { storeId: store.id, slug, key, productIds, variantIds, categoryIds }
  } finally {
    closeDeps(deps)
  }
}

/**
 * `seed` as another checkout's code does it (`cwd`, e.g. BENCH_BASE_DIR), in a child process, so
 * a base revision's server opens a database its own migrations made; this checkout's when absent.
 */
export async function seedWith(cwd: string | undefined, dataDir: string, opts: SeedOpts = {}): Promise<Seeded> {
  if (cwd === undefined) return seed(dataDir, opts)
  // bench/lib/ since the core's reshaping; one file before it (88d40c8 and earlier).
  const lib = existsSync(`${cwd}/bench/lib/seed.ts`) ? `${cwd}/bench/lib/seed.ts` : `${cwd}/bench/lib.ts`
  const code =
    `const { seed } = await import(${JSON.stringify(lib)}); process.stdout.write(JSON.stringify(await ` +
    `seed(${JSON.stringify(dataDir)}, ${JSON.stringify(opts)})))`
  const r = Bun.spawnSync([process.execPath, '-e', code], { cwd, stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`seeding with ${cwd} failed: ${r.stderr.toString()}`)
  return JSON.parse(r.stdout.toString()) as Seeded
}
