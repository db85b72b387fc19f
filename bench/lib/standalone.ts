/** Running one bench file by itself (`bun bench/<name>.ts [--quick] [--bun-load]`), as `bun run bench <name>` would. */
import { printTable } from './format'
import { cleanupAll } from './processes'
import type { BenchOpts, BenchResult } from './types'

export async function runStandalone(run: (opts: BenchOpts) => Promise<BenchResult>): Promise<void> {
  const quick = process.argv.includes('--quick')
  try {
    const r = await run({
      quick,
      duration: quick ? 3 : 10,
      connections: 50,
      bunLoad: process.argv.includes('--bun-load'),
    })
    console.log(`\n${r.title}\n`)
    printTable(r.rows)
    for (const line of r.notes ?? []) console.log(`  ${line}`)
    console.log(`\n${r.summary} — ${r.pass ? 'PASS' : 'MISS'}`)
  } finally {
    cleanupAll()
  }
}
