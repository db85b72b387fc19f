/** A CSV file refused as a whole, with the line it concerns where there is one. */
import { AppError } from '../../../lib/errors'
import { CSV_COLUMNS, CSV_MAX_BYTES, CSV_MAX_ROWS } from './format'

export type CsvFileProblem = 'header' | 'rows' | 'bytes' | 'malformed' | 'encoding' | 'nul' | 'long'

/** The file as a whole is refused: a wrong header, too many rows or bytes, bad bytes, or broken quoting at `line`. */
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
      encoding: `Line ${line} is not UTF-8`,
      nul: `Line ${line} holds a NUL byte`,
      long: `Line ${line} is longer than 64 KB`,
    }
    const outOfRange = problem === 'rows' || problem === 'bytes' || problem === 'long'
    super('VALIDATION_ERROR', text[problem], {
      field: 'file',
      reason: outOfRange ? 'out_of_range' : 'invalid_format',
      problem,
      ...(line ? { line } : {}),
    })
  }
}
