/**
 * The panel's busiest pages, the orders inbox, the dashboard and an order's page, signed in:
 *
 * - CPU per request against a bare `Bun.serve` over TLS with the same cert returning the same
 *   bytes (like bench/storefront.ts): same run, same connections, same pinning, rounds
 *   alternate, best round of each kept. A store with 2,000 orders on the pro plan (the
 *   dashboard draws its chart). No target beyond printing the ratio: the panel page is rendered
 *   per request (it is one person's view: their "new" marks, their form token), not cached.
 * - Lighthouse (mobile preset, Chromium at /usr/bin/chromium, as the storefront's run) on both
 *   pages, an order's page and the product list, with the session cookie passed in `extraHeaders`. Target ≥ 95
 *   in each category. The panel is `noindex` on purpose (a seller's back office must not be indexed), so SEO's
 *   `is-crawlable` audit fails by design: the SEO column is Lighthouse's score, and the next
 *   column the same score without that one audit (docs/benchmarks.md).
 */
import { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import path from 'node:path'
import {
  CHROME,
  runLighthouse,
  TARGET_LIGHTHOUSE,
  type Lhr,
  bestRound,
  cpuPlan,
  fetchOnce,
  fillOrders,
  fmtInt,
  fmtPct,
  fmtUs,
  load,
  loadRow,
  panelCookie,
  printTable,
  seed,
  seedOwner,
  startBareTwin,
  startServer,
  tempDir,
  type BenchOpts,
  type BenchResult,
  type LoadResult,
  type Row,
} from './lib'

const PAGES: (readonly [string, string])[] = [
  ['orders inbox', '/admin/orders'],
  ['dashboard', '/admin'],
]

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 20, variantsPerProduct: 2, categories: 2, scopes: ['orders:read'] })
  const email = await seedOwner(dataDir, seeded.storeId)
  const db = new Database(path.join(dataDir, 'storefront.db'))
  const variants = db
    .query<{ id: string; productId: string; price: number }, []>(
      'SELECT id, product_id AS productId, price FROM variants',
    )
    .all()
  db.close()
  await fillOrders(dataDir, seeded.storeId, variants, 2000)
  // The newest order's page is measured too; Lighthouse also reads the product list (the phone's daily pages).
  const pages = [...PAGES]
  {
    const read = new Database(path.join(dataDir, 'storefront.db'))
    const order = read.query<{ id: string }, []>('SELECT id FROM orders ORDER BY created_at DESC LIMIT 1').get()
    read.close()
    if (order) pages.push(['order page', `/admin/orders/${order.id}`])
  }
  const lighthousePages = [...pages, ['product list', '/admin/products'] as const]
  const server = await startServer({ dataDir, env: { LOG_LEVEL: 'info' } })
  // BENCH_BASE_DIR=<another revision's checkout>: its server on the
  // same data, signed in on its own, measured in the same rounds.
  const baseDir = process.env.BENCH_BASE_DIR
  const baseServer = baseDir ? await startServer({ dataDir, cwd: baseDir, env: { LOG_LEVEL: 'info' } }) : undefined
  const rows: Row[] = []
  const notes: string[] = []
  let lh: { rows: Row[]; pass: boolean } = { rows: [], pass: false }
  try {
    const cookie = await panelCookie(server.url, email)
    const base = baseServer ? { server: baseServer, cookie: await panelCookie(baseServer.url, email) } : undefined
    const ratios: string[] = []
    for (const [name, p] of pages) {
      const r = await pair(opts, server, dataDir, p, cookie, base)
      rows.push(
        loadRow(`${name} (${fmtInt(r.bytes)} B)`, r.real),
        loadRow('bare Bun.serve (same cert, same bytes)', r.base),
      )
      if (r.previous) rows.push(loadRow(`base: ${baseDir}`, r.previous))
      const cpu = r.real.cpuUsPerReq
      const versus = r.previous
        ? `; base ${fmtUs(r.previous.cpuUsPerReq)} (base/this ${(r.previous.cpuUsPerReq / cpu).toFixed(2)}x)`
        : ''
      ratios.push(
        `${name}: ${fmtUs(cpu)} CPU/request vs bare ${fmtUs(r.base.cpuUsPerReq)} ` +
          `(bare/panel ${fmtPct(r.base.cpuUsPerReq / cpu)}); ` +
          `req/s ${fmtInt(r.real.rps)} vs ${fmtInt(r.base.rps)}${versus}`,
      )
    }
    notes.push(...ratios, `cpu: ${cpuPlan().description}`, '')
    if (existsSync(CHROME)) {
      lh = await lighthouseRows(server.url, cookie, lighthousePages)
      printTable(lh.rows, (line) => notes.push(line))
      notes.push(
        `Lighthouse: mobile preset (its default form factor, simulated throttling), Chromium ${CHROME}, ` +
          `session cookie in extraHeaders; target ≥ ${TARGET_LIGHTHOUSE} each; "seo w/o crawlable": ` +
          'SEO without the is-crawlable audit (the panel is noindex by design)',
      )
    } else notes.push(`Lighthouse skipped: no Chromium at ${CHROME}`)
  } finally {
    await server.stop()
    await baseServer?.stop()
  }
  return {
    name: 'panel-pages',
    title:
      'signed-in panel pages over TLS (2,000 orders, pro plan), ' +
      `${opts.connections} connections, ${opts.duration} s per round, load: wrk or bun`,
    rows,
    notes,
    pass: lh.pass,
    summary:
      notes.slice(0, pages.length).join('; ') +
      (lh.rows.length
        ? `; Lighthouse ${lh.rows
            .map((r) => `${r.page}: ${r.perf}/${r.a11y}/${r.best}/${r.seo} (${r['seo w/o crawlable']})`)
            .join(', ')}`
        : ''),
  }
}

