/**
 * The customer's order status page, `/s/:slug/orders/<token>`: the order's lines,
 * total and status timeline in the store's language, `noindex`, never cached, no referrer (the
 * token is in the path). The token is 256 random bits made by the checkout, not the order id;
 * an unknown token, or one of another store, is a 404 that says nothing more.
 */
import { Elysia } from 'elysia'
import { dateTimeIn } from '../lib/zone'
import type { Db } from '../db/client'
import type { Config } from '../config'
import { getStore, type Store } from '../modules/platform-stores'
import { storeBySlug } from '../modules/public-catalog'
import { orderStatusByToken, type PublicOrderStatus } from '../modules/orders'
import { toMajor } from '../lib/money'
import { html } from './html'
import { formatMoney, wordsFor } from './i18n'
import { orderStatusWords, type OrderStatusWords } from './i18n/order-status'
import { rendered, respond } from './respond'
import { layout, type PageCtx } from './views'

export interface OrderStatusDeps {
  db: Db
  config: Pick<Config, 'publicUrl'>
}

function page(c: PageCtx, w: OrderStatusWords, store: Store, s: PublicOrderStatus, path: string) {
  const o = s.order
  const m = (minor: number) => formatMoney(toMajor(minor, o.currency), o.currency, c.words.locale)
  const when = (ms: number) => dateTimeIn(ms, c.words.locale, store.timezone)
  const title = w.title(o.orderNumber)
  const trackingNumber = o.trackingNumber ? html`<dt>${w.trackingNumber}</dt><dd>${o.trackingNumber}</dd>` : ''
  const trackingUrl = o.trackingUrl
    ? html`<dt>${w.trackingLink}</dt><dd><a href="${o.trackingUrl}" rel="noopener noreferrer">${o.trackingUrl}</a></dd>`
    : ''
  const tracking =
    o.trackingNumber !== null || o.trackingUrl !== null
      ? html`<h2>${w.tracking}</h2><dl class="tracking">${trackingNumber}${trackingUrl}</dl>`
      : ''
  const event = (e: PublicOrderStatus['timeline'][number]) =>
    html`<li>${w.status[e.status]} · <time datetime="${new Date(e.at).toISOString()}">${when(e.at)}</time></li>`
  const column = (name: string) => html`<th scope="col">${name}</th>`
  const line = (i: PublicOrderStatus['items'][number]) => {
    const name = html`${i.productName}${i.variantName ? html` (${i.variantName})` : ''}`
    return html`<tr><td>${name}</td><td>${i.quantity}</td><td>${m(i.subtotal)}</td></tr>`
  }
  const sumRow = (label: string, amount: string) =>
    html`<tr><th scope="row" colspan="2">${label}</th><td>${amount}</td></tr>`
  return layout(c, {
    title: `${title} · ${store.name}`,
    description: w.intro,
    path,
    store: {
      id: store.id,
      name: store.name,
      slug: store.slug,
      description: store.description,
      currency: store.currency,
      whatsappNumber: store.whatsappNumber,
    },
    noindex: true,
    script: true,
    // The part the script swaps when the shop moves the order; `data-version` says whether it changed.
    main: html`<h1>${title}</h1>
<p>${w.intro} <a href="${path}" data-refresh>${w.refresh}</a></p>
<div data-order-live="${`${o.status}.${o.updatedAt}`}" aria-live="polite">
<p>${w.now}: <strong id="order-status">${w.status[o.status]}</strong></p>
${tracking}
<h2>${w.timeline}</h2>
<ol class="timeline">${s.timeline.map(event)}</ol>
</div>
<h2>${w.items}</h2>
<table class="order-lines">
<thead><tr>${column(w.product)}${column(w.quantity)}${column(w.price)}</tr></thead>
<tbody>${s.items.map(line)}</tbody>
<tfoot>
${sumRow(w.subtotal, m(o.itemsSubtotal))}
${o.shippingName !== null ? sumRow(`${w.shipping}: ${o.shippingName}`, m(o.shippingPrice ?? 0)) : ''}
${o.discountCode !== null ? sumRow(w.discount(o.discountCode), `−${m(o.discountAmount)}`) : ''}
<tr><th scope="row" colspan="2">${w.total}</th><td><strong>${m(o.total)}</strong></td></tr>
</tfoot>
</table>`,
  })
}

export const orderStatusRoutes = (deps: OrderStatusDeps) => {
  const { db, config } = deps
  const originOf = (request: Request) => config.publicUrl?.replace(/\/$/, '') ?? new URL(request.url).origin
  return new Elysia().get(
    '/s/:slug/orders/:token',
    ({ request, set, params }) => {
      const store = storeBySlug({ ctx: { db }, input: { slug: params.slug } })
      const language = store?.language ?? 'en'
      const c: PageCtx = { words: wordsFor(language), language, origin: originOf(request) }
      const w = orderStatusWords(language)
      const found =
        store &&
        orderStatusByToken({
          ctx: { db, store: getStore({ ctx: { db }, input: { id: store.id } }) ?? store },
          input: { token: params.token },
        })
      const extra = { 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' }
      if (!store || !found) {
        const text = layout(c, {
          title: w.notFoundTitle,
          description: w.notFoundText,
          path: '/',
          noindex: true,
          main: html`<h1>${w.notFoundTitle}</h1><p>${w.notFoundText}</p>`,
        })
        return respond(request, set, rendered(404, text.value), 'no-store', extra)
      }
      return respond(
        request,
        set,
        rendered(200, page(c, w, store, found, `/s/${encodeURIComponent(store.slug)}/orders/${params.token}`).value),
        'no-store',
        extra,
      )
    },
    { detail: { hide: true } },
  )
}
