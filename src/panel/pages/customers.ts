/**
 * Customers in the panel: the list (search by name or phone; orders, total spent,
 * last order) and a customer's page with their orders, from the customer records the checkout
 * keeps (and their counters, kept by triggers). Reading needs `customers:read` (every role).
 */
import { Elysia } from 'elysia'
import { AppError } from '../../lib/errors'
import { toE164 } from '../../lib/phone'
import { access } from '../../plugins/access'
import { formatMoney } from '../../shop/i18n'
import { html, type Html } from '../../shop/html'
import { getCustomer, listCustomers } from '../../modules/customers'
import { ordersWords, type OrdersWords } from '../i18n/orders'
import { layout, messagePage, zoneOf, type Frame } from '../views'
import { intParam, panelOf, render, type Handler } from './plugin-kit'
import { statusBadge, when } from './orders/views'

const PAGE = 25
const hidden = { detail: { hide: true } }

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
  iso ? html`<time datetime="${iso}">${when(Date.parse(iso), f.w.locale, zoneOf(f))}</time>` : '—'

function listPage(
  f: Frame,
  o: OrdersWords,
  d: ListData,
  currency: string,
  q: string | undefined,
  page: number,
): string {
  const pages = Math.max(1, Math.ceil(d.total / PAGE))
  const href = (n: number) => `/admin/customers?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`
  return layout(
    f,
    o.customersTitle,
    html`<section><form method="get" action="/admin/customers" role="search">
      <label for="cq">${o.search}</label>
      <input id="cq" name="q" type="search" value="${q ?? ''}" maxlength="100" aria-describedby="cq-hint" autocomplete="off">
      <p id="cq-hint" class="hint">${o.customersHint}</p>
      <button type="submit">${o.search}</button>
    </form></section>
    ${d.data.length === 0 ? html`<p>${q ? o.noCustomerMatch : o.noCustomers}</p>` : ''}
    <ul class="orders" aria-label="${o.customersTitle}">${d.data.map(
      (c): Html => html`<li class="order">
        <p class="order-head"><a href="/admin/customers/${encodeURIComponent(c.id)}"><strong>${c.name}</strong></a> <span>${c.phone}</span></p>
        <p class="order-meta"><span>${o.colOrders}: ${c.ordersCount}</span> <span class="total">${o.colSpent}: ${formatMoney(c.totalSpent, currency, f.w.locale)}</span> <span>${o.colLastOrder}: ${day(c.lastOrderAt, f)}</span></p>
      </li>`,
    )}</ul>
    ${
      pages > 1
        ? html`<nav class="pager actions" aria-label="${o.pageOf(page, pages)}">${page > 1 ? html`<a href="${href(page - 1)}">${o.newer}</a>` : ''}<span>${o.pageOf(page, pages)}</span>${page < pages ? html`<a href="${href(page + 1)}">${o.older}</a>` : ''}</nav>`
        : ''
    }`,
  )
}

function detailPage(f: Frame, o: OrdersWords, c: Detail, currency: string): string {
  return layout(
    f,
    c.name,
    html`<section aria-labelledby="who-h"><h2 id="who-h">${o.customer}</h2><dl class="facts">
      <dt>${o.phone}</dt><dd><a href="tel:${c.phone}">${c.phone}</a></dd>
      ${c.address ? html`<dt>${o.address}</dt><dd class="address">${c.address}</dd>` : ''}
      <dt>${o.colOrders}</dt><dd>${c.ordersCount}</dd>
      <dt>${o.colSpent}</dt><dd>${formatMoney(c.totalSpent, currency, f.w.locale)}</dd>
      <dt>${o.firstOrder}</dt><dd>${day(c.firstOrderAt, f)}</dd>
      <dt>${o.colLastOrder}</dt><dd>${day(c.lastOrderAt, f)}</dd>
    </dl></section>
    <section aria-labelledby="orders-h"><h2 id="orders-h">${o.customerOrders}</h2>
      <ol class="orders">${c.orders.map(
        (
          r,
        ) => html`<li class="order"><p class="order-head"><a href="/admin/orders/${encodeURIComponent(r.id)}"><strong>${r.orderNumber}</strong></a> ${statusBadge(o, r.status)}</p>
          <p class="order-meta"><span class="total">${formatMoney(r.total, r.currency, f.w.locale)}</span> ${day(r.createdAt, f)}</p></li>`,
      )}</ol>
    </section>
    <p><a href="/admin/customers">${o.customersTitle}</a></p>`,
  )
}

export function customersPages() {
  return new Elysia()
    .use(access)
    .get(
      '/admin/customers',
      (raw) => {
        const c = raw as unknown as Handler
        const p = panelOf(c)
        const ctx = p.person!.ctx!
        const q = customerSearch(c.query.q)
        const page = intParam(c.query.page, 1)
        const data = listCustomers({ ctx, input: { q, limit: PAGE, offset: (page - 1) * PAGE } })
        return render(c, 200, (f) =>
          listPage(f, ordersWords(p.lang), data, ctx.store.currency, (c.query.q ?? '').trim() || undefined, page),
        )
      },
      { access: { panel: 'customers:read' }, ...hidden },
    )
    .get(
      '/admin/customers/:id',
      (raw) => {
        const c = raw as unknown as Handler
        const p = panelOf(c)
        const ctx = p.person!.ctx!
        let detail: Detail
        try {
          detail = getCustomer({ ctx, input: { id: c.params.id!, ...{ ordersLimit: 100 } } })
        } catch (e) {
          if (e instanceof AppError && e.status === 404)
            return render(c, 404, (f) => messagePage(f, f.w.notFoundTitle, f.w.notFoundText))
          throw e
        }
        return render(c, 200, (f) => detailPage(f, ordersWords(p.lang), detail, ctx.store.currency))
      },
      { access: { panel: 'customers:read', owns: 'customers' }, ...hidden },
    )
}
