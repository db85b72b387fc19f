/** Human output of the admin CLI: lists as aligned tables, single records as aligned fields. */

const cell = (v: unknown): string =>
  v === null || v === undefined
    ? '-'
    : Array.isArray(v)
      ? v.join(',')
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v)

export function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return '(none)'
  const cols = Object.keys(rows[0]!)
  const cells = rows.map((r) => cols.map((c) => cell(r[c])))
  const widths = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)))
  const line = (values: string[]) =>
    values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!))).join('  ')
  return [line(cols), ...cells.map(line)].join('\n')
}

export function formatHuman(result: Record<string, unknown>): string {
  if (Array.isArray(result.data)) return table(result.data as Record<string, unknown>[])
  const width = Math.max(...Object.keys(result).map((k) => k.length))
  return Object.entries(result)
    .map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`)
    .join('\n')
}