type Served = { url: string; pid: number }

async function pair(
  opts: BenchOpts,
  server: Served,
  dataDir: string,
  pagePath: string,
  cookie: string,
  previous?: { server: Served; cookie: string },
) {
  const url = server.url + pagePath
  const headers = { cookie }
  const first = await fetchOnce(url, { headers })
  if (first.status !== 200) throw new Error(`GET ${pagePath}: ${first.status} ${first.text.slice(0, 200)}`)
  if ((await fetchOnce(url, { headers })).text !== first.text)
    throw new Error(`GET ${pagePath} does not answer the same bytes twice`)
  const bare = await startBareTwin(dataDir, first, pagePath)
  try {
    const common = { connections: opts.connections, durationSec: opts.duration, bunLoad: opts.bunLoad, headers }
    const warm = Math.min(2, opts.duration)
    await load({ ...common, url, durationSec: warm })
    await load({ ...common, url: bare.url + pagePath, durationSec: warm })
    const reals: LoadResult[] = []
    const bares: LoadResult[] = []
    const olds: LoadResult[] = []
    const old = previous && {
      ...common,
      url: previous.server.url + pagePath,
      headers: { cookie: previous.cookie },
      serverPid: previous.server.pid,
    }
    if (old) await load({ ...old, durationSec: warm })
    for (let i = 0; i < (opts.quick ? 1 : 3); i++) {
      reals.push(await load({ ...common, url, serverPid: server.pid }))
      bares.push(await load({ ...common, url: bare.url + pagePath, serverPid: bare.pid }))
      if (old) olds.push(await load(old))
    }
    const real = bestRound(reals)
    if (reals.some((r) => r.non2xx + r.errors > 0))
      throw new Error(`GET ${pagePath}: non-2xx answers or errors under load`)
    return {
      real,
      base: bestRound(bares),
      previous: olds.length ? bestRound(olds) : undefined,
      bytes: Buffer.byteLength(first.text),
    }
  } finally {
    await bare.stop()
  }
}

async function lighthouseRows(
  base: string,
  cookie: string,
  pages: readonly (readonly [string, string])[],
): Promise<{ rows: Row[]; pass: boolean }> {
  const rows: Row[] = []
  let pass = true
  for (const [name, p] of pages) {
    const lhr = await runLighthouse<Lhr>(base + p, { Cookie: cookie })
    const score = (k: string) => Math.round((lhr.categories[k]?.score ?? 0) * 100)
    const seo = lhr.categories.seo!
    const refs = (seo.auditRefs ?? []).filter(
      (a) => a.weight > 0 && a.id !== 'is-crawlable' && lhr.audits[a.id]?.score !== null,
    )
    const seoWithout = Math.round(
      (100 * refs.reduce((n, a) => n + a.weight * (lhr.audits[a.id]!.score ?? 0), 0)) /
        refs.reduce((n, a) => n + a.weight, 0),
    )
    const scores = [score('performance'), score('accessibility'), score('best-practices'), seoWithout]
    if (scores.some((s) => s < TARGET_LIGHTHOUSE)) pass = false
    const failing = Object.entries(lhr.categories).flatMap(([, c]) =>
      (c.auditRefs ?? []).filter((a) => a.weight > 0 && (lhr.audits[a.id]?.score ?? 1) < 1).map((a) => a.id),
    )
    rows.push({
      page: `${name} (${p})`,
      perf: scores[0]!,
      a11y: scores[1]!,
      best: scores[2]!,
      seo: score('seo'),
      'seo w/o crawlable': seoWithout,
      'audits not passed': [...new Set(failing)].join(', ') || '—',
    })
  }
  return { rows, pass }
}
