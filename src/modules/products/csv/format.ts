/**
 * The catalog's CSV format: its columns, its bounds, and the rule that
 * keeps a spreadsheet from running a cell as a formula.
 *
 * Neutralising: a line of a cell — its start, and the start after every line break inside it (LF,
 * CRLF or a lone CR) — that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (after any
 * run of `'`) is exported with one more `'` in front, so Excel, LibreOffice and Sheets show it as
 * text instead of running it (`=HYPERLINK(…)`), even when a reader splits a cell at its line
 * breaks. The import takes that one `'` off again at every line start of that shape, so export →
 * import gives back every cell as it was: `=x` → `'=x` → `=x`, `'=x` → `''=x` → `'=x`, and
 * `a\n=x` → `a\n'=x` → `a\n=x`. A line like `'hello` is left alone both ways. Adding a `'` at a
 * line start never moves another line start, which is why the two are exact inverses. A number
 * never needs it: a negative price or stock is refused anyway.
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

/**
 * A line start (the cell's, or just after a CR or LF) followed by a formula trigger. The position
 * between the CR and LF of a CRLF is no line start, and needs no test here: an LF is no trigger.
 */
const TRIGGER = /(?<=^|[\r\n])(?='*[=+\-@\t\r])/g
/** A line start whose `'` neutralise added. */
const EXPORTED = /(?<=^|[\r\n])'(?='*[=+\-@\t\r])/g

/** A cell as written to the file. */
export const neutralise = (cell: string): string => cell.replace(TRIGGER, "'")

/** A cell as read from the file: neutralise's `'` taken off again. */
export const restore = (cell: string): string => cell.replace(EXPORTED, '')
