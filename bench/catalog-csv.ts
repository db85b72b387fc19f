/**
 * The catalog CSV import over HTTPS against the real server, as the panel does it: a signed-in
 * owner uploads a 5,000-row file (3,000 products: 2,000 without variants, 1,000 with three),
 * reads the dry run, applies it; then exports the catalog, checks the export again (the round
 * trip: nothing to change), and imports a file changing every price (an update of every product).
 *
 * Per step: the request's time (the dry run and the apply each hold the write lock for most of
 * it: a dry run is the apply rolled back) and the server's resident memory — its peak so far
 * (VmHWM) and now — so a step that holds the file or its rows more than once shows up.
 * Run: `bun run bench catalog-csv`.
 */
import { readFileSync } from 'node:fs'
import { fmtMs, seed, startServer, tempDir, type BenchOpts, type BenchResult, type Row } from './lib'
import { BENCH_PASSWORD, seedOwner } from './lib/panel'
import { panelSession } from './lib/panel-session'

const HEADER = 'name,slug,description,price,comparePrice,category,variant,variantPrice,stock,isActive'

function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 }
}
const mib = (n: number) => `${n.toFixed(0)} MiB`

/** 5,000 rows: `plain` products of one row, then products of three variant rows. */
function catalog(plain: number, withVariants: number, price = (i: number) => 5 + (i % 50)): string {
  const lines = [HEADER]
  const desc = 'A fine product, described in a sentence or two so the file looks real.'
  for (let i = 0; i < plain; i++)
    lines.push(`Plain ${i},plain-${i},"${desc}",${price(i)},,Category ${(i % 3) + 1},,,${i % 20},true`)
  for (let i = 0; i < withVariants; i++)
    for (const [j, v] of ['Small', 'Medium', 'Large'].entries())
      lines.push(
        `Shirt ${i},shirt-${i},"${desc} Cotton, ` +
          `soft.",${price(i)},,Category ${(i % 3) + 1},${v},${price(i) + j},${j ? '' : 5},true`,
      )
  return `${lines.join('\r\n')}\r\n`
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const shop = await seed(dataDir, { products: 0, categories: 3, plan: 'lifetime' })
  const email = await seedOwner(dataDir, shop.storeId, 'bench-owner@example.com')
  const server = await startServer({ dataDir })
  const origin = new URL(server.url).origin
  const { call, signIn, upload, apply } = panelSession(origin)
  const rows: Row[] = []
  const step = async (
    name: string,
    lines: number,
    fn: () => Promise<{ res: Response; text: string }>,
    want: number,
  ) => {
    const t0 = performance.now()
    const r = await fn()
    const ms = performance.now() - t0
    if (r.res.status !== want) throw new Error(`${name}: ${r.res.status}\n${r.text.slice(0, 2000)}`)
    const m = memory(server.pid)
    rows.push({
      step: name,
      rows: lines.toLocaleString('en-US'),
      time: fmtMs(ms),
      'peak RSS': mib(m.peak),
      'RSS now': mib(m.now),
    })
    return r
  }
  try {
    await signIn(email, BENCH_PASSWORD)
    const idle = memory(server.pid)
    rows.push({ step: 'signed in, idle', rows: '—', time: '—', 'peak RSS': mib(idle.peak), 'RSS now': mib(idle.now) })
    const fresh = catalog(2000, 1000)
    // The first upload also pays the server's warm-up (code paths
    // compiled, statements prepared, the file grown): run it twice.
    await step('dry run: 3,000 to create (first, cold)', 5000, () => upload(fresh), 200)
    const dry = await step('dry run: 3,000 products to create', 5000, () => upload(fresh), 200)
    if (!/3,000 products to create/.test(dry.text))
      throw new Error(
        'dry run did not plan 3,000 ' +
          `creates: ${dry.text.slice(dry.text.indexOf('<main'), dry.text.indexOf('<main') + 1500)}`,
      )
    await step('apply: create them (one transaction)', 5000, () => apply(dry.text), 303)
    const exported = await step('export the catalog', 5000, () => call('/admin/products/export.csv'), 200)
    const same = await step('dry run of the export: nothing to change', 5000, () => upload(exported.text), 200)
    if (!/3,000 products unchanged/.test(same.text)) throw new Error('the round trip found changes')
    const repriced = catalog(2000, 1000, (i) => 6 + (i % 50))
    const dry2 = await step('dry run: every price changed', 5000, () => upload(repriced), 200)
    if (!/3,000 products to update/.test(dry2.text)) throw new Error('dry run did not plan 3,000 updates')
    await step('apply: update them (one transaction)', 5000, () => apply(dry2.text), 303)
  } finally {
    await server.stop()
  }
  const applyRow = rows.find((r) => String(r.step).startsWith('apply: create'))
  return {
    name: 'catalog-csv',
    title:
      'Catalog CSV import over HTTPS as the panel does it (5,000-row ' +
      `file: ${(catalog(2000, 1000).length / 1024).toFixed(0)} KiB; limits 10,000 rows, ` +
      `5 MiB)${opts.quick ? ' — quick changes nothing here' : ''}`,
    rows,
    notes: [
      "peak RSS is the server process's VmHWM after the step (it never goes down); RSS now is VmRSS.",
      'A dry run is the apply rolled back: the same rules against the same state, holding the write lock as long.',
    ],
    summary: `5,000 rows: dry run ${rows[2]?.time}, apply ${applyRow?.time}, peak RSS ${rows.at(-1)?.['peak RSS']}`,
  }
}
