import { afterAll, describe, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { and, eq, isNull } from 'drizzle-orm'
import { createApp } from '../../src/app'
import { testConfig } from '../../src/config'
import { createDeps, closeDeps } from '../../src/deps'
import { apiKeys, discounts, products, shippingOptions, stores } from '../../src/db/schema'
import { createLogger } from '../../src/lib/log'
import { DEMO_SLUG, demoInstructions, seedDemo, seedDemoPictures } from '../../src/cli/demo'
import { Api, expectStatus, tempDir } from '../helpers/app'

const dataDir = tempDir('sf-demo-')
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** One "run" of the demo's seeding on the same DATA_DIR, as `bun run demo` would do it. */
function runOnce() {
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent', dbSynchronous: 'NORMAL' }), {
    log: createLogger('silent'),
  })
  const app = createApp(deps)
  const seed = seedDemo(deps)
  return { deps, app, seed, api: new Api((r) => app.handle(r)), close: () => (app.gate.close(), closeDeps(deps)) }
}

describe('bun run demo seeding', () => {
  test('creates a pro store with catalog, shipping, discount and a working all-scopes key', async () => {
    const run = runOnce()
    try {
      expect(run.seed.created).toBe(true)
      expect(run.seed.store).toMatchObject({ slug: DEMO_SLUG, plan: 'pro', currency: 'USD' })
      expect(run.seed.store.whatsappNumber).toMatch(/^\+\d+$/)

      const [res, body] = await run.api.get('/api/v1/products', { key: run.seed.key })
      expectStatus(res, body).toBe(200)
      expect(body.total).toBe(run.seed.productIds.length)
      expect(body.data.some((p: { variants: unknown[] }) => p.variants.length > 1)).toBe(true)
      // Inventory in every state: untracked, plenty, low (≤ 5) and exactly one sold-out item.
      type Item = { stock: number | null; inStock: boolean }
      const items: Item[] = body.data.flatMap((p: Item & { variants: Item[] }) =>
        p.variants.length ? p.variants : [p],
      )
      expect(items.some((i) => i.stock === null)).toBe(true)
      expect(items.some((i) => i.stock !== null && i.stock > 5)).toBe(true)
      expect(items.some((i) => i.stock !== null && i.stock > 0 && i.stock <= 5)).toBe(true)
      expect(items.filter((i) => !i.inStock).length).toBe(1)

      const [cres, cbody] = await run.api.get('/api/v1/categories', { key: run.seed.key })
      expectStatus(cres, cbody).toBe(200)
      expect(cbody.total).toBeGreaterThanOrEqual(2)

      const { db } = run.deps
      expect(
        db.select().from(shippingOptions).where(eq(shippingOptions.storeId, run.seed.store.id)).all(),
      ).toHaveLength(2)
      expect(db.select().from(discounts).where(eq(discounts.storeId, run.seed.store.id)).all()).toHaveLength(1)

      const text = demoInstructions(run.seed, 'https://localhost:3443', `${dataDir}/tls/cert.pem`)
      expect(text).toContain(`export KEY=${run.seed.key}`)
      expect(text).toContain(
        `curl --cacert ${dataDir}/tls/cert.pem -H "Authorization: Bearer $KEY" https://localhost:3443/api/v1/products`,
      )
      expect(text).toContain(run.seed.exampleVariantId)
      expect(text).toContain(`  https://localhost:3443/s/${DEMO_SLUG}\n`)
      expect(run.seed.store.description).toBeTruthy()
      const page = await run.app.handle(new Request(`http://localhost/s/${DEMO_SLUG}`))
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Demo Coffee &amp; Tea')
    } finally {
      run.close()
    }
  })

  test('each demo product gets a drawn picture through the images service, with srcset on the storefront', async () => {
    const run = runOnce()
    try {
      expect(await seedDemoPictures(run.deps, run.seed)).toBe(run.seed.productIds.length)

      const [res, body] = await run.api.get('/api/v1/products', { key: run.seed.key })
      expectStatus(res, body).toBe(200)
      for (const p of body.data as { imageUrl: string; images: { url: string; width: number; height: number }[] }[]) {
        expect(p.images).toHaveLength(1)
        expect(p.images[0]!.url).toMatch(/^\/media\/[a-z0-9]+\/[a-z0-9]+-640\.webp$/)
        expect(p.images[0]).toMatchObject({ width: 640, height: 640 })
        expect(p.imageUrl).toBe(p.images[0]!.url)
      }
      const media = await run.app.handle(new Request(`http://localhost${body.data[0].images[0].url}`))
      expect(media.status).toBe(200)
      expect(media.headers.get('content-type')).toBe('image/webp')

      const html = await (await run.app.handle(new Request(`http://localhost/s/${DEMO_SLUG}`))).text()
      const imgs = html.match(/<img [^>]*>/g) ?? []
      expect(imgs).toHaveLength(run.seed.productIds.length)
      for (const tag of imgs) expect(tag).toMatch(/srcset="\/media\/\S+-320\.webp 320w, \/media\/\S+-640\.webp 640w"/)
      expect(html).not.toContain('images.example.com')

      // Idempotent: a second pass uploads nothing; a picture left on another host by an older demo is cleared.
      run.deps.db
        .update(products)
        .set({ imageUrl: 'https://images.example.com/demo/x.jpg' })
        .where(eq(products.id, run.seed.productIds[0]!))
        .run()
      expect(await seedDemoPictures(run.deps, run.seed)).toBe(0)
      expect(
        run.deps.db.select().from(products).where(eq(products.id, run.seed.productIds[0]!)).get()!.imageUrl,
      ).toBeNull()
    } finally {
      run.close()
    }
  })

  test('a second run reuses everything, issues a new key and revokes the old one', async () => {
    const first = runOnce()
    // An older demo store without a description or WhatsApp number gets both.
    first.deps.db
      .update(stores)
      .set({ description: null, whatsappNumber: null })
      .where(eq(stores.slug, DEMO_SLUG))
      .run()
    const oldKey = first.seed.key
    const before = first.deps.db.select().from(products).where(isNull(products.deletedAt)).all().length
    first.close()

    const second = runOnce()
    try {
      expect(second.seed.created).toBe(false)
      expect(second.seed.store.description).toBeTruthy()
      expect(second.seed.store.whatsappNumber).toMatch(/^\+\d+$/)
      const { db } = second.deps
      expect(db.select().from(stores).where(eq(stores.slug, DEMO_SLUG)).all()).toHaveLength(1)
      expect(db.select().from(products).where(isNull(products.deletedAt)).all()).toHaveLength(before)
      expect(db.select().from(shippingOptions).all()).toHaveLength(2)
      expect(db.select().from(discounts).all()).toHaveLength(1)
      const live = db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.storeId, second.seed.store.id), isNull(apiKeys.revokedAt)))
        .all()
      expect(live).toHaveLength(1)

      const [ok, okBody] = await second.api.get('/api/v1/products', { key: second.seed.key })
      expectStatus(ok, okBody).toBe(200)
      expect(okBody.total).toBe(before)
      const [old, oldBody] = await second.api.get('/api/v1/products', { key: oldKey })
      expectStatus(old, oldBody).toBe(401)
    } finally {
      second.close()
    }
  })
})
