/**
 * From a product's CSV rows to the API's ProductCreate body, checking every cell at once: each
 * fault of each line is reported (line, column, what is expected), not only the first. A cell's
 * own rule comes first — a price of 0 or more in the store currency's decimals, a whole stock of
 * 0 or more, true or false in the panel's languages, a category of the store — then the API's
 * schema over the whole body (lengths, the slug's shape), each error at its column. A faulty
 * cell stands in the body as a value the schema accepts, so its fault is reported once.
 */
import { Value } from '@sinclair/typebox/value'
import { fromElysiaValidation } from '../../../lib/check-body'
import { ValidationError } from '../../../lib/errors'
import { minorDigits, toMinor } from '../../../lib/money'
import { ProductCreate } from '../model'
import type { CsvColumn } from './format'
import type { CsvRow } from './parse'
import { placeOf, type CsvGroup, type CsvProblem } from './plan'

/** What a faulty cell should hold; the panel says it in the person's language. */
export type CellExpected = 'whole' | 'price' | 'decimals' | 'boolean'

const expected = (column: CsvColumn, what: CellExpected, extra: Record<string, unknown> = {}) =>
  new ValidationError(column, what === 'boolean' ? 'invalid_type' : 'invalid_format', `Enter ${TEXT[what]}`, {
    expected: what,
    ...extra,
  })
const TEXT: Record<CellExpected, string> = {
  whole: 'a whole number of 0 or more',
  price: 'a price of 0 or more',
  decimals: 'a price with fewer decimals',
  boolean: 'true or false',
}

/** Accepted for isActive, in the panel's languages (case and outer spaces aside); empty is true. */
const BOOLEAN: Record<string, boolean> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  sí: true,
  si: true,
  sim: true,
  não: false,
  nao: false,
  '1': true,
  '0': false,
}

const PRICE = /^\d+(?:[.,]\d+)?$/
const WHOLE = /^\d+(?:[.,]0+)?$/
const MAX_PRICE = 1e12
const MAX_STOCK = 1_000_000_000

type Fault = { row: CsvRow; column: CsvColumn; error: unknown }

/** A group's body and its faults; `category` turns the category cell into an id or throws its fault. */
export function readGroup(
  g: CsvGroup,
  category: (cell: string) => string | null,
  currency: string,
): { body: Record<string, unknown>; faults: CsvProblem[] } {
  const faults: Fault[] = []
  const first = g.rows[0]!
  const c = first.cells
  const price = (row: CsvRow, column: CsvColumn, cell: string): number | undefined => {
    const s = cell.trim()
    const n = PRICE.test(s) ? Number(s.replace(',', '.')) : Number.NaN
    if (!(n <= MAX_PRICE)) return void faults.push({ row, column, error: expected(column, 'price') })
    try {
      toMinor(n, currency, column)
    } catch {
      return void faults.push({
        row,
        column,
        error: expected(column, 'decimals', { digits: minorDigits(currency), currency }),
      })
    }
    return n
  }
  const stock = (row: CsvRow): number | null => {
    const s = row.cells.stock.trim()
    if (s === '') return null
    const n = WHOLE.test(s) ? Number(s.replace(',', '.')) : Number.NaN
    if (n <= MAX_STOCK) return n
    faults.push({ row, column: 'stock', error: expected('stock', 'whole') })
    return null
  }
  const body: Record<string, unknown> = {
    name: c.name.trim(),
    description: c.description === '' ? null : c.description,
  }
  if (g.slug) body.slug = g.slug
  if (c.price.trim() === '')
    faults.push({ row: first, column: 'price', error: new ValidationError('price', 'required', "'price' is required") })
  const productPrice = c.price.trim() === '' ? undefined : price(first, 'price', c.price)
  body.price = productPrice ?? 0
  const compare = c.comparePrice.trim() === '' ? null : price(first, 'comparePrice', c.comparePrice)
  body.comparePrice = compare ?? null
  if (productPrice !== undefined && compare != null && compare <= productPrice)
    faults.push({
      row: first,
      column: 'comparePrice',
      error: new ValidationError(
        'comparePrice',
        'out_of_range',
        "'comparePrice' must be greater than 'price' (or null)",
      ),
    })
  const active = c.isActive.trim() === '' ? true : BOOLEAN[c.isActive.trim().toLowerCase()]
  if (active === undefined) faults.push({ row: first, column: 'isActive', error: expected('isActive', 'boolean') })
  body.isActive = active ?? true
  try {
    body.categoryId = category(c.category)
  } catch (error) {
    faults.push({ row: first, column: 'category', error })
    body.categoryId = null
  }
  if (g.variantRows.length === 0) body.stock = stock(first)
  else
    body.variants = g.variantRows.map((r) => ({
      name: r.cells.variant.trim(),
      price:
        r.cells.variantPrice.trim() === ''
          ? (productPrice ?? 0)
          : (price(r, 'variantPrice', r.cells.variantPrice) ?? 0),
      stock: stock(r),
    }))
  const problems: CsvProblem[] = faults.map((f) => ({ line: f.row.line, column: f.column, error: f.error }))
  const taken = new Set(problems.map((p) => `${p.line}:${p.column}`))
  const seen = new Set<string>()
  for (const e of Value.Errors(ProductCreate, body)) {
    const error = fromElysiaValidation({ all: [e], type: 'body' })
    const field = (error.details as { field?: string }).field
    if (seen.has(field ?? '')) continue
    seen.add(field ?? '')
    const at = placeOf(g, field)
    const key = `${at.line}:${at.column}`
    if (taken.has(key)) continue
    taken.add(key)
    problems.push({ ...at, error })
  }
  return { body, faults: problems }
}
