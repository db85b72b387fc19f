/**
 * The orders pages of the panel: the inbox, its live stream, the order page, the
 * cancel confirmation, the packing slip, and the status moves — POST forms with the session's
 * form token (checked by the panel's hook in panel/routes.ts, which this plugin is mounted
 * under) that call the orders module's own verb, so the rules, stock and webhooks are the API's.
 * Access is declared per route: reading needs `orders:read` (every role), moving
 * `orders:write` (owner, staff); `owns: 'orders'` makes another store's order id a 403 page.
 */
import { AppError, ValidationError } from '../../../lib/errors'
import { toMajor } from '../../../lib/money'
import { whatsappUrl } from '../../../lib/whatsapp'
import { formatMoney } from '../../../shop/i18n'
import {
  addOrderNote,
  inboxPage as readInbox,
  notesOf,
  InvalidTransition,
  latestOrderEventId,
  markOrderSeen,
  nextStatuses,
  orderHistory,
  ownOrder,
  orderItems,
  orderStatusToken,
  updateOrderStatus,
  ORDER_STATUSES,
  type OrderRow as Order,
  type OrderStatus,
} from '../../../modules/orders'
import { messagePage } from '../../views'
import { panelPlugin, panelRoute } from '../../route'
import { field, finish, frameOf, htmlPage, intParam, render, seeOther, type Handler } from '../plugin-kit'
import { OrderFeed } from './live'
import type { PanelEnv } from '../../env'
import { cancelPage, orderPage, packingSlip, type OrderPageData } from './order-page'
import { inboxPage } from './views'
import type { Words } from '../../words'
import { customerMessage } from './customer-message'

export const INBOX_PAGE_SIZE = 25
const isStatus = (s: unknown): s is OrderStatus =>
  typeof s === 'string' && (ORDER_STATUSES as readonly string[]).includes(s)

/** A GET from this origin (or typed, or a client without fetch metadata): it may mark an order opened. */
const opened = (request: Request) => {
  const site = request.headers.get('sec-fetch-site')
  return site === null || site === 'same-origin' || site === 'none'
}

