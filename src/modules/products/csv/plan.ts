/**
 * From CSV rows to the API's product bodies, with no database: rows grouped by slug (one row per
 * variant, or one row for a product without variants), the checks only a file needs (rows of one
 * slug that disagree on the product's columns, a variant named twice, a product row mixed with
 * variant rows, a row of the wrong width), and where an API field's error sits in the file.
 */
import { ValidationError } from '../../../lib/errors'
import type { CsvColumn } from './format'
import type { CsvRow } from './parse'

/** The rows of one product: by slug, or (no slug) by name, for a product to create. */
export interface CsvGroup {
  slug?: string
  rows: CsvRow[]
  /** Rows naming a variant, in file order (empty: a product without variants). */
  variantRows: CsvRow[]
}

/** A refusal at a line and column of the file. */
export interface CsvProblem {
  line: number
  column?: CsvColumn
  error: unknown
}

const PRODUCT_COLUMNS = ['name', 'description', 'price', 'comparePrice', 'category', 'isActive'] as const

export function groupRows(rows: CsvRow[], problems: CsvProblem[]): CsvGroup[] {
  const groups = new Map<string, CsvGroup>()
  for (const row of rows) {
    if (row.width !== undefined) {
      problems.push({
        line: row.line,
        error: new ValidationError('row', 'invalid_format', `This line has ${row.width} cells; the header has 10`),
      })
      continue
    }
    const slug = row.cells.slug.trim()
    const key = slug ? `s:${slug}` : `n:${row.cells.name.trim()}`
    const g = groups.get(key)
    if (!g) {
      groups.set(key, { ...(slug ? { slug } : {}), rows: [row], variantRows: row.cells.variant.trim() ? [row] : [] })
      continue
    }
    const first = g.rows[0]!
    const differs = PRODUCT_COLUMNS.find((c) => !same(row.cells[c], first.cells[c]))
    const variant = row.cells.variant.trim()
    if (differs)
      problems.push({
        line: row.line,
        column: differs,
        error: new ValidationError(differs, 'duplicate', 'Another line of this slug says otherwise', {
          conflictsWith: first.line,
          clash: 'product',
        }),
      })
    else if (!variant || g.variantRows.length < g.rows.length)
      problems.push({
        line: row.line,
        column: 'variant',
        error: new ValidationError('variant', 'duplicate', 'A product without variants has one line', {
          conflictsWith: first.line,
          clash: 'single',
        }),
      })
    else if (g.variantRows.some((r) => r.cells.variant.trim() === variant))
      problems.push({
        line: row.line,
        column: 'variant',
        error: new ValidationError('variant', 'duplicate', 'This variant is named twice', {
          conflictsWith: g.variantRows.find((r) => r.cells.variant.trim() === variant)!.line,
          clash: 'variant',
        }),
      })
    g.rows.push(row)
    if (variant) g.variantRows.push(row)
  }
  return [...groups.values()]
}

const NUMBER = /^-?\d+(?:[.,]\d+)?$/
const isNumber = (s: string) => NUMBER.test(s.trim())
const same = (a: string, b: string) =>
  a.trim() === b.trim() || (isNumber(a) && isNumber(b) && toNumber(a) === toNumber(b))
const toNumber = (s: string) => Number(s.trim().replace(',', '.'))

/**
 * The line and column of an API field's error in a group:
 * `variants[1].price` is the second variant's line, column variantPrice.
 */
export function placeOf(g: CsvGroup, field: unknown): { line: number; column?: CsvColumn } {
  const first = g.rows[0]!.line
  const f = typeof field === 'string' ? field : ''
  const v = /^variants\[(\d+)\](?:\.(\w+))?$/.exec(f)
  if (v) {
    const row = g.variantRows[Number(v[1])]
    const column: CsvColumn = v[2] === 'price' ? 'variantPrice' : v[2] === 'stock' ? 'stock' : 'variant'
    return { line: row?.line ?? first, column }
  }
  if (f === 'variants') return { line: first, column: 'variant' }
  if (f === 'categoryId') return { line: first, column: 'category' }
  const columns: string[] = ['name', 'slug', 'description', 'price', 'comparePrice', 'stock', 'isActive']
  return columns.includes(f) ? { line: first, column: f as CsvColumn } : { line: first }
}
