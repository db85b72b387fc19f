/**
 * Reading a catalog CSV (csv-parse): the header names the documented columns
 * (docs/panel-catalog.md) in any order; each later record is a row with its line number (where the
 * record starts, as a text editor counts; a quoted cell may span lines). The bytes are read as UTF-8 (with or without a
 * byte-order mark) or UTF-16 with its mark (decode.ts); anything else, a NUL character, or a record over 64 KB refuses
 * the file as a whole, naming the line, as do a wrong header and too many rows or bytes.
 *
 * The text is fed to the parser in slices with a turn of the event loop between them, so a large
 * file never holds up other requests while it is read.
 */
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { CSV_COLUMNS, CSV_MAX_BYTES, CSV_MAX_RECORD, CSV_MAX_ROWS, restore, type CsvColumn } from './format'
import { CsvFileRefused } from './refused'
import { decodeCsv, lineAt } from './decode'
import { nextTurn } from './turns'

export { CsvFileRefused, type CsvFileProblem } from './refused'

export interface CsvRow {
  line: number
  cells: Record<CsvColumn, string>
  /** The record had another number of cells than the header. */
  width?: number
}

/** `;` when the header line holds more of them than commas (a spreadsheet in a comma-decimal locale). */
function delimiterOf(text: string): ',' | ';' {
  const first = text.slice(0, 4096).split(/\r?\n/, 1)[0] ?? ''
  return (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ';' : ','
}

/** The header's column positions, or undefined when it is not the ten documented columns. */
function columnsOf(header: string[]): Record<CsvColumn, number> | undefined {
  const names = header.map((h) => h.trim().toLowerCase())
  if (names.length !== CSV_COLUMNS.length) return undefined
  const at = {} as Record<CsvColumn, number>
  for (const c of CSV_COLUMNS) {
    const i = names.indexOf(c.toLowerCase())
    if (i === -1) return undefined
    at[c] = i
  }
  return at
}

const newlines = (cells: string[]) => cells.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0)

/** Characters handed to the parser between two turns of the event loop (a few milliseconds of work). */
const SLICE_CHARS = 8 * 1024

async function* slices(text: string): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += SLICE_CHARS) {
    yield text.slice(i, i + SLICE_CHARS)
    await nextTurn()
  }
}

type Info = { lines: number; empty_lines: number }

/** The rows of a CSV file (bytes, as uploaded). */
export async function parseCatalogCsv(file: Blob): Promise<CsvRow[]> {
  if (file.size > CSV_MAX_BYTES) throw new CsvFileRefused('bytes')
  const text = decodeCsv(new Uint8Array(await file.arrayBuffer()))
  const nul = text.indexOf('\0')
  if (nul !== -1) throw new CsvFileRefused('nul', lineAt(text, nul))
  const parser = parse({
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    delimiter: delimiterOf(text),
    max_record_size: CSV_MAX_RECORD,
  })
  const source = Readable.from(slices(text))
  source.on('error', (e) => parser.destroy(e))
  source.pipe(parser)
  const rows: CsvRow[] = []
  let at: Record<CsvColumn, number> | undefined
  // Where the last record ended, so a record refused for its length is named by the line it starts on.
  let ended: Info = { lines: 0, empty_lines: 0 }
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      const line = info.lines - newlines(record)
      ended = { lines: info.lines, empty_lines: info.empty_lines }
      if (!at) {
        at = columnsOf(record)
        if (!at) throw new CsvFileRefused('header')
        continue
      }
      if (rows.length === CSV_MAX_ROWS) throw new CsvFileRefused('rows')
      const cells = {} as Record<CsvColumn, string>
      for (const c of CSV_COLUMNS) cells[c] = restore(record[at[c]] ?? '')
      rows.push(record.length === CSV_COLUMNS.length ? { line, cells } : { line, cells, width: record.length })
    }
  } catch (e) {
    if (e instanceof CsvFileRefused) throw e
    const err = e as { code?: string; lines?: number; empty_lines?: number }
    const start = ended.lines + 1 + Math.max(0, (err.empty_lines ?? 0) - ended.empty_lines)
    if (err.code === 'CSV_MAX_RECORD_SIZE') throw new CsvFileRefused('long', start)
    // A quote still open at the end of the file: the line it opens on, not the file's last.
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') throw new CsvFileRefused('malformed', start)
    throw new CsvFileRefused('malformed', typeof err.lines === 'number' ? err.lines : undefined)
  } finally {
    source.unpipe(parser)
    source.destroy()
    parser.destroy()
  }
  if (!at) throw new CsvFileRefused('header')
  return rows
}
