/**
 * Webhooks (owners): add (https URL, events) with the signing secret shown once; disable and
 * enable; delete after a confirmation page; each endpoint's delivery log with "Retry". Every
 * write is the API's verb (createWebhook, updateWebhook, deleteWebhook, retryDelivery) with the
 * body its schema checks, so the URL rules (https, public addresses only) and the endpoint limit
 * are the API's and show at their field.
 */
import { WEBHOOK_EVENTS, webhooks } from '../../db/schema'
import { AppError } from '../../lib/errors'
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, retryDelivery, updateWebhook, WebhookCreate } from '../../modules/webhooks'
import { checkBody } from '../../plugins/validation-errors'
import { html, raw } from '../../shop/html'
import { can, form, layout, messagePage, type Frame } from '../views'
import { banner, input, notice } from './controls'
import { cw, field, panelOf, problemOf, ticked, type PageKit, type PageReq, type PageRoute, type Problem } from './kit'

type Hook = ReturnType<typeof getWebhook>
type Delivery = ReturnType<typeof listDeliveries>['data'][number]
const at = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '')
const eventId = (e: string) => `event-${e.replace('.', '-')}`

function listPage(f: Frame, d: { hooks: Hook[]; url: string; events: Set<string>; errors: Record<string, string>; problem?: Problem; done?: string }): string {
  const w = cw(f)
  const writable = can(f, 'webhooks:write')
  const rows = d.hooks.map((h) => {
    const toggle = form(
      f,
      `/admin/webhooks/${encodeURIComponent(h.id)}/active`,
      html`<input type="hidden" name="isActive" value="${h.isActive ? '0' : '1'}"><button type="submit" class="secondary" aria-label="${(h.isActive ? w.disable : w.enable) + ': ' + h.url}">${h.isActive ? w.disable : w.enable}</button>`,
    )
    return html`<li><p><a href="/admin/webhooks/${encodeURIComponent(h.id)}">${h.url}</a>${h.isActive ? '' : html` <span class="badge">${w.disabled}</span>`}</p>
      <p class="hint">${h.events.join(', ')}${h.disabledReason ? html` · ${h.disabledReason}` : ''}</p>
      ${writable ? html`<div class="actions">${toggle}<a class="button secondary" href="/admin/webhooks/${encodeURIComponent(h.id)}/delete" aria-label="${w.deleteWebhook + ': ' + h.url}">${w.deleteWebhook}</a></div>` : ''}</li>`
  })
  const e = d.errors
  return layout(
    f,
    w.webhooksTitle,
    html`${notice(d.done)}<section aria-labelledby="hooks-h"><h2 id="hooks-h">${w.webhooksTitle}</h2>${d.hooks.length ? html`<ul class="list">${rows}</ul>` : html`<p>${w.noWebhooks}</p>`}</section>
    ${writable
      ? html`<section aria-labelledby="add-h"><h2 id="add-h">${w.addWebhook}</h2>${banner(w, d.problem, Object.keys(e).length > 0)}
      ${form(
        f,
        '/admin/webhooks',
        html`${input({ id: 'url', label: w.url, value: d.url, type: 'url', hint: w.urlHint, errors: e, attrs: 'required maxlength="2048" inputmode="url"' })}
        <fieldset${raw(e.events ? ' aria-describedby="events-error"' : '')}><legend>${w.events}</legend>
        ${WEBHOOK_EVENTS.map((ev) => html`<div class="check"><input id="${eventId(ev)}" name="${eventId(ev)}" type="checkbox" value="1"${raw(d.events.has(ev) ? ' checked' : '')}><label for="${eventId(ev)}">${ev}</label></div>`)}
        ${e.events ? html`<p id="events-error" class="error">${e.events}</p>` : ''}</fieldset>
        <button type="submit">${w.addWebhook}</button>`,
        'novalidate',
      )}</section>`
      : ''}`,
  )
}

function createdPage(f: Frame, h: Hook & { secret: string }): string {
  const w = cw(f)
  return layout(
    f,
    w.webhookCreated,
    html`<section><p>${h.url}</p><p>${w.secretOnce}</p>
    <p><strong>${w.secret}</strong></p>
    <p><code id="webhook-secret" class="secret">${h.secret}</code></p>
    <p class="actions"><button type="button" class="secondary" data-copy="webhook-secret" data-done="${w.copied}" hidden>${w.copy}</button><span id="webhook-secret-status" role="status"></span></p>
    <p><a class="button" href="/admin/webhooks">${w.done}</a></p></section>`,
  )
}

function deliveriesPage(f: Frame, h: Hook, rows: Delivery[], done?: string): string {
  const w = cw(f)
  const writable = can(f, 'webhooks:write')
  return layout(
    f,
    w.deliveriesOf(h.url),
    html`${notice(done)}${rows.length === 0
      ? html`<p>${w.noDeliveries}</p>`
      : html`<ul class="list">${rows.map(
          (d) => html`<li><p><strong>${d.eventType}</strong> · ${w.deliveryStatus[d.status] ?? d.status}</p>
          <dl class="facts"><dt>${w.time}</dt><dd><time datetime="${d.updatedAt}">${at(d.updatedAt)}</time></dd>
          <dt>${w.attempts}</dt><dd>${d.attempts}</dd>
          <dt>${w.response}</dt><dd>${d.lastResponseCode ?? '-'}${d.lastLatencyMs !== null ? ` (${d.lastLatencyMs} ms)` : ''}</dd>
          ${d.lastError ? html`<dt>${w.error}</dt><dd>${d.lastError}</dd>` : ''}</dl>
          ${writable && d.status !== 'sending'
            ? form(f, `/admin/webhooks/${encodeURIComponent(h.id)}/deliveries/${encodeURIComponent(d.id)}/retry`, html`<button type="submit" class="secondary" aria-label="${w.retryDelivery(d.id)}">${w.retry}</button>`)
            : ''}</li>`,
        )}</ul>`}
    <p><a href="/admin/webhooks">${w.webhooksTitle}</a></p>`,
  )
}

