/**
 * `bun run db:generate [--name x] [--custom]`: drizzle-kit generate, then the new journal is recorded
 * as the next upgrade fixture (tests/fixtures/migration-history/<n>-<tag>/), which
 * tests/db/migrations-upgrade.test.ts upgrades from; scripts/check-migrations.ts fails CI without it.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.join(import.meta.dir, '..')
const kit = Bun.spawnSync(['bunx', 'drizzle-kit', 'generate', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: ['inherit', 'inherit', 'inherit'],
})
if (kit.exitCode !== 0) process.exit(kit.exitCode ?? 1)
const HISTORY = path.join(ROOT, 'tests/fixtures/migration-history')
const journal = JSON.parse(readFileSync(path.join(ROOT, 'drizzle/meta/_journal.json'), 'utf8')) as {
  entries: { tag: string }[]
}
const steps = readdirSync(HISTORY).sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
const last = steps.at(-1)
const recorded = last
  ? (JSON.parse(readFileSync(path.join(HISTORY, last, 'meta/_journal.json'), 'utf8')) as typeof journal)
  : { entries: [] }
// One fixture per migration not yet recorded, each with the journal as it stood after it.
for (let n = recorded.entries.length; n < journal.entries.length; n++) {
  const dir = path.join(HISTORY, `${steps.length + n - recorded.entries.length}-${journal.entries[n]!.tag}`, 'meta')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    path.join(dir, '_journal.json'),
    `${JSON.stringify({ ...journal, entries: journal.entries.slice(0, n + 1) }, null, 2)}\n`,
  )
  console.log(`recorded ${path.relative(ROOT, dir)}`)
}
