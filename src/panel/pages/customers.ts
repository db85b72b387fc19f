/**
 * Customers in the panel: the list (search by name or phone; orders, total spent,
 * last order) and a customer's page with their orders, from the customer records the checkout
 * keeps (and their counters, kept by triggers). Reading needs `customers:read` (every role).
 */
import { AppError } from '../../lib/errors'
import { toE164 } from '../../lib/phone'
import { formatMoney } from '../../shop/i18n'
import { html, type Html } from '../../shop/html'
import { getCustomer, listCustomers } from '../../modules/customers'
import { layout, messagePage, zoneOf, type Frame } from '../views'
import { panelPlugin, panelRoute } from '../route'
import { intParam, render } from './plugin-kit'
import { statusBadge, when } from './orders/views'
import type { Words } from '../words'

const PAGE = 25

/** A phone typed any way ("1 415 555 0142", "+54 9 11…") searches as its E.164 form; anything else as typed. */
export function customerSearch(raw: string | undefined): string | undefined {
  const q = (raw ?? '').trim().slice(0, 100)
  if (!q) return undefined
  const digits = q.replace(/\D/g, '')
  if (/^[+\d\s().-]+$/.test(q) && digits.length >= 7) return toE164(q) ?? toE164(`+${digits}`) ?? digits
  return q
}

type ListData = ReturnType<typeof listCustomers>
type Detail = ReturnType<typeof getCustomer>

const day = (iso: string | null, f: Frame) =>
  iso ? html`<time datetime="${iso}">${when(Date.parse(iso), f.w.shell.locale, zoneOf(f))}</time>` : '—'

function listPage(f: Frame, w: Words, d: ListData, currency: string, q: string | undefined, page: number): string {
  const pages = Math.max(1, Math.ceil(d.total / PAGE))
  const href = (n: number) => `/admin/customers?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`
  return layout(
    f,
    w.nav.customers,
    html`<section><form method="get" action="/admin/customers" role="search">
      <label for="cq">${w.common.search}</label>
      <input id="cq" name="q" type="search" value="${q ?? ''}" maxlength="100" aria-describedby="cq-hint"
        autocomplete="off">
      <p id="cq-hint" class="hint">${w.orders.customersHint}</p>
      <button type="submit">${w.common.search}</button>
    </form></section>
    ${d.data.length === 0 ? html`<p>${q ? w.customers.noCustomerMatch : w.customers.noCustomers}</p>` : ''}
    <ul class="orders" aria-label="${w.nav.customers}">${d.data.map((c): Html => {
      const name = html`<a href="/admin/customers/${encodeURIComponent(c.id)}"><strong>${c.name}</strong></a>`
      const count = html`<span>${w.nav.orders}: ${c.ordersCount}</span>`
      const spent = formatMoney(c.totalSpent, currency, f.w.shell.locale)
      const last = html`<span>${w.customers.colLastOrder}: ${day(c.lastOrderAt, f)}</span>`
      return html`<li class="order">
        <p class="order-head">${name} <span>${c.phone}</span></p>
        <p class="order-meta">${count} <span class="total">${w.customers.colSpent}: ${spent}</span> ${last}</p>
      </li>`
    })}</ul>
    ${
      pages > 1
        ? html`<nav class="pager actions" aria-label="${w.orders.pageOf(page, pages)}">${
            page > 1 ? html`<a href="${href(page - 1)}">${w.orders.newer}</a>` : ''
          }<span>${w.orders.pageOf(page, pages)}</span>${
            page < pages ? html`<a href="${href(page + 1)}">${w.common.older}</a>` : ''
          }</nav>`
        : ''
    }`,
  )
}

function detailPage(f: Frame, w: Words, c: Detail, currency: string): string {
  return layout(
    f,
    c.name,
    html`<section aria-labelledby="who-h"><h2 id="who-h">${w.orders.customer}</h2><dl class="facts">
      <dt>${w.orders.phone}</dt><dd><a href="tel:${c.phone}">${c.phone}</a></dd>
      ${c.address ? html`<dt>${w.orders.address}</dt><dd class="address">${c.address}</dd>` : ''}
      <dt>${w.nav.orders}</dt><dd>${c.ordersCount}</dd>
      <dt>${w.customers.colSpent}</dt><dd>${formatMoney(c.totalSpent, currency, f.w.shell.locale)}</dd>
      <dt>${w.customers.firstOrder}</dt><dd>${day(c.firstOrderAt, f)}</dd>
      <dt>${w.customers.colLastOrder}</dt><dd>${day(c.lastOrderAt, f)}</dd>
    </dl></section>
    <section aria-labelledby="orders-h"><h2 id="orders-h">${w.nav.orders}</h2>
      <ol class="orders">${c.orders.map((r) => {
        const number = html`<a href="/admin/orders/${encodeURIComponent(r.id)}"><strong>${r.orderNumber}</strong></a>`
        const total = formatMoney(r.total, r.currency, f.w.shell.locale)
        return html`<li class="order"><p class="order-head">${number} ${statusBadge(w, r.status)}</p>
          <p class="order-meta"><span class="total">${total}</span> ${day(r.createdAt, f)}</p></li>`
      })}</ol>
    </section>
    <p><a href="/admin/customers">${w.nav.customers}</a></p>`,
  )
}

export function customersPages() {
  return panelPlugin('customersPages', [
    panelRoute({ method: 'get', path: '/admin/customers', need: 'customers:read' }, (c) => {
      const { p, ctx } = c
      const q = customerSearch(c.query.q)
      const page = intParam(c.query.page, 1)
      const data = listCustomers({ ctx, input: { q, limit: PAGE, offset: (page - 1) * PAGE } })
      return render(c, 200, (f) =>
        listPage(f, p.w, data, ctx.store.currency, (c.query.q ?? '').trim() || undefined, page),
      )
    }),
    panelRoute({ method: 'get', path: '/admin/customers/:id', need: 'customers:read', owns: 'customers' }, (c) => {
      const { p, ctx } = c
      let detail: Detail
      try {
        detail = getCustomer({ ctx, input: { id: c.params.id!, ...{ ordersLimit: 100 } } })
      } catch (e) {
        if (e instanceof AppError && e.status === 404)
          return render(c, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
        throw e
      }
      return render(c, 200, (f) => detailPage(f, p.w, detail, ctx.store.currency))
    }),
  ])
}
