/**
 * Shared pieces of the resilience suite: the result row every case returns (one line of the
 * `bun run resilience` table), the spec's error-shape check, and table row counts for the
 * "no partial writes" property.
 */
import type { Database } from 'bun:sqlite'

/** One line of the table. Every count is of problems found, except `tried`. */
export interface CaseResult {
  name: string
  /** Requests (or orders, or pairs) the case tried. */
  tried: number
  /** Assertions that failed; each one is described in `problems`. */
  failures: number
  ordersLost: number
  eventsLost: number
  duplicates: number
  fiveXx: number
  leaks: number
  ms: number
  problems: string[]
  /** Extra figures worth printing (not failures). */
  notes: string[]
}

export function newResult(name: string): CaseResult {
  return {
    name,
    tried: 0,
    failures: 0,
    ordersLost: 0,
    eventsLost: 0,
    duplicates: 0,
    fiveXx: 0,
    leaks: 0,
    ms: 0,
    problems: [],
    notes: [],
  }
}

/** Records a failed assertion; keeps at most 50 descriptions so a broken run stays readable. */
export function fail(r: CaseResult, problem: string): void {
  r.failures++
  if (r.problems.length < 50) r.problems.push(problem)
}

export async function timed(r: CaseResult, fn: () => Promise<void>): Promise<CaseResult> {
  const start = performance.now()
  try {
    await fn()
  } catch (err) {
    fail(r, `threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
  }
  r.ms = Math.round(performance.now() - start)
  return r
}

/** A readable failure message for `expect` in the CI test files. */
export function summary(r: CaseResult): string {
  return `${r.name}: ${r.failures} failure(s)\n${r.problems.join('\n')}`
}

const isStr = (v: unknown): v is string => typeof v === 'string'

/**
 * Why a non-2xx answer breaks the error rules of docs/api.md (undefined when it doesn't): `error` is a string,
 * `code` a string (except 402, whose body is fixed by 7.3), 400 is VALIDATION_ERROR with
 * `details.field` and `details.reason`, 429 carries Retry-After.
 */
export function errorShapeProblem(status: number, body: unknown, headers: Headers): string | undefined {
  if (status < 400) return undefined
  if (!(headers.get('content-type') ?? '').includes('application/json'))
    return `content-type ${headers.get('content-type')}`
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'body is not a JSON object'
  const b = body as Record<string, unknown>
  if (!isStr(b.error)) return '`error` is not a string'
  if (status === 402) {
    return b.error === 'payment_required' &&
      isStr(b.message) &&
      b.state === 'suspended' &&
      isStr(b.upgradeUrl) &&
      b.code === undefined
      ? undefined
      : '402 body differs from the documented one'
  }
  if (!isStr(b.code)) return '`code` is not a string'
  if (b.details !== undefined && (typeof b.details !== 'object' || b.details === null || Array.isArray(b.details)))
    return '`details` is not an object'
  const expected: Record<number, string[]> = {
    400: ['VALIDATION_ERROR'],
    401: ['UNAUTHORIZED'],
    403: ['FORBIDDEN', 'PLAN_REQUIRED'],
    404: ['NOT_FOUND'],
    413: ['PAYLOAD_TOO_LARGE'],
    429: ['RATE_LIMIT_EXCEEDED'],
  }
  if (expected[status] && !expected[status].includes(b.code)) return `status ${status} with code ${b.code}`
  if (status === 400) {
    const d = b.details as Record<string, unknown> | undefined
    if (!d || !isStr(d.field) || !isStr(d.reason))
      return '400 VALIDATION_ERROR without details.field and details.reason'
  }
  if (status === 429 && !headers.get('retry-after')) return '429 without Retry-After'
  return undefined
}

/** Tables whose row counts may change on a rejected request (counters written behind, visits). */
const VOLATILE = new Set(['rate_limits', 'catalog_visits', 'visit_stats_daily', '__drizzle_migrations'])

export function userTables(db: Database): string[] {
  return db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all()
    .map((r) => r.name)
    .filter((n) => !VOLATILE.has(n))
}

/** Row count of every non-volatile table, in one statement. */
export function rowCounter(db: Database): () => Record<string, number> {
  // An event is one row in the outbox or, once the dispatcher has moved it (which it does in the
  // background at any time), one in the delivery log: counted together.
  const events = ['webhook_outbox', 'webhook_deliveries']
  const tables = userTables(db).filter((t) => !events.includes(t))
  const columns = [
    ...tables.map((t) => `(SELECT count(*) FROM "${t}") AS "${t}"`),
    `${events.map((t) => `(SELECT count(*) FROM "${t}")`).join(' + ')} AS "webhook events (outbox + log)"`,
  ]
  const stmt = db.query<Record<string, number>, []>(`SELECT ${columns.join(', ')}`)
  return () => ({ ...stmt.get()! })
}

export function diffCounts(before: Record<string, number>, after: Record<string, number>): string[] {
  return Object.keys(before)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k} ${before[k]}→${after[k]}`)
}

/** The table `bun run resilience` prints. */
export function formatTable(rows: CaseResult[]): string {
  const head = ['case', 'tried', 'failures', 'orders lost', 'events lost', 'duplicates', '5xx', 'leaks', 'time']
  const lines = rows.map((r) =>
    [
      r.name,
      r.tried,
      r.failures,
      r.ordersLost,
      r.eventsLost,
      r.duplicates,
      r.fiveXx,
      r.leaks,
      `${(r.ms / 1000).toFixed(1)} s`,
    ].map(String),
  )
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)))
  const fmt = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  return [
    fmt(head),
    `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...lines.map(fmt),
  ].join('\n')
}
