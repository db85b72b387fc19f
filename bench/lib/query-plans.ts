/**
 * Which SQL a request runs and how SQLite plans it: a page handled in-process on the bench's
 * database with every statement recorded (text and parameters), then `EXPLAIN QUERY PLAN` of
 * each. A plan line with `SCAN` of a table holding more than WALK_ROWS rows (aliases resolved
 * through the statement's FROM/JOIN) is a walk that grows with the data: it is flagged. Scans of
 * small tables (the store's one row, its few members) are how SQLite reads them at any size.
 */
import type { Database, Statement } from 'bun:sqlite'

export interface Recorded {
  sql: string
  params: unknown[]
}

const WRAPPED = Symbol('recorded')
/** Where the wrapped statements record while recordStatements runs. */
let active: Recorded[] | undefined

/** Records the statements run on `client` while `fn` runs. */
export async function recordStatements(client: Database, fn: () => Promise<unknown>): Promise<Recorded[]> {
  const seen: Recorded[] = []
  const wrap = (st: Statement, sql: string): Statement => {
    const s = st as Statement & { [WRAPPED]?: boolean }
    if (!s[WRAPPED]) {
      s[WRAPPED] = true
      for (const m of ['all', 'get', 'run', 'values', 'iterate'] as const) {
        const orig = (s[m] as (...a: unknown[]) => unknown).bind(s)
        ;(s as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
          if (active)
            active.push({
              sql,
              params: a.length === 1 && a[0] && typeof a[0] === 'object' && !Array.isArray(a[0]) ? [a[0]] : a,
            })
          return orig(...a)
        }
      }
    }
    return s
  }
  const c = client as Database & { [WRAPPED]?: boolean }
  if (!c[WRAPPED]) {
    c[WRAPPED] = true
    const q = client.query.bind(client)
    const p = client.prepare.bind(client)
    ;(client as unknown as Record<string, unknown>).query = (sql: string) => wrap(q(sql) as Statement, sql)
    ;(client as unknown as Record<string, unknown>).prepare = (sql: string, ...rest: unknown[]) =>
      wrap((p as (...a: unknown[]) => Statement)(sql, ...rest), sql)
  }
  active = seen
  try {
    await fn()
  } finally {
    active = undefined
  }
  return seen
}

/** Each read statement's plan, one line per statement: `<plan details>`, with walks flagged. */
const WALK_ROWS = 10_000

export function plansOf(client: Database, statements: Recorded[]): { sql: string; plan: string; walks: boolean }[] {
  const sizes = new Map<string, number>()
  const rowsIn = (table: string) => {
    let n = sizes.get(table)
    if (n === undefined) {
      try {
        n = client.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${table}"`).get()!.n
      } catch {
        n = 0
      }
      sizes.set(table, n)
    }
    return n
  }
  const out: { sql: string; plan: string; walks: boolean }[] = []
  const done = new Set<string>()
  for (const s of statements) {
    if (!/^\s*(SELECT|WITH)/i.test(s.sql) || done.has(s.sql)) continue
    done.add(s.sql)
    try {
      const rows = client
        .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${s.sql}`)
        .all(...(s.params as never[]))
      const plan = rows.map((r) => r.detail).join('; ')
      const alias = new Map<string, string>()
      for (const m of s.sql.matchAll(
        /(?:FROM|JOIN)\s+[`"]?(\w+)[`"]?(?:\s+(?:AS\s+)?(?!WHERE|ON|LEFT|JOIN|ORDER|GROUP|LIMIT|INNER|USING)(\w+))?/gi,
      )) {
        alias.set(m[1]!, m[1]!)
        if (m[2]) alias.set(m[2], m[1]!)
      }
      const walks = rows.some((r) => {
        const m = /^SCAN (\w+)(?! VIRTUAL TABLE)/.exec(r.detail)
        return !!m && !/^SCAN \w+ VIRTUAL TABLE/.test(r.detail) && rowsIn(alias.get(m[1]!) ?? m[1]!) > WALK_ROWS
      })
      out.push({ sql: s.sql.replace(/\s+/g, ' ').slice(0, 110), plan, walks })
    } catch {
      /* a statement EXPLAIN cannot take as recorded (pragma, attach): not a query of the page */
    }
  }
  return out
}
