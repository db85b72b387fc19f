/**
 * The bulk edit grid: one row per active variant (and per product without variants), a labelled
 * price and stock input in each, the value shown kept beside it (`-was`) so a save sends only the
 * cells the person changed. At 390 px the table scrolls inside its own labelled region; the page
 * never scrolls sideways. A refused row's message sits in the row under it, tied to its inputs.
 */
import { html, raw, type Html } from '../../../shop/html'
import { can, form, layout, type Frame } from '../../views'
import { banner, notice, pager } from '../controls'
import type { Problem } from '../kit'

export interface BulkRow {
  /** `productId` or `productId:variantId`. */
  key: string
  label: string
  price: string
  stock: string
  /** What the page showed (the stored values), when the person's values are shown back. */
  wasPrice?: string
  wasStock?: string
  error?: string
}

export interface BulkData {
  page: number
  pages: number
  pageSize: number
  currency: string
  rows: BulkRow[]
  done?: string
  problem?: Problem
  /** Rows refused, counting any no longer on the page. */
  refused?: number
}

function row(f: Frame, r: BulkRow, i: number, writable: boolean): Html {
  const w = f.w
  const err = r.error ? raw(` aria-describedby="r${i}-error" aria-invalid="true"`) : ''
  const off = raw(writable ? '' : ' disabled')
  const rowError = html`<p id="r${i}-error" class="error">${r.error}</p>`
  return html`<tr><th scope="row">${r.label}<input type="hidden" name="r${i}-key" value="${r.key}"></th>
    <td><label class="sr-only" for="r${i}-price">${w.bulk.priceOf(r.label)}</label><input id="r${i}-price"
      name="r${i}-price" value="${r.price}" inputmode="decimal"${err}${off}><input type="hidden"
      name="r${i}-price-was" value="${r.wasPrice ?? r.price}"></td>
    <td><label class="sr-only" for="r${i}-stock">${w.bulk.stockOf(r.label)}</label><input id="r${i}-stock"
      name="r${i}-stock" value="${r.stock}" inputmode="numeric"${err}${off}><input type="hidden"
      name="r${i}-stock-was" value="${r.wasStock ?? r.stock}"></td></tr>
    ${r.error ? html`<tr class="row-error"><td colspan="3">${rowError}</td></tr>` : ''}`
}

export function bulkPage(f: Frame, d: BulkData): string {
  const w = f.w
  const writable = can(f, 'products:write')
  const href = (page: number) => `/admin/products/bulk${page > 1 ? `?page=${page}` : ''}`
  const grid = html`<div class="table grid" role="region" aria-labelledby="grid-caption" tabindex="0"><table>
    <caption id="grid-caption">${w.bulk.gridCaption}</caption>
    <thead><tr><th scope="col">${w.common.product}</th><th scope="col">${w.common.price} (${d.currency})</th>
    <th scope="col">${w.products.stock}</th></tr></thead>
    <tbody>${d.rows.map((r, i) => row(f, r, i, writable))}</tbody></table></div>
    <input type="hidden" name="rowCount" value="${d.rows.length}">`
  const errors = d.refused ?? d.rows.filter((r) => r.error).length
  return layout(
    f,
    w.bulk.bulkEdit,
    html`${notice(d.done)}${
      errors
        ? html`<div class="alert" role="alert"><p>${w.bulk.rowsRefused(errors)}</p>${
            d.problem?.upgradeUrl
              ? html`<p><a class="button" href="${d.problem.upgradeUrl}">${w.problems.upgradePlan}</a></p>`
              : ''
          }</div>`
        : banner(w, d.problem)
    }
    <p>${w.bulk.bulkIntro}</p>
    <p class="hint">${w.bulk.bulkBound(d.pageSize)} ${w.bulk.stockEmpty}</p>
    ${writable ? '' : html`<p class="hint">${w.products.readOnly}</p>`}
    ${
      d.rows.length === 0
        ? html`<p>${w.bulk.noRows}</p>`
        : writable
          ? form(
              f,
              href(d.page),
              html`${grid}<p><button type="submit">${w.bulk.saveChanges}</button></p>`,
              'novalidate',
            )
          : grid
    }
    ${pager(w, d.page, d.pages, href)}
    <p><a href="/admin/products">${w.products.backToProducts}</a></p>`,
  )
}
