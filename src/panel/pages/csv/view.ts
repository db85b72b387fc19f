/** The CSV import's pages: the upload form (with the export link) and the dry run's report. */
import { CSV_COLUMNS, CSV_MAX_BYTES, CSV_MAX_ROWS, type CsvChange, type ImportReport } from '../../../modules/products'
import { html, type Html } from '../../../shop/html'
import { form, layout, type Frame } from '../../views'
import { notice } from '../controls'

/** A refused line, in the person's words. */
export interface LineMessage {
  line: number
  column?: string
  message: string
  upgradeUrl?: string
}

const SHOWN = 100
const fmt = (f: Frame, n: number) => n.toLocaleString(f.w.shell.locale)

export function importPage(f: Frame, d: { currency: string; error?: string; done?: string }): string {
  const w = f.w
  const fileError = d.error ? html`<div class="alert" role="alert"><p id="file-error">${d.error}</p></div>` : ''
  const refused = d.error ? html` aria-describedby="file-error" aria-invalid="true"` : ''
  const fileInput = html`<input id="file" name="file" type="file" accept=".csv,text/csv" required${refused}>`
  return layout(
    f,
    w.bulk.importTitle,
    html`${notice(d.done)}${fileError}
    <p>${w.bulk.importIntro}</p>
    <p class="hint">${w.bulk.columnsAre(CSV_COLUMNS.join(', '), d.currency)} ${w.bulk.importLimits(
      fmt(f, CSV_MAX_ROWS),
      fmt(f, CSV_MAX_BYTES / 1024 / 1024),
    )}</p>
    ${form(
      f,
      '/admin/products/import',
      html`<label for="file">${w.bulk.file}</label>${fileInput}
      <p><button type="submit">${w.bulk.checkFile}</button></p>`,
      'enctype="multipart/form-data"',
    )}
    <h2>${w.bulk.exportCsv}</h2>
    <p>${w.bulk.exportHint}</p>
    <p><a class="button secondary" href="/admin/products/export.csv" download>${w.bulk.exportCsv}</a></p>
    <p><a href="/admin/products">${f.w.products.backToProducts}</a></p>`,
  )
}

/** Each changed value as it is and as it will be: "price: 20.00 → 23.00", "stock (M): 5 → 7". */
const changeList = (f: Frame, changes: CsvChange[]): Html => {
  const w = f.w
  const value = (v: string) => v || w.bulk.emptyValue
  return html`<ul class="changes">${changes.map(
    (c) => html`<li>${c.column}${c.variant ? ` (${c.variant})` : ''}: ${value(c.from)} → ${value(c.to)}</li>`,
  )}</ul>`
}

const more = (f: Frame, n: number): Html | '' => (n > SHOWN ? html`<p>${f.w.bulk.andMore(n - SHOWN)}</p>` : '')

export function dryRunPage(
  f: Frame,
  d: {
    name: string
    report?: ImportReport
    rows: number
    problems: LineMessage[]
    staged?: { id: string; hash: string }
  },
): string {
  const w = f.w
  const r = d.report
  const upgrade = d.problems.find((p) => p.upgradeUrl)?.upgradeUrl
  const changes = r ? r.create.length + r.update.length : 0
  // A line may have several faults: the count is of lines, the list has every fault.
  const refusedLines = new Set(d.problems.map((p) => p.line)).size
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`
  const apply = html`<p class="hint">${w.bulk.applyHint}</p><p><button type="submit">${w.bulk.applyImport}</button></p>`
  return layout(
    f,
    w.bulk.dryRunTitle,
    html`<p>${w.bulk.fileName(d.name, d.rows)}</p>
    ${
      d.problems.length
        ? html`<div class="alert" role="alert"><p>${w.bulk.refused(refusedLines)}. ${w.bulk.fixAndRetry}</p>${
            upgrade ? html`<p><a class="button" href="${upgrade}">${w.problems.upgradePlan}</a></p>` : ''
          }</div>
        <h2>${w.bulk.refused(refusedLines)}</h2>
        <ul class="list">${d.problems
          .slice(0, SHOWN)
          .map(
            (p) => html`<li>${w.bulk.lineProblem(p.line, p.column ?? '', p.message)}</li>`,
          )}</ul>${more(f, d.problems.length)}`
        : ''
    }
    ${
      r
        ? html`<ul>
        <li>${w.bulk.toCreate(r.create.length)}</li>
        <li>${w.bulk.toUpdate(r.update.length)}</li>
        <li>${w.bulk.unchanged(r.unchanged)}</li>
      </ul>
      ${
        r.create.length
          ? html`<h2>${w.bulk.toCreate(r.create.length)}</h2><ul class="list">${r.create
              .slice(0, SHOWN)
              .map((c) => html`<li>${c.name} (${w.bulk.lineOf(c.line)})</li>`)}</ul>${more(f, r.create.length)}`
          : ''
      }
      ${
        r.update.length
          ? html`<h2>${w.bulk.toUpdate(r.update.length)}</h2><ul class="list">${r.update.slice(0, SHOWN).map((u) => {
              const what = w.bulk.changes(u.columns.join(', '))
              return html`<li>${u.name} (${w.bulk.lineOf(u.line)}): ${what}${changeList(f, u.changes)}</li>`
            })}</ul>${more(f, r.update.length)}`
          : ''
      }`
        : ''
    }
    ${
      d.staged && changes > 0
        ? form(
            f,
            '/admin/products/import/apply',
            html`${hidden('id', d.staged.id)}${hidden('hash', d.staged.hash)}${apply}`,
          )
        : r && !d.problems.length
          ? html`<p class="notice" role="status">${w.bulk.nothingToImport}</p>`
          : ''
    }
    <p><a href="/admin/products/import">${w.bulk.anotherFile}</a></p>`,
  )
}
