/** The product list's links to the bulk edit and the CSV pages (import only for those who write products). */
import { html } from '../../../shop/html'
import { can, type Frame } from '../../views'

export function catalogLinks(f: Frame) {
  const b = f.w
  return html`<ul class="actions-list">
    <li><a href="/admin/products/bulk">${b.bulk.bulkEdit}</a></li>
    <li><a href="/admin/products/export.csv" download>${b.bulk.exportCsv}</a></li>
    ${can(f, 'products:write') ? html`<li><a href="/admin/products/import">${b.bulk.importCsv}</a></li>` : ''}
  </ul>`
}
