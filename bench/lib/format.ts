/** Output: numbers and tables. */
import { existsSync } from 'node:fs'
import type { Row } from './types'

export const fmtInt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—')
export const fmtMs = (n: number) => (Number.isFinite(n) ? `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms` : '—')
export const fmtUs = (n: number) => (Number.isFinite(n) ? `${n.toFixed(1)} µs` : '—')
export const fmtPct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : '—')

/** Prints rows as an aligned text table (columns from the first row's keys, in order). */
export function printTable(rows: Row[], out: (s: string) => void = console.log): void {
  if (rows.length === 0) {
    out('(no rows)')
    return
  }
  const cols = [...new Set(rows.flatMap((r) => Object.keys(r)))]
  const cell = (v: string | number | undefined) => (v === undefined ? '' : String(v))
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)))
  const numeric = cols.map((c) =>
    rows.every(
      (r) => r[c] === undefined || typeof r[c] === 'number' || /^[\d,.]+( ms| µs| %|x)?$|^—$/.test(cell(r[c])),
    ),
  )
  const line = (vals: string[]) =>
    `| ${vals.map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!))).join(' | ')} |`
  out(line(cols))
  out(`|${width.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`)
  for (const r of rows) out(line(cols.map((c) => cell(r[c]))))
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const fileExists = existsSync
