/**
 * The product list: search by name, filter active/inactive, page by 20. Each row shows the first
 * picture, the price, the stock (its tracked variants' units, "—" when nothing is tracked) with a
 * "Low stock" mark, and the status.
 */
import { html, raw } from '../../../shop/html'
import { can, layout, type Frame } from '../../views'
import { notice, pager } from '../controls'
import { catalogLinks } from '../bulk/links'
import type { Words } from '../../words'

export const PAGE_SIZE = 20

export interface ListData {
  q: string
  status: 'all' | 'active' | 'inactive'
  page: number
  total: number
  rows: {
    id: string
    name: string
    price: string
    isActive: boolean
    stock: number | null
    lowStock: boolean
    thumbnail: { url: string } | null
  }[]
  done?: string
}

/**
 * The first picture, small; decorative (the product's name is the link beside it). An empty box keeps the rows aligned.
 */
const thumb = (t: { url: string } | null) =>
  t
    ? html`<img class="thumb" src="${t.url}" width="48" height="48" alt="" loading="lazy" decoding="async">`
    : html`<span class="thumb" aria-hidden="true"></span>`

const stockCell = (w: Words, r: ListData['rows'][number]) =>
  r.stock === null
    ? html`<span aria-hidden="true">—</span><span class="sr-only">${w.products.notTracked}</span>`
    : html`${String(r.stock)}${r.lowStock ? html` <span class="badge low-stock">${w.common.lowStock}</span>` : ''}`

export function listPage(f: Frame, d: ListData): string {
  const w = f.w
  const pages = Math.max(1, Math.ceil(d.total / PAGE_SIZE))
  const href = (page: number) => {
    const qs = new URLSearchParams()
    if (d.q) qs.set('q', d.q)
    if (d.status !== 'all') qs.set('status', d.status)
    if (page > 1) qs.set('page', String(page))
    const s = qs.toString()
    return `/admin/products${s ? `?${s}` : ''}`
  }
  const statuses = [
    { value: 'all', label: w.products.statusAll },
    { value: 'active', label: w.common.active },
    { value: 'inactive', label: w.common.inactive },
  ]
  const option = (s: (typeof statuses)[number]) =>
    html`<option value="${s.value}"${raw(s.value === d.status ? ' selected' : '')}>${s.label}</option>`
  const statusSelect = html`<select id="status" name="status">${statuses.map(option)}</select>`
  const row = (r: (typeof d.rows)[number]) => {
    const name = html`<a href="/admin/products/${encodeURIComponent(r.id)}">${r.name}</a>`
    const state = r.isActive ? w.common.active : w.common.inactive
    const cell = html`<div class="product-cell">${thumb(r.thumbnail)}${name}</div>`
    return html`<tr><td>${cell}</td><td>${r.price}</td><td>${stockCell(w, r)}</td><td>${state}</td></tr>`
  }
  return layout(
    f,
    w.nav.products,
    html`${notice(d.done)}
    ${
      can(f, 'products:write')
        ? html`<p><a class="button" href="/admin/products/new">${w.products.newProduct}</a></p>`
        : ''
    }
    ${catalogLinks(f)}
    <form method="get" action="/admin/products" role="search" class="filters">
      <div><label for="q">${w.products.searchProducts}</label><input id="q" name="q" type="search" value="${d.q}"
        maxlength="200"></div>
      <div><label for="status">${w.common.status}</label>${statusSelect}</div>
      <div><button type="submit" class="secondary">${w.products.apply}</button></div>
    </form>
    ${
      d.rows.length === 0
        ? html`<p>${w.products.noProducts}</p>`
        : html`<div class="table"><table>
      <thead><tr><th scope="col">${w.common.name}</th><th scope="col">${w.common.price}</th>
      <th scope="col">${w.products.stock}</th><th scope="col">${w.common.status}</th></tr></thead>
      <tbody>${d.rows.map(row)}</tbody></table></div>`
    }
    ${pager(w, d.page, pages, href)}`,
  )
}
