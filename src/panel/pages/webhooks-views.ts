/**
 * The webhook pages' views: the list with the add form, the editor (URL, events, rotating the
 * secret), a secret shown once (after adding or rotating), the delivery log with "Send test
 * event" and "Retry", and the delete confirmation.
 */
import { WEBHOOK_EVENTS } from '../../modules/webhooks'
import type { deliveryLog, getWebhook } from '../../modules/webhooks'
import { html, raw } from '../../shop/html'
import { can, confirmOrBack, copyButton, copyStatus, form, layout, type Frame, linkFor, submitFor } from '../views'
import { banner, input, notice } from './controls'
import type { Problem } from './kit'
import type { Words } from '../words'

export type Hook = ReturnType<typeof getWebhook>
type Delivery = ReturnType<typeof deliveryLog>[number]
const at = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '')
export const eventId = (e: string) => `event-${e.replace('.', '-')}`
export const hookPath = (id: string) => `/admin/webhooks/${encodeURIComponent(id)}`

export interface HookForm {
  url: string
  events: Set<string>
  errors: Record<string, string>
  problem?: Problem
}

/** The URL and the events, as the add form and the editor both show them. */
function hookFields(w: Words, d: HookForm) {
  const e = d.errors
  const eventBox = (ev: (typeof WEBHOOK_EVENTS)[number]) => {
    const id = eventId(ev)
    const checked = raw(d.events.has(ev) ? ' checked' : '')
    const box = html`<input id="${id}" name="${id}" type="checkbox" value="1"${checked}>`
    return html`<div class="check">${box}<label for="${id}">${ev}</label></div>`
  }
  return html`${input({
    id: 'url',
    label: w.webhooks.url,
    value: d.url,
    type: 'url',
    hint: w.webhooks.urlHint,
    errors: e,
    attrs: 'required maxlength="2048" inputmode="url"',
  })}
  <fieldset id="events"${raw(e.events ? ' aria-describedby="events-error"' : '')}><legend>${w.webhooks.events}</legend>
  ${WEBHOOK_EVENTS.map(eventBox)}
  ${e.events ? html`<p id="events-error" class="error">${e.events}</p>` : ''}</fieldset>`
}

export function listPage(f: Frame, d: HookForm & { hooks: Hook[]; done?: string }): string {
  const w = f.w
  const writable = can(f, 'webhooks:write')
  const rows = d.hooks.map((h) => {
    const toggle = form(
      f,
      `${hookPath(h.id)}/active`,
      html`<input type="hidden" name="isActive" value="${
        h.isActive ? '0' : '1'
      }"><button type="submit" class="secondary" aria-label="${`${
        h.isActive ? w.webhooks.disable : w.webhooks.enable
      }: ${h.url}`}">${h.isActive ? w.webhooks.disable : w.webhooks.enable}</button>`,
    )
    const log = html`<a href="${hookPath(h.id)}" aria-label="${w.webhooks.viewLogOf(h.url)}">${h.url}</a>`
    const disabled = h.isActive ? '' : html` <span class="badge">${w.webhooks.disabled}</span>`
    const edit = linkFor('button secondary', `${hookPath(h.id)}/edit`, w.webhooks.editWebhookOf(h.url), w.common.edit)
    const deleteLabel = `${w.webhooks.deleteWebhook}: ${h.url}`
    const remove = linkFor('button secondary', `${hookPath(h.id)}/delete`, deleteLabel, w.webhooks.deleteWebhook)
    return html`<li><p>${log}${disabled}</p>
      <p class="hint">${h.events.join(', ')}${h.disabledReason ? html` · ${h.disabledReason}` : ''}</p>
      ${writable ? html`<div class="actions">${toggle}${edit}${remove}</div>` : ''}</li>`
  })
  return layout(
    f,
    w.nav.webhooks,
    html`${notice(d.done)}<section aria-labelledby="hooks-h"><h2 id="hooks-h">${w.nav.webhooks}</h2>${
      d.hooks.length ? html`<ul class="list">${rows}</ul>` : html`<p>${w.webhooks.noWebhooks}</p>`
    }</section>
    ${
      writable
        ? html`<section aria-labelledby="add-h"><h2 id="add-h">${w.webhooks.addWebhook}</h2>${banner(
            w,
            d.problem,
            d.errors,
          )}
      ${form(
        f,
        '/admin/webhooks',
        html`${hookFields(w, d)}<button type="submit">${w.webhooks.addWebhook}</button>`,
        'novalidate',
      )}</section>`
        : ''
    }`,
  )
}

export function editPage(f: Frame, h: Hook, d: HookForm & { overlapHours: number; done?: string }): string {
  const w = f.w
  const heading = html`<h2 id="edit-h" class="sr-only">${w.common.edit}</h2>`
  return layout(
    f,
    w.webhooks.editWebhookTitle(h.url),
    html`${notice(d.done)}<section aria-labelledby="edit-h">${heading}${banner(w, d.problem, d.errors)}
    ${form(
      f,
      `${hookPath(h.id)}/edit`,
      html`${hookFields(w, d)}<button type="submit">${w.common.save}</button>`,
      'novalidate',
    )}</section>
    <section aria-labelledby="secret-h"><h2 id="secret-h">${w.webhooks.signingSecret}</h2>
    <p>${w.webhooks.rotateText(d.overlapHours)}</p>
    ${form(
      f,
      `${hookPath(h.id)}/rotate`,
      html`<button type="submit" class="secondary">${w.webhooks.rotateSecret}</button>`,
    )}</section>
    <p><a href="${hookPath(h.id)}">${w.webhooks.deliveries}</a> · <a href="/admin/webhooks">${w.nav.webhooks}</a></p>`,
  )
}

