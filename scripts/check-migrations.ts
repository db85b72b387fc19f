/**
 * CI check: a committed migration is never edited (a data directory that ran it would no longer
 * boot), and every migration step has an upgrade fixture (tests/db/migrations-upgrade.test.ts).
 *
 * From git history: no drizzle/*.sql file changes after the commit that added it, and no journal
 * entry changes its tag or `when`. The two edits of 0006 made before this check existed are
 * grandfathered; src/db/migration-repairs.ts upgrades the databases they left behind.
 *
 * Usage: bun scripts/check-migrations.ts   (exit 1 with the offending files and commits)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.join(import.meta.dir, '..')
const HISTORY = path.join(ROOT, 'tests/fixtures/migration-history')

/** Edits made before this check existed; each has a repair in src/db/migration-repairs.ts. */
const GRANDFATHERED_EDITS = new Set([
  'drizzle/0006_webhook-outbox.sql 081def75a2648aee89386662e2b6483c22fb8297',
  'drizzle/0006_webhook-outbox.sql a09eb9ce107778e4c5009d22cb1e5a1a86d249e2',
])
const GRANDFATHERED_WHENS = new Set([1795339387398, 1795341350168])

interface Journal {
  entries: { idx: number; tag: string; when: number }[]
}

function git(...args: string[]): string {
  const r = Bun.spawnSync(['git', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString().trim()}`)
  return r.stdout.toString()
}

const problems: string[] = []
const head = JSON.parse(readFileSync(path.join(ROOT, 'drizzle/meta/_journal.json'), 'utf8')) as Journal

// Every migration step has a fixture: the newest fixture's journal is the current one.
const steps = readdirSync(HISTORY).sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
const newest = steps.at(-1)
const newestJournal = newest
  ? (JSON.parse(readFileSync(path.join(HISTORY, newest, 'meta/_journal.json'), 'utf8')) as Journal)
  : undefined
if (JSON.stringify(newestJournal?.entries) !== JSON.stringify(head.entries)) {
  const next = `${steps.length}-${head.entries.at(-1)?.tag}`
  problems.push(
    `the newest migration has no upgrade fixture (tests/fixtures/migration-history/${next}): run bun scripts/generate-migration.ts (what bun run db:generate does), which records it`,
  )
}

const shallow = existsSync(path.join(ROOT, '.git'))
  ? git('rev-parse', '--is-shallow-repository').trim() === 'true'
  : true
if (shallow) {
  console.log('check-migrations: no full git history here; only the fixture check ran')
} else {
  // No committed migration file is modified after it was added.
  let current = ''
  for (const line of git(
    'log',
    '--first-parent',
    '--format=%H',
    '--name-status',
    '--diff-filter=MDR',
    '--',
    'drizzle/*.sql',
  ).split('\n')) {
    if (/^[0-9a-f]{40}$/.test(line)) {
      current = line
      continue
    }
    const [status, file] = line.split('\t')
    if (!status || !file) continue
    if (!GRANDFATHERED_EDITS.has(`${file} ${current}`))
      problems.push(`${file} was changed (${status}) after it was committed, in ${current.slice(0, 10)}`)
  }
  // No journal entry changes after it was committed.
  for (const commit of git('log', '--first-parent', '--format=%H', '--', 'drizzle/meta/_journal.json')
    .split('\n')
    .filter(Boolean)) {
    const old = JSON.parse(git('show', `${commit}:drizzle/meta/_journal.json`)) as Journal
    for (const e of old.entries) {
      const now = head.entries[e.idx]
      if (now?.tag === e.tag && now.when === e.when) continue
      if (GRANDFATHERED_WHENS.has(e.when)) continue
      problems.push(
        `journal entry ${e.idx} (${e.tag}, when ${e.when}) as of ${commit.slice(0, 10)} is now ${now ? `${now.tag}, when ${now.when}` : 'gone'}`,
      )
    }
  }
}
if (problems.length > 0) {
  console.error('check-migrations: a committed migration must never change; add a new one instead.')
  for (const p of problems) console.error(`- ${p}`)
  process.exit(1)
}
console.log(
  `check-migrations: ${head.entries.length} migrations unchanged since committed; ${steps.length} upgrade fixtures`,
)
