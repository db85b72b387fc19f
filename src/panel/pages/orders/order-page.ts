/**
 * The order page (lines, totals, customer, notes, history, the moves the state machine allows,
 * "Message on WhatsApp", and "Tell … on WhatsApp" first after a move), the cancel confirmation,
 * and the packing slip: a page of its own with no navigation, laid out for paper by the print
 * rules of panel.css.
 */
import type { OrderRow as Order, OrderItemRow as OrderItem, OrderStatus } from '../../../modules/orders'
import { escapeHtml, html, raw, type Html } from '../../../shop/html'
import type { HistoryLine, NoteLine } from '../../../modules/orders'
import { can, form, layout, zoneOf, type Frame } from '../../views'
import { money, statusBadge, when } from './views'
import type { Words } from '../../words'

/** The moves a button is shown for, in the order they appear. */
const MOVE_LABEL: Record<Exclude<OrderStatus, 'pending' | 'cancelled'>, (w: Words) => string> = {
  confirmed: (w) => w.common.confirm,
  shipped: (w) => w.orders.ship,
  delivered: (w) => w.orders.deliver,
}

export interface OrderPageData {
  /** The order and its lines as stored (money in minor units). */
  order: Order
  items: OrderItem[]
  moves: readonly OrderStatus[]
  history: HistoryLine[]
  notes: NoteLine[]
  whatsapp: string | null
  notice?: string
  error?: string
  /** The note form's problem, and what was typed. */
  noteError?: { text: string; body: string }
  /** Just moved: the page leads with "Tell <name> on WhatsApp" and the new status's message. */
  tell?: boolean
  /** "Mark as shipped" refused: what was typed, and the field at fault with its words. */
  tracking?: { trackingNumber?: string; trackingUrl?: string; field?: 'trackingNumber' | 'trackingUrl'; text?: string }
}

function who(w: Words, h: HistoryLine): string {
  if (h.previous === null) return w.orders.byCustomer
  if (!h.actor) return ''
  if (h.actor.startsWith('user:')) return w.orders.byPerson(h.person ?? h.actor.slice(5))
  if (h.actor.startsWith('key:')) return w.orders.byKey(h.actor.slice(4))
  return h.actor === 'cli' ? w.orders.byCli : w.orders.bySystem
}

function lines(w: Words, locale: string, d: OrderPageData): Html {
  const c = d.order.currency
  const line = (i: OrderItem) => {
    const variant = i.variantName ? html`<br><span class="hint">${i.variantName}</span>` : ''
    const price = money(i.subtotal, c, locale)
    return html`<tr><td>${i.productName}${variant}</td><td>${i.quantity}</td><td>${price}</td></tr>`
  }
  const sum = (label: string, amount: Html | string) =>
    html`<tr><th scope="row" colspan="2">${label}</th><td>${amount}</td></tr>`
  return html`<div class="table"><table class="order-lines">
    <caption class="sr-only">${w.orderLines.items}</caption>
    <thead><tr><th scope="col">${w.orderLines.product}</th><th scope="col">${w.orderLines.quantity}</th>
    <th scope="col">${w.orderLines.price}</th></tr></thead>
    <tbody>${d.items.map(line)}</tbody>
    <tfoot>
      ${sum(w.orderLines.subtotal, money(d.order.itemsSubtotal, c, locale))}
      ${
        d.order.shippingName !== null
          ? sum(`${w.orderLines.shipping}: ${d.order.shippingName}`, money(d.order.shippingPrice ?? 0, c, locale))
          : ''
      }
      ${
        d.order.discountCode !== null
          ? sum(w.orderLines.discount(d.order.discountCode), `−${money(d.order.discountAmount, c, locale)}`)
          : ''
      }
      ${sum(w.orderLines.total, html`<strong>${money(d.order.total, c, locale)}</strong>`)}
    </tfoot>
  </table></div>`
}