function deletePage(f: Frame, h: Hook): string {
  const w = cw(f)
  return layout(
    f,
    w.deleteWebhookTitle(h.url),
    html`<section><p>${w.deleteWebhookText}</p>
    ${form(f, `/admin/webhooks/${encodeURIComponent(h.id)}/delete`, html`<div class="actions"><button type="submit" class="danger">${w.confirmDelete}</button><a class="button secondary" href="/admin/webhooks">${w.cancel}</a></div>`)}</section>`,
    { narrow: true },
  )
}

export function webhookPages(kit: PageKit): PageRoute[] {
  const ctxOf = (c: PageReq) => panelOf(c).person!.ctx!
  const hooksOf = (c: PageReq) => listWebhooks({ ctx: ctxOf(c), input: { limit: 100 } }).data
  const notFound = (c: PageReq) => kit.render(panelOf(c), c.set, 404, (f) => messagePage(f, f.w.notFoundTitle, f.w.notFoundText))
  /** The verb's 404 as a page; anything else goes on. */
  const orNotFound = async (c: PageReq, run: () => Response | Promise<Response>) => {
    try {
      return await run()
    } catch (e) {
      if (e instanceof AppError && e.status === 404) return notFound(c)
      throw e
    }
  }
  const DONE: Record<string, (w: ReturnType<typeof cw>) => string> = { saved: (w) => w.saved, retried: (w) => w.retried }

  return [
    {
      method: 'get',
      path: '/admin/webhooks',
      need: 'webhooks:read',
      handler: (c) => kit.render(panelOf(c), c.set, 200, (f) => listPage(f, { hooks: hooksOf(c), url: '', events: new Set(WEBHOOK_EVENTS), errors: {}, done: DONE[c.query.done ?? '']?.(cw(f)) })),
    },
    {
      method: 'post',
      path: '/admin/webhooks',
      need: 'webhooks:write',
      handler: async (c) => {
        const url = (field(c.body, 'url') ?? '').trim()
        const events = new Set<string>(WEBHOOK_EVENTS.filter((e) => ticked(c.body, eventId(e))))
        try {
          const created = await createWebhook({ ctx: ctxOf(c), input: checkBody(WebhookCreate, { url, events: [...events] }) })
          return kit.render(panelOf(c), c.set, 200, (f) => createdPage(f, created))
        } catch (e) {
          const w = cw(panelOf(c))
          const problem = problemOf(e, w)
          if (!problem) throw e
          const errors: Record<string, string> = {}
          if (problem.field?.startsWith('events')) errors.events = events.size === 0 ? w.eventsRequired : problem.message
          else if (problem.field) errors[problem.field] = problem.message
          return kit.render(panelOf(c), c.set, e instanceof AppError ? e.status : 400, (f) => listPage(f, { hooks: hooksOf(c), url, events, errors, problem }))
        }
      },
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id',
      need: 'webhooks:read',
      owns: webhooks,
      handler: (c) =>
        orNotFound(c, () => {
          const ctx = ctxOf(c)
          const h = getWebhook({ ctx, input: { id: c.params.id! } })
          const rows = listDeliveries({ ctx, input: { webhookId: h.id, ...{ limit: 50 } } }).data
          return kit.render(panelOf(c), c.set, 200, (f) => deliveriesPage(f, h, rows, DONE[c.query.done ?? '']?.(cw(f))))
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/active',
      need: 'webhooks:write',
      owns: webhooks,
      handler: (c) =>
        orNotFound(c, async () => {
          await updateWebhook({ ctx: ctxOf(c), input: { id: c.params.id!, ...{ isActive: field(c.body, 'isActive') === '1' } } })
          return kit.seeOther(c.set, '/admin/webhooks?done=saved')
        }),
    },
    {
      method: 'get',
      path: '/admin/webhooks/:id/delete',
      need: 'webhooks:write',
      owns: webhooks,
      handler: (c) => orNotFound(c, () => kit.render(panelOf(c), c.set, 200, (f) => deletePage(f, getWebhook({ ctx: ctxOf(c), input: { id: c.params.id! } })))),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/delete',
      need: 'webhooks:write',
      owns: webhooks,
      handler: (c) =>
        orNotFound(c, () => {
          deleteWebhook({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return kit.seeOther(c.set, '/admin/webhooks?done=saved')
        }),
    },
    {
      method: 'post',
      path: '/admin/webhooks/:id/deliveries/:deliveryId/retry',
      need: 'webhooks:write',
      owns: webhooks,
      handler: (c) =>
        orNotFound(c, () => {
          retryDelivery({ ctx: ctxOf(c), input: { webhookId: c.params.id!, deliveryId: c.params.deliveryId! } })
          return kit.seeOther(c.set, `/admin/webhooks/${encodeURIComponent(c.params.id!)}?done=retried`)
        }),
    },
  ]
}
