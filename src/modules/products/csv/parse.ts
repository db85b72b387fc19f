/**
 * Reading a catalog CSV (csv-parse, streaming): the header names the documented columns (docs/panel-catalog.md) in any
 * order; each later record is a row with its line number (where the record starts, as a text
 * editor counts; a quoted cell may span lines). Memory stays bounded: the parser stops at the
 * row limit or the byte limit and the file is refused as a whole, with a reason a person can act on.
 */
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { AppError } from '../../../lib/errors'
import { CSV_COLUMNS, CSV_MAX_BYTES, CSV_MAX_RECORD, CSV_MAX_ROWS, restore, type CsvColumn } from './format'

export interface CsvRow {
  line: number
  cells: Record<CsvColumn, string>
  /** The record had another number of cells than the header. */
  width?: number
}

export type CsvFileProblem = 'header' | 'rows' | 'bytes' | 'malformed'

/** The file as a whole is refused: a wrong header, too many rows or bytes, or broken quoting at `line`. */
export class CsvFileRefused extends AppError {
  constructor(
    readonly problem: CsvFileProblem,
    readonly line?: number,
  ) {
    const text: Record<CsvFileProblem, string> = {
      header: `The first line must name the columns ${CSV_COLUMNS.join(', ')}`,
      rows: `A file holds at most ${CSV_MAX_ROWS} rows`,
      bytes: `A file holds at most ${CSV_MAX_BYTES} bytes`,
      malformed: `The file is not valid CSV${line ? ` (line ${line})` : ''}`,
    }
    super('VALIDATION_ERROR', text[problem], {
      field: 'file',
      reason: problem === 'rows' || problem === 'bytes' ? 'out_of_range' : 'invalid_format',
      problem,
      ...(line ? { line } : {}),
    })
  }
}

/** `;` when the header line holds more of them than commas (a spreadsheet in a comma-decimal locale). */
function delimiterOf(head: string): ',' | ';' {
  const first = head.split(/\r?\n/, 1)[0] ?? ''
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

/** The rows of a CSV file (bytes, as uploaded). */
export async function parseCatalogCsv(file: Blob): Promise<CsvRow[]> {
  if (file.size > CSV_MAX_BYTES) throw new CsvFileRefused('bytes')
  const head = await file.slice(0, 4096).text()
  const parser = parse({
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    delimiter: delimiterOf(head),
    max_record_size: CSV_MAX_RECORD,
  })
  const source = Readable.fromWeb(file.stream() as import('node:stream/web').ReadableStream<Uint8Array>)
  source.on('error', (e) => parser.destroy(e))
  source.pipe(parser)
  const rows: CsvRow[] = []
  let at: Record<CsvColumn, number> | undefined
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines - newlines(record)
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
    const lines = (e as { lines?: number }).lines
    throw new CsvFileRefused('malformed', typeof lines === 'number' ? lines : undefined)
  } finally {
    source.unpipe(parser)
    source.destroy()
    parser.destroy()
  }
  if (!at) throw new CsvFileRefused('header')
  return rows
}
