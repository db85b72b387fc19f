/**
 * The one toolkit for raw SQL (docs/decisions/001): where a benchmark showed Drizzle's per-call
 * query building costing more than the query, a module writes the statement by hand — in its
 * own `sql.ts`, nowhere else (tests/architecture/layers-and-verbs.test.ts) — with these pieces:
 *
 * - `columns(table, keys?)`: `col AS key, …` from the schema, so a raw row has Drizzle's row type
 *   (or `Pick` of it) and a renamed column breaks the build, not a query;
 * - `booleans(table)`: maps a raw row's 0/1 boolean columns to booleans in place, as Drizzle does;
 * - `perConnection(build)`: a module's fixed statements, compiled once per connection on first use;
 * - `perCount(build)`: the text of a statement with a variable number of placeholders, built once
 *   per count (`IN (?, ?, …)`, multi-row inserts).
 *
 * Dynamic statements (a WHERE built from a filter) go through `client.query(text)`, which
 * bun:sqlite compiles once per connection and text. Each raw statement is checked against the
 * Drizzle query it replaced (tests/db/raw-statements.test.ts).
 */
import type { Database } from 'bun:sqlite'
import { getTableColumns, type Table } from 'drizzle-orm'

type Keys<T extends Table> = keyof T['_']['columns'] & string

/** `col AS key, …` for every column of `table`, or for the named ones only (a narrower row is cheaper to build). */
export function columns<T extends Table>(table: T, keys?: readonly Keys<T>[]): string {
  const all = getTableColumns(table) as Record<string, { name: string }>
  return (keys ?? Object.keys(all)).map((k) => `${all[k]!.name} AS ${k}`).join(', ')
}

/**
 * A raw row's 0/1 boolean columns turned into booleans in place, as Drizzle's mapping does
 * (`mode: 'boolean'` columns of `table`, found once): raw rows then equal Drizzle's.
 */
export function booleans<T>(table: Table): (row: T) => T {
  const keys = Object.entries(getTableColumns(table))
    .filter(([, col]) => col.columnType === 'SQLiteBoolean')
    .map(([key]) => key)
  return (row) => {
    const r = row as Record<string, unknown>
    for (const k of keys) if (r[k] !== null) r[k] = r[k] === 1
    return row
  }
}

/**
 * A module's statements, compiled on first use, one set per
 * connection (a WeakMap: a closed connection's set goes with it).
 */
export function perConnection<S>(build: (client: Database) => S): (client: Database) => S {
  const sets = new WeakMap<Database, S>()
  return (client) => {
    let s = sets.get(client)
    if (!s) sets.set(client, (s = build(client)))
    return s
  }
}

/** `?, ?, …` n times. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ')

/**
 * SQL text per number of parameters, built once: building the text per call (then hashing it
 * for bun:sqlite's statement cache) costs more than the lookup.
 */
export function perCount(build: (n: number) => string): (n: number) => string {
  const texts: string[] = []
  return (n) => (texts[n] ??= build(n))
}
