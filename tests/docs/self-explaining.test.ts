/**
 * The repository explains itself: comments and docs point only at what a clone has. No comment or
 * doc cites a document kept outside the repository, a specification's section number or a ticket
 * (the decision they stood for is written in docs/ instead), and every file path they name exists.
 */
import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from '../helpers/server'

const tracked = Bun.spawnSync(['git', 'ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
  .stdout.toString()
  .split('\n')
  .filter((f) => f.length > 0)
/** This file names the patterns it forbids; the fixtures are recorded data, not prose. */
const SELF = 'tests/docs/self-explaining.test.ts'
const scanned = tracked.filter(
  (f) =>
    f !== SELF &&
    !f.startsWith('tests/fixtures/') &&
    !f.includes('/vendor/') &&
    (/^(src|tests|bench|scripts|e2e)\/.*\.(ts|js|css)$/.test(f) || /^(docs\/.*|README)\.md$/.test(f)),
)
const text = (f: string) => readFileSync(path.join(ROOT, f), 'utf8')

/** What a citation of something outside the repository looks like. */
const CITATIONS: [string, RegExp][] = [
  ['the contract', /\b(the|a|per|of|in) contract('s)?\b|contract "/i],
  ['the contract', /\bcontract (says|table|decides|names|defaults|fields|attributes|list)\b/i],
  ['a spec section', /\bspec(ification)?('s)? (part |section |§ ?)?\d+(\.\d+)*\b|\bspec §/i],
  ['a ticket', /\b(issue|ticket|task)s? #?\d{1,3}\b/i],
  ['notes kept outside the repository', /\bstack[- ]notes\b/i],
  ['a working session', /\b(first|second|third|fourth|fifth|sixth) (session|wave)\b|\bwave's base\b/i],
]

test('no comment or doc cites a document outside the repository, a spec section or a ticket', () => {
  const found: string[] = []
  for (const f of scanned) {
    text(f)
      .split('\n')
      .forEach((line, i) => {
        for (const [what, re] of CITATIONS) if (re.test(line)) found.push(`${f}:${i + 1} cites ${what}: ${line.trim()}`)
      })
  }
  expect(found).toEqual([])
})

/** A file name or path a comment or doc names: `src/app.ts`, `db/write.ts`, `statements.ts`. */
const PATH = /(?<![\w./@<{$*-])((?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|md|sql|toml|yaml|yml))\b(?![\w/(-])/g
const basenames = new Set(tracked.map((f) => path.basename(f)))
/** Files made at run time, never committed: the OpenAPI client's generated types, DATA_DIR's files. */
const generated = (p: string) => p === 'api.d.ts' || p.startsWith('DATA_DIR/')
const exists = (p: string) =>
  generated(p) ||
  (p.includes('/') ? tracked.some((f) => f === p || f.endsWith(`/${p}`) || f.startsWith(`${p}/`)) : basenames.has(p))

test('every file path named in comments and docs exists', () => {
  const missing: string[] = []
  for (const f of scanned) {
    let fenced = false
    text(f)
      .split('\n')
      .forEach((line, i) => {
        // A fenced block in a doc is a command to type, whose output paths don't exist yet.
        if (f.endsWith('.md') && line.startsWith('```')) fenced = !fenced
        if (fenced) return
        // Tests and benches make files in temp directories; only prose and comments are held here.
        const prose = f.endsWith('.md') ? line : (line.match(/(\/\/|\/\*\*?|^\s*\*)(.*)$/)?.[2] ?? '')
        for (const m of prose.matchAll(PATH)) if (!exists(m[1]!)) missing.push(`${f}:${i + 1} names ${m[1]}`)
      })
  }
  expect(missing).toEqual([])
})
