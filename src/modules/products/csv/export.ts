/**
 * The catalog as CSV: the documented columns (docs/panel-catalog.md), one row per active variant
 * and one row for a product without variants, oldest product first, money in major units, every
 * cell neutralised (format.ts).
 * csv-stringify quotes every cell holding a comma, a quote, a CR or an LF — a bare CR or LF too,
 * since many readers end a record there, and an unquoted line break would start a new row whose
 * first cell a spreadsheet could run. A category is written by name, or by slug when two of the
 * store's categories share that name, so the import finds the same one again.
 *
 * Streamed a page of products at a time (keyset on rowid), so a large catalog is never one string.
 * Each page is read whole in one go, so each product's rows agree with each other.
 */
import { categoriesOfStore, productsAfter } from './sql'
import { stringify } from 'csv-stringify/sync'
import type { Ctx } from '../../../kernel/context'
import { toMajor } from '../../../lib/money'
import { activeVariantsOf } from '../sql'
import { CSV_COLUMNS, neutralise } from './format'

export const EXPORT_PAGE = 500

/** One record of the export, every cell neutralised and quoted as needed, ending in CRLF. */
export const csvLine = (cells: (string | number | null)[]) =>
  stringify([cells.map((c) => neutralise(c === null ? '' : String(c)))], {
    record_delimiter: '\r\n',
    quoted_match: /[,"\r\n]/,
  })

/** The store's catalog as CSV text, in chunks (a byte-order mark first, so spreadsheets read it as UTF-8). */
export async function* exportCatalogCsv(ctx: Ctx): AsyncGenerator<string> {
  const client = ctx.db.$client
  const storeId = ctx.store.id
  const currency = ctx.store.currency
  const cats = categoriesOfStore(client, storeId)
  const named = new Map<string, number>()
  for (const c of cats) named.set(c.name.trim().toLowerCase(), (named.get(c.name.trim().toLowerCase()) ?? 0) + 1)
  const categoryCell = new Map(
    cats.map((c) => [c.id, (named.get(c.name.trim().toLowerCase()) ?? 0) > 1 ? c.slug : c.name]),
  )
  yield `\uFEFF${csvLine([...CSV_COLUMNS])}`
  let after = 0
  for (;;) {
    const rows = productsAfter(client, storeId, after, EXPORT_PAGE)
    if (rows.length === 0) return
    const vs = activeVariantsOf(
      client,
      rows.map((r) => r.id),
    )
    let out = ''
    for (const p of rows) {
      const common = [
        p.name,
        p.slug,
        p.description,
        toMajor(p.price, currency),
        p.comparePrice === null ? null : toMajor(p.comparePrice, currency),
        p.categoryId ? (categoryCell.get(p.categoryId) ?? '') : '',
      ]
      const active = p.isActive ? 'true' : 'false'
      const own = vs.get(p.id) ?? []
      if (own.length === 0) out += csvLine([...common, null, null, p.stock, active])
      for (const v of own) out += csvLine([...common, v.name, toMajor(v.price, currency), v.stock, active])
    }
    yield out
    after = rows.at(-1)!.rid
    // Let other requests in between pages.
    await new Promise((r) => setImmediate(r))
  }
}
