/**
 * The orders inbox and its rows (the live stream sends the same row markup), as functions of
 * what the orders module's verbs return. Every piece of stored text goes through `html`.
 */
import { ORDER_STATUSES, type OrderStatus } from '../../../modules/orders'
import { toMajor } from '../../../lib/money'
import { dateTimeIn } from '../../../lib/zone'
import { formatMoney } from '../../../shop/i18n'
import { html, raw, type Html } from '../../../shop/html'
import type { InboxRow } from '../../../modules/orders'
import { can, layout, submitFor, zoneOf, type Frame } from '../../views'
import type { Words } from '../../words'

export const money = (minor: number, currency: string, locale: string) =>
  formatMoney(toMajor(minor, currency), currency, locale)

/** A date and time in the person's locale, on the store's clock (its zone's short name after it). */
export const when = (ms: number, locale: string, zone: string): string => dateTimeIn(ms, locale, zone)

export const statusBadge = (w: Words, s: OrderStatus) =>
  html`<span class="badge status-${s}">${w.orders.status[s]}</span>`

/** How a row is shown: the reader's locale, the store's clock, and the moves when the reader may make them. */
export interface RowView {
  locale: string
  zone: string
  /**
   * The reader's form token, present when they may move orders (the row then has its moves);
   * empty in the live stream's rows, shared by every reader: the script fills it in from the page.
   */
  token?: string
}

/** "2 × House Blend, 1 × Mug (Large)": the stylesheet keeps it to two lines. */
const itemsText = (r: InboxRow) =>
  r.items.map((i) => `${i.quantity} × ${i.productName}${i.variantName ? ` (${i.variantName})` : ''}`).join(', ')

/** A pending row's "Confirm" and "Confirm and message": the script opens the message after the move. */
function rowMoves(w: Words, r: InboxRow, token: string): Html {
  const action = `/admin/orders/${encodeURIComponent(r.id)}/status`
  // Without the script both post the same move and land on the order page, which leads with "Tell … on WhatsApp".
  const tokenField = html`<input type="hidden" name="_csrf" value="${token}">`
  const fields = html`${tokenField}<input type="hidden" name="status" value="confirmed">`
  const then = (message: boolean) => raw(message ? ' data-then-message' : '')
  const move = (message: boolean, label: string, cls: string) => {
    const button = submitFor(cls, `${label} ${r.orderNumber}`, label)
    return html`<form method="post" action="${action}"${then(message)}>${fields}${button}</form>`
  }
  return html`<div class="order-moves">${move(false, w.common.confirm, 'secondary')}${move(
    true,
    w.orders.confirmAndMessage,
    '',
  )}</div>`
}

/** One inbox row; `id="order-<id>"` lets the live script replace it in place. */
export function inboxRow(w: Words, v: RowView, r: InboxRow): Html {
  const number = html`<a href="/admin/orders/${encodeURIComponent(r.id)}"><strong>${r.orderNumber}</strong></a>`
  const isNew = r.isNew ? html` <span class="badge new">${w.orders.newMark}</span>` : ''
  const total = html`<span class="total">${money(r.total, r.currency, v.locale)}</span>`
  const phone = html`<a href="tel:${r.customerPhone}">${r.customerPhone}</a>`
  const at = when(r.createdAt, v.locale, v.zone)
  const placed = html`<time datetime="${new Date(r.createdAt).toISOString()}">${at}</time>`
  return html`<li class="order${raw(r.isNew ? ' is-new' : '')}" id="order-${r.id}" data-status="${r.status}">
    <p class="order-head">${number}${isNew} ${statusBadge(w, r.status)} ${total}</p>
    <p class="order-meta"><span>${r.customerName}</span> ${phone} ${placed}</p>
    ${r.items.length ? html`<p class="order-items">${itemsText(r)}</p>` : ''}
    ${r.status === 'pending' && v.token !== undefined ? rowMoves(w, r, v.token) : ''}
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

export function inboxPage(f: Frame, w: Words, d: InboxData): string {
  const filter = (s: OrderStatus | undefined) => {
    const href = pageHref({ ...d, status: s }, 1)
    const current = d.status === s
    return html`<li><a href="${href}"${raw(current ? ' aria-current="page"' : '')}>${
      s ? w.orders.status[s] : w.orders.allStatuses
    }</a></li>`
  }
  const empty =
    d.rows.length === 0 ? html`<p id="orders-empty">${d.q || d.status ? w.orders.noMatch : w.orders.noOrders}</p>` : ''
  const token = can(f, 'orders:write') ? f.person?.formToken : undefined
  const view: RowView = { locale: f.w.shell.locale, zone: zoneOf(f), token }
  return layout(
    f,
    w.nav.orders,
    html`<section>
      <nav aria-label="${w.common.status}" class="status-filters">
      <ul>${filter(undefined)}${ORDER_STATUSES.map(filter)}</ul></nav>
      <form method="get" action="/admin/orders" role="search" class="order-search">
        ${d.status ? html`<input type="hidden" name="status" value="${d.status}">` : ''}
        <div><label for="q">${w.common.search}</label>
        <input id="q" name="q" type="search" value="${d.q ?? ''}" maxlength="100" aria-describedby="q-hint"
          placeholder="${w.orders.searchHint}" autocomplete="off">
        <p id="q-hint" class="hint">${w.orders.searchHint}</p></div>
        <button type="submit">${w.common.search}</button>
      </form>
    </section>
    <p id="live-status" class="hint" role="status" data-live-hint="${w.orders.liveHint}">${w.orders.reloadHint}</p>
    ${empty}
    <ol class="orders" id="orders" aria-label="${w.nav.orders}" data-after="${String(d.after)}"${raw(
      d.live ? ` data-live-list="${INBOX_LIVE_ROWS}" data-empty="orders-empty"` : '',
    )}>${d.rows.map((r) => inboxRow(w, view, r))}</ol>
    ${
      d.pages > 1
        ? html`<nav class="pager actions" aria-label="${w.orders.pageOf(d.page, d.pages)}">
          ${d.page > 1 ? html`<a href="${pageHref(d, d.page - 1)}">${w.orders.newer}</a>` : ''}
          <span>${w.orders.pageOf(d.page, d.pages)}</span>
          ${d.page < d.pages ? html`<a href="${pageHref(d, d.page + 1)}">${w.common.older}</a>` : ''}
        </nav>`
        : ''
    }`,
  )
}
