/**
 * The CSV format's formula guard and quoting, as functions (the HTTP export and import are in
 * tests/panel/csv.test.ts): every line start inside a cell is neutralised, the import undoes
 * exactly that, and a record's cells come back unchanged through the parser, whatever they hold.
 */
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { CSV_COLUMNS, csvLine, neutralise, parseCatalogCsv, restore } from '../../src/modules/products'

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r']
/** Text made mostly of the characters that matter here: triggers, quotes, commas and line breaks. */
const tricky = fc
  .array(fc.oneof(fc.constantFrom(...TRIGGERS, "'", '"', ',', ';', '\n', '\r\n', ' ', 'a', 'é', '0'), fc.string()), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''))

/** The physical lines a reader sees when it splits the text at every CR, LF or CRLF. */
const physicalLines = (text: string) => text.split(/\r\n|\r|\n/)

describe('formula neutralisation', () => {
  test('a line break inside a cell starts a line that is guarded too', () => {
    expect(neutralise("Hand made.\n=cmd|' /C calc'!A0")).toBe("Hand made.\n'=cmd|' /C calc'!A0")
    expect(neutralise('a\r\n+1\r-2\n@x')).toBe("a\r\n'+1\r'-2\n'@x")
    expect(neutralise("one\n'=x")).toBe("one\n''=x")
    expect(neutralise("one\n'hello\nplain")).toBe("one\n'hello\nplain")
    expect(restore("Hand made.\n'=cmd|' /C calc'!A0")).toBe("Hand made.\n=cmd|' /C calc'!A0")
  })

  test('restore undoes neutralise for any text', () => {
    fc.assert(
      fc.property(tricky, (cell) => restore(neutralise(cell)) === cell),
      { numRuns: 1000 },
    )
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (cell) => restore(neutralise(cell)) === cell))
  }, 60_000)

  test('no line of a neutralised cell starts with a formula trigger', () => {
    fc.assert(
      fc.property(tricky, (cell) =>
        physicalLines(neutralise(cell)).every((line, i, all) => {
          // A lone CR is a line break here, so a line can't begin with one unless the cell ends there.
          const first = line[0]
          return first === undefined || !TRIGGERS.includes(first) || (i === all.length - 1 && line === '')
        }),
      ),
      { numRuns: 1000 },
    )
  }, 60_000)
})

describe('export record → import parser', () => {
  test('a cell holding a comma, quote, CR or LF is quoted, and every physical line starts guarded', () => {
    const line = csvLine(['Tee', "Hand made.\n=cmd|' /C calc'!A0", 'a,b', 'say "hi"', 'cr\ronly', 'plain'])
    expect(line).toBe(`Tee,"Hand made.\n'=cmd|' /C calc'!A0","a,b","say ""hi""","cr\ronly",plain\r\n`)
  })

  test('any ten cells come back from the parser exactly as they were', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tricky, { minLength: 10, maxLength: 10 }), async (cells) => {
        const text = csvLine([...CSV_COLUMNS]) + csvLine(cells)
        for (const line of physicalLines(text)) {
          // A reader that splits at line breaks sees each line start with a quote or a guarded character.
          const start = line.replace(/^"/, '')[0]
          expect(start === undefined || !['=', '+', '-', '@', '\t'].includes(start)).toBe(true)
        }
        const rows = await parseCatalogCsv(new Blob([text]))
        expect(rows).toHaveLength(1)
        expect(CSV_COLUMNS.map((c) => rows[0]!.cells[c])).toEqual(cells)
      }),
      { numRuns: 300 },
    )
  }, 60_000)
})
