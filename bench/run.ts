/**
 * `bun run bench [name ...] [options]` — runs benchmarks against the real server (a child
 * process on a temp DATA_DIR) and prints one table per bench, then a combined summary.
 *
 *   bun run bench                 every bench in BENCHES below
 *   bun run bench catalog         just bench/catalog.ts (names are files in bench/)
 *   bun run bench --quick         smaller data and 3 s runs instead of 10 s
 *
 * Options:
 *   --quick              smaller data, shorter runs (a smoke run, figures are rougher)
 *   --duration <sec>     seconds per load run (default 10, quick 3)
 *   --connections <n>    concurrent connections (default 50)
 *   --bun-load           use the Bun load generator even when wrk is installed
 *   --priority           run servers and load at nice -10 (root): steadier figures on a busy machine
 *   --json               also print all results as one JSON object at the end
 *
 * Load comes from `wrk --latency` (apt-get install -y wrk) or, when wrk is missing, a Bun
 * keep-alive fetch loop (bench/bun-load.ts). With 2+ CPUs and `taskset`, the server runs on
 * cpu 0 and the load generator on cpu 1; each bench says which. A bench module is
 * `bench/<name>.ts` exporting `async function run(opts: BenchOpts): Promise<BenchResult>`.
 * Exit code: 1 if a bench failed to run or missed its target.
 */
import path from 'node:path'
import { existsSync } from 'node:fs'
import {
  cleanupAll,
  cpuPlan,
  hasWrk,
  printTable,
  setPriority,
  WRK_MISSING,
  type BenchOpts,
  type BenchResult,
} from './lib'

/** Registered benches, run in this order by default. Add yours with one line. */
const BENCHES: string[] = [
  'catalog',
  'orders',
  'orders-scale',
  'panel-scale',
  'panel-streams',
  'panel-pages',
  'stats',
  'webhooks',
  'push-fanout',
  'storefront',
  'panel-editor',
  'images',
  'upload-tenants',
  'reads',
  'mixed',
  'catalog-csv',
  'import-beside-storefront',
  'signin-flood',
  'memory',
]

function parse(argv: string[]): { names: string[]; opts: BenchOpts; json: boolean } {
  const names: string[] = []
  let quick = false
  let duration: number | undefined
  let connections = 50
  let bunLoad = false
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--quick') quick = true
    else if (a === '--bun-load') bunLoad = true
    else if (a === '--json') json = true
    else if (a === '--priority') setPriority(true)
    else if (a === '--duration') duration = Number(argv[++i])
    else if (a === '--connections') connections = Number(argv[++i])
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`)
    else names.push(a)
  }
  return { names, opts: { quick, duration: duration ?? (quick ? 3 : 10), connections, bunLoad }, json }
}

async function main(): Promise<number> {
  const { names, opts, json } = parse(process.argv.slice(2))
  const explicit = names.length > 0
  const wanted = explicit ? names : BENCHES
  console.log(`Storefront API benchmarks — ${cpuPlan().description}`)
  console.log(
    hasWrk() && !opts.bunLoad
      ? 'load generator: wrk (--latency, 1 thread)'
      : opts.bunLoad
        ? 'load generator: bun (--bun-load)'
        : WRK_MISSING,
  )
  console.log(`${opts.connections} connections, ${opts.duration} s per run${opts.quick ? ' (quick)' : ''}\n`)

  const results: BenchResult[] = []
  let failed = false
  for (const name of wanted) {
    const file = path.join(import.meta.dir, `${name}.ts`)
    if (!existsSync(file)) {
      if (explicit) {
        console.log(`## ${name}: no bench/${name}.ts\n`)
        failed = true
      }
      continue
    }
    console.log(`## ${name}`)
    try {
      const mod = (await import(file)) as { run?: (o: BenchOpts) => Promise<BenchResult> }
      if (typeof mod.run !== 'function') throw new Error(`bench/${name}.ts does not export run()`)
      const r = await mod.run(opts)
      if (r.title) console.log(r.title)
      printTable(r.rows)
      for (const n of r.notes ?? []) console.log(`  ${n}`)
      console.log('')
      results.push(r)
      if (r.pass === false) failed = true
    } catch (err) {
      console.log(`  FAILED: ${(err as Error).stack ?? err}\n`)
      results.push({ name, rows: [], pass: false, summary: `error: ${(err as Error).message.split('\n')[0]}` })
      failed = true
    } finally {
      cleanupAll()
    }
  }

  if (results.length > 0) {
    console.log('## summary')
    printTable(
      results.map((r) => ({
        bench: r.name,
        target: r.pass === undefined ? '—' : r.pass ? 'met' : 'MISSED',
        result: r.summary ?? '',
      })),
    )
  }
  if (json) console.log(JSON.stringify({ cpu: cpuPlan().description, opts, results }))
  return failed ? 1 : 0
}

const code = await main().catch((err) => {
  console.error(err)
  return 2
})
cleanupAll()
process.exit(code)
