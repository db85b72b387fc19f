/**
 * The orders inbox and its rows (the live stream sends the same row markup), as functions of
 * what the orders module's verbs return. Every piece of stored text goes through `html`.
 */
import type { OrderStatus } from '../../../db/schema'
import { ORDER_STATUSES } from '../../../db/schema'
import { toMajor } from '../../../lib/money'
import { dateTimeFormat } from '../../../lib/intl'
import { formatMoney } from '../../../shop/i18n'
import { html, raw, type Html } from '../../../shop/html'
import type { InboxRow } from '../../../modules/orders'
import type { OrdersWords } from '../../i18n/orders'
import { layout, type Frame } from '../../views'

export const money = (minor: number, currency: string, locale: string) =>
  formatMoney(toMajor(minor, currency), currency, locale)

/** Formatted minutes, per locale: the inbox shows the same recent orders request after request, and Intl's format is its row's costliest part. */
const formatted = new Map<string, string>()
/** A date and time in the person's locale (UTC: the store keeps no time zone yet). */
export function when(ms: number, locale: string): string {
  const key = `${locale}|${Math.floor(ms / 60_000)}`
  const known = formatted.get(key)
  if (known !== undefined) return known
  const f = dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })
  if (formatted.size >= 5000) formatted.clear()
  const text = `${f.format(ms)} UTC`
  formatted.set(key, text)
  return text
}

export const statusBadge = (o: OrdersWords, s: OrderStatus) =>
  html`<span class="badge status-${s}">${o.status[s]}</span>`

/** One inbox row; `id="order-<id>"` lets the live script replace it in place. */
export function inboxRow(o: OrdersWords, locale: string, r: InboxRow): Html {
  return html`<li class="order${raw(r.isNew ? ' is-new' : '')}" id="order-${r.id}" data-status="${r.status}">
    <p class="order-head"><a href="/admin/orders/${encodeURIComponent(r.id)}"><strong>${r.orderNumber}</strong></a>${r.isNew ? html` <span class="badge new">${o.newMark}</span>` : ''} ${statusBadge(o, r.status)}</p>
    <p class="order-meta"><span>${r.customerName}</span> <span class="total">${money(r.total, r.currency, locale)}</span> <time datetime="${new Date(r.createdAt).toISOString()}">${when(r.createdAt, locale)}</time></p>
  </li>`
}

/** How many rows a live inbox keeps as new ones arrive on top (its page's size). */
const INBOX_LIVE_ROWS = 25

export interface InboxData {
  rows: InboxRow[]
  total: number
  page: number
  pages: number
  status?: OrderStatus
  q?: string
  /** The newest order event when the page was read: the live stream resumes after it. */
  after: number
  /** Whether new orders are inserted at the top (first page, no filter, no search). */
  live: boolean
}

function pageHref(d: InboxData, page: number): string {
  const qs = new URLSearchParams()
  if (d.status) qs.set('status', d.status)
  if (d.q) qs.set('q', d.q)
  if (page > 1) qs.set('page', String(page))
  const s = qs.toString()
  return `/admin/orders${s ? `?${s}` : ''}`
}

export function inboxPage(f: Frame, o: OrdersWords, d: InboxData): string {
  const statusOption = (s: OrderStatus | '') =>
    html`<option value="${s}"${raw((d.status ?? '') === s ? ' selected' : '')}>${s ? o.status[s] : o.allStatuses}</option>`
  const empty = d.rows.length === 0 ? html`<p id="orders-empty">${d.q || d.status ? o.noMatch : o.noOrders}</p>` : ''
  return layout(
    f,
    o.ordersTitle,
    html`<section>
      <form method="get" action="/admin/orders" role="search" class="order-search">
        <div><label for="q">${o.search}</label>
        <input id="q" name="q" type="search" value="${d.q ?? ''}" maxlength="100" aria-describedby="q-hint" placeholder="${o.searchHint}" autocomplete="off">
        <p id="q-hint" class="hint">${o.searchHint}</p></div>
        <div><label for="status">${o.statusLabel}</label>
        <select id="status" name="status">${statusOption('')}${ORDER_STATUSES.map(statusOption)}</select></div>
        <button type="submit">${o.search}</button>
      </form>
    </section>
    <p id="live-status" class="hint" role="status" data-live-hint="${o.liveHint}">${o.reloadHint}</p>
    ${empty}
    <ol class="orders" id="orders" aria-label="${o.ordersTitle}" data-after="${String(d.after)}"${raw(d.live ? ` data-live-list="${INBOX_LIVE_ROWS}" data-empty="orders-empty"` : '')}>${d.rows.map((r) => inboxRow(o, f.w.locale, r))}</ol>
    ${
      d.pages > 1
        ? html`<nav class="pager actions" aria-label="${o.pageOf(d.page, d.pages)}">
          ${d.page > 1 ? html`<a href="${pageHref(d, d.page - 1)}">${o.newer}</a>` : ''}
          <span>${o.pageOf(d.page, d.pages)}</span>
          ${d.page < d.pages ? html`<a href="${pageHref(d, d.page + 1)}">${o.older}</a>` : ''}
        </nav>`
        : ''
    }`,
  )
}
