/**
 * A CSV file's bytes as text: UTF-8, with or without a byte-order mark, or UTF-16 (little or big
 * endian) with its mark. Anything else is refused naming the first line that does not decode,
 * instead of turning into U+FFFD replacement characters that would be written into the catalog.
 */
import { CsvFileRefused } from './refused'

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be'

function encodingOf(b: Uint8Array): Encoding {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le'
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be'
  return 'utf-8'
}

/** The 1-based line of a position in a text (lines end at LF; a CRLF's CR belongs to its line). */
export function lineAt(text: string, index: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++
  return line
}

/** The first line whose bytes do not decode: LF never occurs inside a UTF-8 sequence or a UTF-16 pair. */
function firstBadLine(b: Uint8Array, encoding: Encoding): number {
  const unit = encoding === 'utf-8' ? 1 : 2
  const isLf = (i: number) =>
    encoding === 'utf-8'
      ? b[i] === 0x0a
      : encoding === 'utf-16le'
        ? b[i] === 0x0a && b[i + 1] === 0x00
        : b[i] === 0x00 && b[i + 1] === 0x0a
  let start = 0
  let line = 1
  for (let i = 0; i < b.length; i += unit) {
    const last = i + unit >= b.length
    if (!isLf(i) && !last) continue
    try {
      new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(b.subarray(start, i + unit))
    } catch {
      return line
    }
    start = i + unit
    line++
  }
  return line
}

export function decodeCsv(bytes: Uint8Array): string {
  const encoding = encodingOf(bytes)
  try {
    // The decoder drops the byte-order mark.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes)
  } catch {
    throw new CsvFileRefused('encoding', firstBadLine(bytes, encoding))
  }
}