/** A signing secret, shown once: after adding an endpoint or rotating its secret. */
/** The endpoint's signing secret, shown once (undefined: it was shown already, or is too old to show). */
export function secretPage(f: Frame, h: Hook, secret: string | undefined, rotated?: { overlapHours: number }): string {
  const w = f.w
  const title = rotated ? w.webhooks.secretRotated : w.webhooks.webhookCreated
  if (secret === undefined)
    return layout(
      f,
      title,
      html`<section><p>${w.webhooks.secretShownOnce}</p>
    <p><a class="button" href="/admin/webhooks">${w.nav.webhooks}</a></p></section>`,
    )
  const copy = html`${copyButton('webhook-secret', w.common.copied, w.common.copy)}${copyStatus('webhook-secret')}`
  return layout(
    f,
    title,
    html`<section><p>${h.url}</p><p>${w.webhooks.secretOnce}</p>${
      rotated ? html`<p>${w.webhooks.rotateText(rotated.overlapHours)}</p>` : ''
    }
    <p><strong>${w.keys.secret}</strong></p>
    <p><code id="webhook-secret" class="secret">${secret}</code></p>
    <p class="actions">${copy}</p>
    <p><a class="button" href="/admin/webhooks">${w.common.done}</a></p></section>`,
  )
}

/**
 * The log's rows (the page's, and the fragment its script fetches every few seconds): each
 * delivery's status, time, every attempt made (a manual retry adds to them), the next attempt's
 * time while one is scheduled, the last response and error, and "Retry".
 */
export function deliveryItems(f: Frame, h: Hook, rows: Delivery[]) {
  const w = f.w
  const writable = can(f, 'webhooks:write')
  if (rows.length === 0) return html`<p>${w.webhooks.noDeliveries}</p>`
  const statusOf = (d: Delivery) => w.webhooks.deliveryStatus[d.status] ?? d.status
  const time = (iso: string) => html`<time datetime="${iso}">${at(iso)}</time>`
  return html`<ul class="list">${rows.map(
    (d) => html`<li data-status="${d.status}"><p><strong>${d.eventType}</strong> · ${statusOf(d)}</p>
          <dl class="facts"><dt>${w.common.time}</dt><dd>${time(d.updatedAt)}</dd>
          <dt>${w.webhooks.attempts}</dt><dd>${d.attemptsTotal}</dd>
          ${d.nextAttemptAt ? html`<dt>${w.webhooks.nextAttempt}</dt><dd>${time(d.nextAttemptAt)}</dd>` : ''}
          <dt>${w.webhooks.response}</dt><dd>${d.lastResponseCode ?? '-'}${
            d.lastLatencyMs !== null ? ` (${d.lastLatencyMs} ms)` : ''
          }</dd>
          ${d.lastError ? html`<dt>${w.webhooks.error}</dt><dd>${d.lastError}</dd>` : ''}</dl>
          ${
            writable && d.status !== 'sending'
              ? form(
                  f,
                  `${hookPath(h.id)}/deliveries/${encodeURIComponent(d.id)}/retry`,
                  submitFor('secondary', w.webhooks.retryDelivery(d.id), w.webhooks.retry),
                )
              : ''
          }</li>`,
  )}</ul>`
}

export function deliveriesPage(f: Frame, h: Hook, rows: Delivery[], done?: string): string {
  const w = f.w
  const testHeading = html`<h2 id="test-h" class="sr-only">${w.webhooks.sendTest}</h2>`
  const testHint = html`<p class="hint">${w.webhooks.sendTestHint}</p>`
  const testForm = form(f, `${hookPath(h.id)}/test`, html`<button type="submit">${w.webhooks.sendTest}</button>`)
  const writable = can(f, 'webhooks:write')
  return layout(
    f,
    w.webhooks.deliveriesOf(h.url),
    html`${notice(done)}${
      writable ? html`<section aria-labelledby="test-h">${testHeading}${testHint}${testForm}</section>` : ''
    }
    <div id="delivery-log" data-log="${hookPath(h.id)}/log">${deliveryItems(f, h, rows)}</div>
    <p><a href="${hookPath(h.id)}" data-refresh-link>${w.webhooks.refreshLog}</a></p>
    <p>${
      writable ? html`<a href="${hookPath(h.id)}/edit">${w.webhooks.editWebhookOf(h.url)}</a> · ` : ''
    }<a href="/admin/webhooks">${w.nav.webhooks}</a></p>`,
  )
}

export function deletePage(f: Frame, h: Hook): string {
  const w = f.w
  return layout(
    f,
    w.webhooks.deleteWebhookTitle(h.url),
    html`<section><p>${w.webhooks.deleteWebhookText}</p>
    ${form(
      f,
      `${hookPath(h.id)}/delete`,
      confirmOrBack(w.products.confirmDelete, '/admin/webhooks', w.common.cancel),
    )}</section>`,
    { narrow: true },
  )
}
