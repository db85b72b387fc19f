/**
 * What a module's door (its index.ts) lets out, and what the adapters do with the database.
 * A door exports verbs and types: nothing from a `sql.ts` / `sql/` file, no function with a
 * parameter typed as a connection or a transaction (a raw-SQL helper), whatever its name and place,
 * unless the function is named `…Tx` (a step inside its caller's write), no prepared statement.
 * An adapter (the API routes, the panel, the shop, MCP, the CLI, jobs) calls verbs: it imports
 * nothing from `db/schema` and runs no SQL.
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

/**
 * The names a connection or a transaction goes by: bun:sqlite's `Database`, Drizzle's
 * `BunSQLiteDatabase` / `SQLiteTransaction`, and ours (db/client.ts: `Db`, `Tx`, `Runner` = either).
 */
export const CONNECTION_TYPES = [
  'Database',
  'Db',
  'Tx',
  'Runner',
  'SQLiteDatabase',
  'BunSQLiteDatabase',
  'SQLiteTransaction',
]
/** A parameter typed as a connection, whatever it is called (`db: Runner`, `client: Database`, `x?: { $client …`). */
const CONNECTION_PARAM = new RegExp(
  `^\\s*(?:\\.\\.\\.)?\\w+\\s*\\??\\s*:\\s*(?:(?:${CONNECTION_TYPES.join('|')})\\b(?!\\s*\\[)|\\{\\s*\\$client\\b)`,
)
/** Where an exported function's parameter list opens: `export function f<T>(`, `export const f = async (`. */
const EXPORTED_FN = new RegExp(
  [
    /export\s+(?:async\s+)?function\s+(\w+)\s*(?:<[^>]*>)?\(/.source,
    /export\s+const\s+(\w+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?:<[^>]*>)?\(/.source,
  ].join('|'),
  'g',
)
/** An exported prepared-statement builder. */
const STATEMENTS = /export\s+const\s+(\w+)\s*=\s*(?:perConnection|perCount)\(/g

/** The top-level parameters of the list that opens at `open` (the index just after its `(`). */
export function parametersAt(code: string, open: number): string[] {
  const params: string[] = []
  let depth = 0
  let from = open
  for (let i = open; i < code.length; i++) {
    const c = code[i]!
    if ('([{<'.includes(c)) depth++
    else if (')]}'.includes(c) || (c === '>' && code[i - 1] !== '=')) {
      if (depth === 0 && c === ')') return [...params, code.slice(from, i)].filter((p) => p.trim())
      depth--
    } else if (c === ',' && depth === 0) {
      params.push(code.slice(from, i))
      from = i + 1
    }
  }
  return params
}

/** The exported functions of a file that take a connection in any parameter, and its prepared statements. */
export function rawExports(code: string): string[] {
  const out: string[] = []
  for (const m of code.matchAll(EXPORTED_FN)) {
    const name = (m[1] ?? m[2])!
    if (parametersAt(code, m.index + m[0].length).some((p) => CONNECTION_PARAM.test(p))) out.push(name)
  }
  for (const m of code.matchAll(STATEMENTS)) out.push(m[1]!)
  return out
}

const REEXPORTS = /export\s+(type\s+)?(\*|\{([^}]*)\})\s*from\s*['"]([^'"]+)['"]/g

/**
 * Reasons a door breaks the rule, one line each (`text` is an index.ts, `load` reads the files it
 * re-exports). A re-exported file's own re-exports are followed, so a raw helper passed on through
 * another file is found too. A function taking a connection passes only when named `…Tx` (a step
 * inside its caller's write).
 */
export function doorFaults(
  index: string,
  text: string,
  load: (file: string) => string | undefined,
  resolveFrom = resolve,
): string[] {
  const faults: string[] = []
  const walk = (from: string, code: string, only: string[] | undefined, seen: Set<string>) => {
    for (const m of code.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(REEXPORTS)) {
      if (m[1]) continue // `export type … from`: types only
      const listed = m[3]
        ?.split(',')
        .map((n) => n.trim())
        .filter((n) => n && !n.startsWith('type '))
        .map((n) => n.split(/\s+as\s+/)[0]!.trim())
      const names = listed && only ? listed.filter((n) => only.includes(n)) : (listed ?? only)
      if (names && names.length === 0) continue
      const file = resolveFrom(from, m[4]!)
      if (!file || seen.has(file)) continue
      if (SQL_FILE.test(file)) {
        faults.push(`${index} exports ${names ? names.join(', ') : '*'} from ${file}`)
        continue
      }
      const own = load(file) ?? ''
      for (const name of rawExports(own))
        if (!name.endsWith('Tx') && (!names || names.includes(name)))
          faults.push(`${index} exports ${name} (${file}) taking a connection`)
      walk(file, own, names, new Set([...seen, file]))
    }
  }
  walk(index, text, undefined, new Set([index]))
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
