/**
 * What a module's door (its index.ts) lets out, and what the adapters do with the database.
 * A door exports verbs and types: nothing from a `sql.ts` / `sql/` file, no function whose first
 * argument is a connection or a transaction (a raw-SQL helper) unless it is named `…Tx` (a step
 * inside its caller's write), no prepared statement. An adapter (the API routes, the panel, the
 * shop, MCP, the CLI, jobs) calls verbs: it imports nothing from `db/schema` and runs no SQL.
 */
import { Glob } from 'bun'
import { existsSync } from 'node:fs'
import path from 'node:path'

export const ROOT = path.join(import.meta.dir, '../..')

const read = (file: string) => Bun.file(path.join(ROOT, file)).text().then(withoutComments)

/** Comments blanked, lines kept (so a fault's line number is the file's). */
export const withoutComments = (t: string) =>
  t.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, '')

const resolve = (from: string, spec: string) => {
  const base = path.relative(ROOT, path.resolve(ROOT, path.dirname(from), spec))
  return [`${base}.ts`, `${base}/index.ts`].find((f) => existsSync(path.join(ROOT, f)))
}

/** A file of raw SQL: a module's sql.ts or anything in a sql/ folder. */
export const SQL_FILE = /(^|\/)sql(\.ts$|\/)/

/** A parameter list whose first parameter is a connection or a transaction. */
const FIRST_PARAM_DB = String.raw`\(\s*\w+\s*:\s*(?:Database|Db|Tx|SQLiteDatabase|\{\s*\$client)\b`
/** An exported function or arrow const whose first parameter is a connection or a transaction. */
const POSITIONAL_DB = new RegExp(
  String.raw`export\s+(?:async\s+)?function\s+(\w+)\s*(?:<[^>]*>)?${FIRST_PARAM_DB}` +
    String.raw`|export\s+const\s+(\w+)\s*=\s*(?:async\s*)?${FIRST_PARAM_DB}`,
  'g',
)
/** An exported prepared-statement builder. */
const STATEMENTS = /export\s+const\s+(\w+)\s*=\s*(?:perConnection|perCount)\(/g

/** Reasons a door breaks the rule, one line each (`text` is an index.ts, `load` reads the files it re-exports). */
export function doorFaults(
  index: string,
  text: string,
  load: (file: string) => string | undefined,
  resolveFrom = resolve,
): string[] {
  const faults: string[] = []
  const reexports = /export\s+(type\s+)?(\*|\{([^}]*)\})\s*from\s*['"]([^'"]+)['"]/g
  for (const m of text.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(reexports)) {
    if (m[1]) continue // `export type … from`: types only
    const names = m[3]
      ?.split(',')
      .map((n) => n.trim())
      .filter((n) => n && !n.startsWith('type '))
      .map((n) => n.split(/\s+as\s+/)[0]!.trim())
    if (names && names.length === 0) continue
    const file = resolveFrom(index, m[4]!)
    if (!file) continue
    if (SQL_FILE.test(file)) {
      faults.push(`${index} exports ${names ? names.join(', ') : '*'} from ${file}`)
      continue
    }
    const code = load(file) ?? ''
    for (const re of [POSITIONAL_DB, STATEMENTS])
      for (const f of code.matchAll(re)) {
        const name = (f[1] ?? f[2])!
        if (re === POSITIONAL_DB && name.endsWith('Tx')) continue
        if (names && !names.includes(name)) continue
        faults.push(`${index} exports ${name} (${file}) taking a connection`)
      }
  }
  return faults
}

/** Every module's door faults. */
export async function moduleDoorFaults(): Promise<string[]> {
  const faults: string[] = []
  const texts = new Map<string, string>()
  for await (const f of new Glob('src/modules/**/*.ts').scan(ROOT)) texts.set(f, await read(f))
  for await (const index of new Glob('src/modules/*/index.ts').scan(ROOT))
    faults.push(...doorFaults(index, texts.get(index)!, (f) => texts.get(f)))
  return faults.sort()
}

/** Where the adapters live: the API routes of each module, the panel, the shop, MCP, the CLI, jobs. */
export const ADAPTER = /^src\/(panel|shop|mcp|cli|jobs)\/|^src\/modules\/[^/]+\/(routes|public-routes)\.ts$/

/**
 * What an adapter may not do: import the schema (types included:
 * a module's index.ts re-exports its row types), or run SQL.
 */
const ADAPTER_FAULTS: [string, RegExp][] = [
  ['imports db/schema', /\bfrom\s*['"][./]*db\/schema(\/[^'"]*)?['"]/g],
  ['reaches the raw connection ($client)', /\$client\b/g],
  ['runs a raw statement (.query/.prepare)', /\.(query|prepare)(<[^>]*>)?\(/g],
  [
    'runs Drizzle (db.select/insert/update/delete)',
    /\b(db|tx)\s*\.\s*(select|selectDistinct|insert|update|delete)\s*\(/g,
  ],
]

/** Faults of one adapter file's text. */
export function adapterFaults(file: string, text: string): string[] {
  const out: string[] = []
  for (const [what, re] of ADAPTER_FAULTS)
    for (const m of text.matchAll(re)) out.push(`${file}:${text.slice(0, m.index).split('\n').length} ${what}`)
  return out
}

/** Every adapter's faults. */
export async function adapterSqlFaults(): Promise<string[]> {
  const out: string[] = []
  for await (const f of new Glob('src/**/*.ts').scan(ROOT))
    if (ADAPTER.test(f)) out.push(...adapterFaults(f, await read(f)))
  return out.sort()
}
