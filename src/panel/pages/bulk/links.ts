/** The product list's links to the bulk edit and the CSV pages (import only for those who write products). */
import { html } from '../../../shop/html'
import { can, type Frame } from '../../views'

export function catalogLinks(f: Frame) {
  const w = f.w
  return html`<ul class="actions-list">
    <li><a href="/admin/products/bulk">${w.bulk.bulkEdit}</a></li>
    <li><a href="/admin/products/export.csv" download>${w.bulk.exportCsv}</a></li>
    ${can(f, 'products:write') ? html`<li><a href="/admin/products/import">${w.bulk.importCsv}</a></li>` : ''}
  </ul>`
}