export function orderPage(f: Frame, w: Words, d: OrderPageData): string {
  const order = d.order
  const id = encodeURIComponent(order.id)
  const writer = can(f, 'orders:write')
  const moves = writer ? d.moves : []
  const forward = moves.filter((m): m is keyof typeof MOVE_LABEL => m in MOVE_LABEL)
  const notice = d.notice ? html`<p class="notice" role="status">${d.notice}</p>` : ''
  const alert = d.error ? html`<p class="alert" role="alert">${d.error}</p>` : ''
  /** A WhatsApp chat with the customer, in a new tab. */
  const chat = (linkId: string, text: string) =>
    html`<a class="button" id="${linkId}" href="${d.whatsapp}" rel="noopener noreferrer" target="_blank">${text}</a>`
  const move = (m: keyof typeof MOVE_LABEL) =>
    html`<input type="hidden" name="status" value="${m}"><button type="submit">${MOVE_LABEL[m](w)}</button>`
  const cancel = html`<button type="submit" class="danger">${w.orders.cancel}</button>`
  const noteTime = (n: OrderPageData['notes'][number]) => {
    const at = when(n.createdAt, f.w.shell.locale, zoneOf(f))
    return html`<time datetime="${new Date(n.createdAt).toISOString()}">${at}</time>`
  }
  const note = (n: OrderPageData['notes'][number]) =>
    html`<li><p class="address">${n.body}</p><p class="hint">${n.person ? `${n.person} · ` : ''}${noteTime(n)}</p></li>`
  const tell = d.tell && d.whatsapp ? chat('tell', w.orders.tellOnWhatsApp(order.customerName)) : ''
  const noteText = d.noteError?.body ?? ''
  const noteInvalid = raw(d.noteError ? ' aria-invalid="true" aria-describedby="note-error"' : '')
  return layout(
    f,
    w.orders.orderTitle(order.orderNumber),
    html`${notice}${alert}
    ${tell ? html`<p class="tell">${tell}</p>` : ''}
    <p class="actions">${statusBadge(
      w,
      order.status,
    )} <time datetime="${new Date(order.createdAt).toISOString()}">${when(
      order.createdAt,
      f.w.shell.locale,
      zoneOf(f),
    )}</time></p>
    ${
      moves.length
        ? html`<section aria-labelledby="moves-h"><h2 id="moves-h">${w.orders.actions}</h2><div class="actions">
        ${forward.map((m) =>
          m === 'shipped' ? shipForm(f, w, id, d) : form(f, `/admin/orders/${id}/status`, move(m)),
        )}
        ${
          moves.includes('cancelled')
            ? html`<form method="get" action="/admin/orders/${id}/cancel">${cancel}</form>`
            : ''
        }
      </div></section>`
        : d.moves.length === 0
          ? html`<p class="hint">${w.orders.noMoves}</p>`
          : ''
    }
    ${trackingFacts(w, order)}
    <section aria-labelledby="items-h"><h2 id="items-h">${w.orderLines.items}</h2>${lines(
      w,
      f.w.shell.locale,
      d,
    )}</section>
    <section aria-labelledby="customer-h"><h2 id="customer-h">${w.orders.customer}</h2>
      <dl class="facts">
        <dt>${w.common.name}</dt><dd>${order.customerName}</dd>
        <dt>${w.orders.phone}</dt><dd><a href="tel:${order.customerPhone}">${order.customerPhone}</a></dd>
        ${
          order.customerAddress
            ? html`<dt>${w.orders.address}</dt><dd class="address">${order.customerAddress}</dd>`
            : ''
        }
      </dl>
      <p class="actions">
        ${d.whatsapp ? chat('whatsapp', w.orders.whatsapp) : ''}
        <a class="button secondary" href="/admin/orders/${id}/print">${w.orders.packingSlip}</a>
      </p>
    </section>
    <section aria-labelledby="notes-h">
    <h2 id="notes-h">${w.orders.notes}</h2><p class="address">${order.notes ?? w.orders.noNotes}</p></section>
    <section aria-labelledby="history-h"><h2 id="history-h">${w.orders.history}</h2>
      <ol class="history">${d.history.map(
        (h) =>
          html`<li>${statusBadge(w, h.status)} <time datetime="${new Date(h.at).toISOString()}">${when(
            h.at,
            f.w.shell.locale,
            zoneOf(f),
          )}</time> ${who(w, h)}</li>`,
      )}</ol>
    </section>
    <section aria-labelledby="internal-h"><h2 id="internal-h">${w.orders.internalNotes}</h2>
      <p class="hint">${w.orders.internalHint}</p>
      ${
        d.notes.length === 0 ? html`<p>${w.orders.noInternal}</p>` : html`<ul class="history">${d.notes.map(note)}</ul>`
      }
      ${
        writer
          ? form(
              f,
              `/admin/orders/${id}/notes`,
              html`<label for="note">${w.orders.noteLabel}</label>
            <textarea id="note" name="body" rows="3" maxlength="2000" required${noteInvalid}>${noteText}</textarea>
            ${d.noteError ? html`<p id="note-error" class="error" role="alert">${d.noteError.text}</p>` : ''}
            <button type="submit">${w.orders.addNote}</button>`,
            )
          : ''
      }
    </section>
    <p><a href="/admin/orders">${w.orders.backToOrders}</a></p>`,
  )
}

