/**
 * Lighthouse on the seller panel's product editor (target ≥ 95 in each category, mobile
 * preset): a real server on a temp DATA_DIR, a store with a product of two variants and two
 * pictures, signed in by a session cookie sent with every request (Lighthouse's extraHeaders).
 * Prints the four scores and the page weight; `bun run bench panel-editor`, or run this file.
 */
import { existsSync } from 'node:fs'
import sharp from 'sharp'
import { printTable, startServer, tempDir, type BenchOpts, type BenchResult, type Row } from './lib'
import { CHROME, runLighthouse, TARGET_LIGHTHOUSE, type Lhr } from './lib'

/** The store, its owner's session and the product, written through the service's own verbs. */
async function seedEditor(dataDir: string): Promise<{ cookie: string; productId: string }> {
  const { testConfig } = await import('../src/config')
  const { createDeps, closeDeps } = await import('../src/deps')
  const { createStore } = await import('../src/modules/platform-stores/service')
  const { createOwner, openSession } = await import('../src/modules/people')
  const { createProduct, uploadImage } = await import('../src/modules/products')
  const { ctxFor } = await import('../src/kernel/context')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
  try {
    const store = createStore({
      ctx: deps,
      input: { name: 'Bench Pottery', slug: 'bench-pottery', plan: 'pro', whatsapp: '+14155550123' },
    })
    const user = createOwner({
      ctx: deps,
      input: { storeId: store.id, email: 'owner@example.com', name: 'Owner', passwordHash: null },
    })
    const ctx = ctxFor(deps, store, { kind: 'cli' })
    const p = createProduct({
      ctx,
      input: {
        name: 'Stoneware mug',
        description: 'Glazed by hand.',
        price: 18,
        variants: [
          { name: 'Blue', price: 18, stock: 4 },
          { name: 'Sand', price: 20, stock: 6 },
        ],
      },
    })
    for (const color of ['#1d4e89', '#c2a878']) {
      const bytes = await sharp({ create: { width: 1200, height: 900, channels: 3, background: color } })
        .jpeg()
        .toBuffer()
      await uploadImage({ ctx, input: { productId: p.id, file: new Blob([bytes]) } })
    }
    const opened = openSession({
      ctx: { db: deps.db, clock: deps.clock, config: deps.config },
      input: { userId: user.id, storeId: store.id, userAgent: null },
    })
    return { cookie: `__Host-sid=${opened.token}`, productId: p.id }
  } finally {
    closeDeps(deps)
  }
}

export async function run(_opts?: BenchOpts): Promise<BenchResult> {
  if (!existsSync(CHROME))
    return { name: 'panel-editor', rows: [], pass: false, summary: `skipped: no Chromium at ${CHROME}` }
  const dataDir = tempDir()
  const { cookie, productId } = await seedEditor(dataDir)
  const server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' }, pin: false })
  const rows: Row[] = []
  const notes: string[] = []
  let pass = true
  try {
    const p = `/admin/products/${productId}`
    const lhr = await runLighthouse<Lhr>(server.url + p, { Cookie: cookie })
    const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100)
    const scores = ['performance', 'accessibility', 'best-practices', 'seo'].map(score)
    if (scores.some((s) => s < TARGET_LIGHTHOUSE)) pass = false
    const bytes = (lhr.audits['network-requests']?.details?.items ?? []).reduce(
      (a, it) => a + (it.transferSize ?? 0),
      0,
    )
    // What keeps a category under the target, by audit id (so the fix can be found).
    const full = lhr
    for (const [k, cat] of Object.entries(full.categories)) {
      if ((cat.score ?? 0) * 100 >= TARGET_LIGHTHOUSE) continue
      const failing = (cat.auditRefs ?? [])
        .filter((a) => a.weight > 0 && (full.audits[a.id]?.score ?? 1) < 1)
        .map((a) => `${a.id} (${full.audits[a.id]?.title ?? ''})`)
      notes.push(`${k} below ${TARGET_LIGHTHOUSE}: ${failing.join('; ')}`)
    }
    rows.push({
      page: `product editor (${p})`,
      perf: scores[0]!,
      a11y: scores[1]!,
      best: scores[2]!,
      seo: scores[3]!,
      total: `${(bytes / 1024).toFixed(1)} KB`,
    })
  } finally {
    await server.stop()
  }
  const r = rows[0]!
  return {
    name: 'panel-editor',
    title: 'Lighthouse on the product editor (signed in)',
    rows,
    pass,
    summary: `Lighthouse product editor: ${r.perf}/${r.a11y}/${r.best}/${r.seo} (target ≥ ${TARGET_LIGHTHOUSE} each)`,
    notes: [
      'performance, accessibility, best practices, SEO; mobile form factor, simulated throttling; ' +
        `a session cookie via Lighthouse's extraHeaders; Chromium ${CHROME}`,
      ...notes,
    ],
  }
}

if (import.meta.main) {
  const r = await run()
  printTable(r.rows, console.log)
  for (const line of r.notes ?? []) console.log(line)
  console.log(r.summary)
  process.exit(r.pass ? 0 : 1)
}
