/**
 * The catalog's CSV format: its columns, its bounds, and the rule that
 * keeps a spreadsheet from running a cell as a formula.
 *
 * Neutralising: a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (after any
 * run of `'`) is exported with one more `'` in front, so Excel, LibreOffice and Sheets show it as
 * text instead of running it (`=HYPERLINK(…)`). The import takes that one `'` off again from any
 * cell of that shape, so export → import gives back every cell as it was: `=x` → `'=x` → `=x`, and
 * `'=x` → `''=x` → `'=x`. A cell like `'hello` is left alone both ways. A number never needs it:
 * a negative price or stock is refused anyway.
 */

/** The columns, in the order the export writes them; an import accepts them in any order. */
export const CSV_COLUMNS = [
  'name',
  'slug',
  'description',
  'price',
  'comparePrice',
  'category',
  'variant',
  'variantPrice',
  'stock',
  'isActive',
] as const
export type CsvColumn = (typeof CSV_COLUMNS)[number]

/** An import holds at most this many rows (not counting the header)… */
export const CSV_MAX_ROWS = 10_000
/** …in a file of at most this many bytes. */
export const CSV_MAX_BYTES = 5 * 1024 * 1024
/** One record's characters (a description is at most 10,000). */
export const CSV_MAX_RECORD = 64 * 1024

const TRIGGER = /^'*[=+\-@\t\r]/
const EXPORTED = /^'+[=+\-@\t\r]/

/** A cell as written to the file. */
export const neutralise = (cell: string): string => (TRIGGER.test(cell) ? `'${cell}` : cell)

/** A cell as read from the file: neutralise's `'` taken off again. */
export const restore = (cell: string): string => (EXPORTED.test(cell) ? cell.slice(1) : cell)