/** "Mark as shipped" with its optional tracking number and link (kept as typed when refused). */
function shipForm(f: Frame, w: Words, id: string, d: OrderPageData): Html {
  const t = d.tracking ?? {}
  const input = (name: 'trackingNumber' | 'trackingUrl', label: string, attrs: string, hint?: string) => {
    const bad = t.field === name
    const described = [hint ? `${name}-hint` : '', bad ? `${name}-error` : ''].filter(Boolean).join(' ')
    const hintP = hint ? html`<p id="${name}-hint" class="hint">${hint}</p>` : ''
    const state = raw(`${described ? ` aria-describedby="${described}"` : ''}${bad ? ' aria-invalid="true"' : ''}`)
    const field = html`<input id="${name}" name="${name}" value="${t[name] ?? ''}"${raw(` ${attrs}`)}${state}>`
    const error = bad ? html`<p id="${name}-error" class="error" role="alert">${t.text ?? ''}</p>` : ''
    return html`<label for="${name}">${label}</label>${hintP}${field}${error}`
  }
  const legend = html`<legend>${w.orders.shipDetails}</legend>`
  return form(
    f,
    `/admin/orders/${id}/status`,
    html`<input type="hidden" name="status" value="shipped"><fieldset class="tracking-fields">${legend}
      ${input('trackingNumber', w.orders.trackingNumber, 'maxlength="100" autocomplete="off"')}
      ${input(
        'trackingUrl',
        w.orders.trackingUrl,
        'type="url" inputmode="url" maxlength="2000" autocomplete="off"',
        w.orders.trackingUrlHint,
      )}
    </fieldset><button type="submit">${w.orders.ship}</button>`,
    'novalidate',
  )
}

/** The tracking the move to shipped recorded, when there is any. */
function trackingFacts(w: Words, order: Order): Html | string {
  if (order.trackingNumber === null && order.trackingUrl === null) return ''
  const url = order.trackingUrl
  const link = html`<a href="${url}" rel="noopener noreferrer" target="_blank">${url}</a>`
  return html`<section aria-labelledby="tracking-h"><h2 id="tracking-h">${w.orders.tracking}</h2><dl class="facts">
    ${order.trackingNumber ? html`<dt>${w.orders.trackingNumber}</dt><dd>${order.trackingNumber}</dd>` : ''}
    ${url ? html`<dt>${w.orders.trackingUrl}</dt><dd>${link}</dd>` : ''}
  </dl></section>`
}

/** "Cancel this order?": the confirmation step, which works without the script. */
export function cancelPage(f: Frame, w: Words, order: { id: string; orderNumber: string }): string {
  const id = encodeURIComponent(order.id)
  const yes = html`<button type="submit" class="danger">${w.orders.cancelYes}</button>`
  return layout(
    f,
    w.orders.orderTitle(order.orderNumber),
    html`<section><p>${w.orders.cancelAsk}</p><div class="actions">
      ${form(f, `/admin/orders/${id}/status`, html`<input type="hidden" name="status" value="cancelled">${yes}`)}
      <a class="button secondary" href="/admin/orders/${id}">${w.orders.keepOrder}</a>
    </div></section>`,
    { narrow: true },
  )
}

/**
 * The packing slip: store, order number, lines, customer and address; no navigation. "Back to
 * the order" is a link; "Print" is a button the script shows (printing needs it).
 */
export function packingSlip(f: Frame, w: Words, storeName: string, order: Order, items: OrderItem[]): string {
  const back = html`<a href="/admin/orders/${encodeURIComponent(order.id)}">${w.orders.backToOrder}</a>`
  const placed = html`<time datetime="${new Date(order.createdAt).toISOString()}">${when(
    order.createdAt,
    f.w.shell.locale,
    zoneOf(f),
  )}</time>`
  const line = (i: OrderItem) =>
    html`<tr><td>${i.productName}${i.variantName ? html` (${i.variantName})` : ''}</td><td>${i.quantity}</td></tr>`
  const address = order.customerAddress ? raw(`<br>${escapeHtml(order.customerAddress)}`) : ''
  return `<!doctype html>${
    html`<html lang="${f.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${w.orders.packingSlip} ${order.orderNumber} · ${storeName}</title>
<link rel="stylesheet" href="${f.assets.css.url}">
<link rel="icon" href="${f.assets.icon.url}">
<script type="module" src="${f.assets.js.url}"></script>
</head>
<body class="slip">
<main id="main">
<p class="slip-actions">${back} <button type="button" data-print hidden>${w.orders.printSlip}</button></p>
<h1>${storeName}</h1>
<p><strong>${w.orders.packingSlip} · ${order.orderNumber}</strong> · ${placed}</p>
<table class="order-lines">
<caption class="sr-only">${w.orderLines.items}</caption>
<thead><tr><th scope="col">${w.orderLines.product}</th><th scope="col">${w.orderLines.quantity}</th></tr></thead>
<tbody>${items.map(line)}</tbody>
</table>
<h2>${w.orders.shipTo}</h2>
<p class="address">${order.customerName}<br>${order.customerPhone}${address}</p>
${order.notes ? html`<h2>${w.orders.notes}</h2><p class="address">${order.notes}</p>` : ''}
</main>
</body>
</html>`.value
  }`
}