export function ordersPages(env: PanelEnv) {
  const feed = new OrderFeed(env.deps)

  const notFound = (c: Handler) =>
    render(c, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))

  /** The order the path names, of the person's store; undefined when there is none (a 404). */
  function orderOf(c: Handler) {
    try {
      return ownOrder(c.ctx, c.params.id!)
    } catch (e) {
      if (e instanceof AppError && e.status === 404) return undefined
      throw e
    }
  }

  /** The WhatsApp link to the customer with the message for the order's current status and its status page. */
  function messageFor(c: Handler, o: Order): string | null {
    const { p, ctx } = c
    const store = ctx.store
    const total = formatMoney(toMajor(o.total, o.currency), o.currency, store.language)
    const token = orderStatusToken({ ctx, input: { orderId: o.id } })
    const message = customerMessage(store.language, o.status, o.customerName, o.orderNumber, total, {
      number: o.trackingNumber,
      url: o.trackingUrl,
    })
    // The customer's status page, on a line of its own, when the order has one (orders since drizzle/0016).
    return whatsappUrl(
      o.customerPhone,
      token ? `${message}\n\n${p.origin}/s/${encodeURIComponent(store.slug)}/orders/${token}` : message,
    )
  }

  async function order(c: Handler, status: number, extra: Partial<OrderPageData> = {}) {
    const { p, ctx } = c
    const o = orderOf(c)
    if (!o) return notFound(c)
    if (c.request.method === 'GET' && opened(c.request)) markOrderSeen({ ctx, input: { orderId: o.id } })
    const w = p.w
    const items = orderItems({ ctx, input: { orderId: o.id } })
    const whatsapp = messageFor(c, o)
    return render(c, status, (f) =>
      orderPage(f, w, {
        order: o,
        items,
        moves: nextStatuses(o.status),
        history: orderHistory({ ctx, input: { orderId: o.id } }),
        notes: notesOf({ ctx, input: { orderId: o.id } }),
        whatsapp,
        ...extra,
      }),
    )
  }

  return panelPlugin('ordersPages', [
    panelRoute({ method: 'get', path: '/admin/orders', need: 'orders:read' }, (c) => {
      const { p, ctx } = c
      const status = isStatus(c.query.status) ? c.query.status : undefined
      const q = (c.query.q ?? '').trim().slice(0, 100) || undefined
      const page = intParam(c.query.page, 1)
      const after = latestOrderEventId({ ctx }) // before the rows: nothing committed in between is missed
      const { rows, total, more } = readInbox({
        ctx,
        input: { status, q, limit: INBOX_PAGE_SIZE, offset: (page - 1) * INBOX_PAGE_SIZE },
      })
      // A search knows whether another page follows, not how many (it counts no matches).
      const pages = q ? page + (more ? 1 : 0) : Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE))
      return render(c, 200, (f) =>
        inboxPage(f, p.w, {
          rows,
          total,
          page,
          pages,
          status,
          q,
          after,
          live: page === 1 && !status && !q,
        }),
      )
    }),
    panelRoute({ method: 'get', path: '/admin/orders/live', need: 'orders:read' }, (c) => {
      const { p } = c
      const last = Number(c.request.headers.get('last-event-id') ?? c.query.after)
      const after = Number.isSafeInteger(last) && last >= 0 ? last : latestOrderEventId({ ctx: env.deps })
      const by = { sessionId: c.person.session.id, signal: c.request.signal }
      const body = feed.stream(c.ctx, p.w, p.w.shell.locale, after, by)
      return finish(c.set, 200, body, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      })
    }),
    panelRoute({ method: 'get', path: '/admin/orders/:id', need: 'orders:read', owns: 'orders' }, (c) => {
      const w = c.p.w
      const moved = c.query.moved
      // After a move the page leads with telling the customer (the link carries the new status's message).
      return order(c, 200, isStatus(moved) ? { notice: w.orders.moved(w.orders.status[moved]), tell: true } : {})
    }),
    panelRoute({ method: 'get', path: '/admin/orders/:id/print', need: 'orders:read', owns: 'orders' }, async (c) => {
      const { p, ctx } = c
      const o = orderOf(c)
      if (!o) return notFound(c)
      const items = orderItems({ ctx, input: { orderId: o.id } })
      return htmlPage(c.set, 200, packingSlip(await frameOf(p), p.w, ctx.store.name, o, items))
    }),
    panelRoute({ method: 'get', path: '/admin/orders/:id/cancel', need: 'orders:write', owns: 'orders' }, (c) => {
      const { p } = c
      const o = orderOf(c)
      if (!o) return notFound(c)
      if (!nextStatuses(o.status).includes('cancelled'))
        return seeOther(c.set, `/admin/orders/${encodeURIComponent(o.id)}`)
      return render(c, 200, (f) => cancelPage(f, p.w, o))
    }),
    panelRoute({ method: 'post', path: '/admin/orders/:id/notes', need: 'orders:write', owns: 'orders' }, (c) => {
      const { p } = c
      const body = field(c.body, 'body') ?? ''
      try {
        addOrderNote({ ctx: c.ctx, input: { orderId: c.params.id!, body } })
      } catch (e) {
        if (e instanceof ValidationError)
          return order(c, 400, { noteError: { text: p.w.orders.noteEmpty, body: body.slice(0, 4000) } })
        if (e instanceof AppError && e.status === 404) return notFound(c)
        throw e
      }
      return seeOther(c.set, `/admin/orders/${encodeURIComponent(c.params.id!)}#internal-h`)
    }),
    panelRoute({ method: 'post', path: '/admin/orders/:id/status', need: 'orders:write', owns: 'orders' }, (c) => {
      const { p } = c
      const to = field(c.body, 'status')
      const w = p.w
      const wantsJson = (c.request.headers.get('accept') ?? '').includes('application/json')
      if (!isStatus(to)) return order(c, 400, { error: w.orders.moveRefused })
      const tracking = {
        trackingNumber: field(c.body, 'trackingNumber')?.trim() || undefined,
        trackingUrl: field(c.body, 'trackingUrl')?.trim() || undefined,
      }
      let moved: { customerName: string } | undefined
      try {
        moved = updateOrderStatus({ ctx: c.ctx, input: { id: c.params.id!, status: to, ...tracking } })
      } catch (e) {
        if (e instanceof InvalidTransition) return order(c, 409, { error: w.orders.moveRefused })
        if (e instanceof ValidationError) return order(c, 400, { tracking: { ...tracking, ...trackingProblem(w, e) } })
        if (e instanceof AppError && e.status === 404) return notFound(c)
        throw e
      }
      const next = `/admin/orders/${encodeURIComponent(c.params.id!)}?moved=${to}`
      // The inbox's "Confirm and message" (with its script): the move is made, the script opens the message.
      if (wantsJson) {
        const o = orderOf(c)
        return finish(c.set, 200, JSON.stringify({ whatsapp: o && messageFor(c, o), next, name: moved.customerName }), {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
        })
      }
      return seeOther(c.set, next)
    }),
  ])
}

/** A refused tracking field as the person reads it, at its field. */
function trackingProblem(w: Words, e: ValidationError): { field: 'trackingNumber' | 'trackingUrl'; text: string } {
  const f = (e.details as { field?: string } | undefined)?.field
  return f === 'trackingUrl'
    ? { field: 'trackingUrl', text: w.orders.trackingUrlInvalid }
    : { field: 'trackingNumber', text: w.orders.trackingNumberTooLong }
}
