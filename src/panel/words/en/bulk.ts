/** Bulk edit and the CSV import and export (English). */
const fmt = (n: number) => n.toLocaleString('en-US')

export const bulk = {
  bulkEdit: 'Bulk edit',
  exportCsv: 'Export CSV',
  importCsv: 'Import CSV',
  bulkIntro:
    'Change prices and stock of many products at once. Saving applies every changed cell together, or none of ' +
    'them if one is refused.',
  bulkBound: (n: number) => `${n} products a page; products with variants have a row per variant.`,
  stockEmpty: 'An empty stock means stock is not tracked.',
  gridCaption: 'Prices and stock',
  priceOf: (row: string) => `Price of ${row}`,
  stockOf: (row: string) => `Stock of ${row}`,
  saveChanges: 'Save changes',
  bulkSaved: (n: number) => (n === 1 ? 'Saved the changes to 1 product.' : `Saved the changes to ${fmt(n)} products.`),
  nothingChanged: 'Nothing was changed.',
  rowsRefused: (n: number) =>
    n === 1 ? '1 row needs attention; nothing was saved.' : `${fmt(n)} rows need attention; nothing was saved.`,
  noRows: 'No products yet.',
  importTitle: 'Import products from CSV',
  importIntro:
    'Rows are matched to products by slug: a known slug updates that product, a new one creates a product. You ' +
    'will see what would change before anything is saved.',
  columnsAre: (cols: string, currency: string) =>
    `The first line names the columns: ${cols}. One line per variant; a product without variants has one line. ` +
    `Prices are in ${currency}; an empty stock is not tracked.`,
  importLimits: (rows: string, mb: string) => `At most ${rows} rows and ${mb} MB per file.`,
  exportHint: 'The export has the same columns: download it, edit it in a spreadsheet, and import it again.',
  file: 'CSV file',
  checkFile: 'Check the file',
  chooseFile: 'Choose a CSV file.',
  dryRunTitle: 'Check before importing',
  fileName: (name: string, rows: number) => `${name}: ${fmt(rows)} rows.`,
  toCreate: (n: number) => (n === 1 ? '1 product to create' : `${fmt(n)} products to create`),
  toUpdate: (n: number) => (n === 1 ? '1 product to update' : `${fmt(n)} products to update`),
  unchanged: (n: number) => (n === 1 ? '1 product unchanged' : `${fmt(n)} products unchanged`),
  refused: (n: number) => (n === 1 ? '1 line refused' : `${fmt(n)} lines refused`),
  lineOf: (line: number) => `line ${line}`,
  changes: (cols: string) => `changes ${cols}`,
  lineProblem: (line: number, column: string, message: string) =>
    column ? `Line ${line}, column ${column}: ${message}` : `Line ${line}: ${message}`,
  andMore: (n: number) => `…and ${fmt(n)} more.`,
  fixAndRetry: 'Nothing will be imported while a line is refused. Fix the file and check it again.',
  applyImport: 'Apply the import',
  applyHint: 'All lines are applied together, or none.',
  anotherFile: 'Check another file',
  imported: (created: number, updated: number) => `Imported: ${fmt(created)} created, ${fmt(updated)} updated.`,
  nothingToImport: 'Nothing to change: the file matches the catalog.',
  expired: 'This check has expired or was replaced by a newer one. Upload the file again.',
  fileHeader: (cols: string) => `The first line must name exactly these columns: ${cols}.`,
  fileRows: (n: string) => `The file has more than ${n} rows. Split it into smaller files.`,
  fileBytes: (mb: string) => `The file is larger than ${mb} MB. Split it into smaller files.`,
  fileMalformed: (line: number | undefined) =>
    line
      ? `The file is not valid CSV near line ${line} (check its quotes).`
      : 'The file is not valid CSV (check its quotes).',
  conflicts: (line: number) => `Line ${line} has the same slug with other product details.`,
  variantTwice: (line: number) => `This variant is already on line ${line}.`,
  mixedRows: (line: number) => `Line ${line} has the same slug; a product without variants has a single line.`,
  wrongWidth: 'This line does not have one cell per column.',
  categoryUnknown: 'No category of this store has this name or slug.',
  categoryAmbiguous: 'Several categories have this name: use the category’s slug.',
  categoryNamed: (name: string) => `No category named “${name}”. Use a category’s name or slug, or leave it empty.`,
  expectWhole: 'Enter a whole number of 0 or more.',
  expectPrice: 'Enter a price of 0 or more.',
  expectDecimals: (digits: number, currency: string) =>
    digits === 0
      ? `Enter a price of 0 or more without decimals (${currency}).`
      : `Enter a price of 0 or more with at most ${digits} decimals (${currency}).`,
  expectBoolean: 'Enter true or false (yes/no, sí/no, sim/não and 1/0 work too).',
  fileEncoding: (line: number) => `Line ${line} is not UTF-8. Save the file as “CSV UTF-8” and check it again.`,
  fileNul: (line: number) =>
    `Line ${line} holds a NUL byte, which a CSV file can’t hold. Save it as “CSV UTF-8” again.`,
  fileLong: (line: number) =>
    `Line ${line} is longer than 64 KB. A quote left open there makes the rest of the file one cell: check its quotes.`,
  busy: 'Another import of this store is running. Try again in a few seconds.',
  emptyValue: '(empty)',
}
