/**
 * The Account page's "Notifications on this device": the switch for this browser (the panel
 * script subscribes it with the Push API and posts the subscription), a test notification, the
 * person's devices each with "Turn off", and what the person wants to be told about. Without
 * the script the switch stays hidden and says why; the rest are plain forms.
 */
import { escapeHtml, html, raw, type Html } from '../../shop/html'
import type { PushWords } from '../i18n/push'
import { type Frame, form } from './frame'

export interface NotificationsData {
  pw: PushWords
  devices: { id: string; name: string; since: string }[]
  prefs: { newOrders: boolean; reviews: boolean; lowStock: boolean; webhookDisabled: boolean }
}

export function notificationsSection(f: Frame, d: NotificationsData): Html {
  const { pw } = d
  const check = (name: keyof NotificationsData['prefs'], label: string) =>
    html`<label class="check"><input type="checkbox" name="${name}" value="1"${raw(d.prefs[name] ? ' checked' : '')}> ${label}</label>`
  // What the script says, in the person's words (attributes: the CSP allows no inline script).
  const words = escapeHtml(
    JSON.stringify({
      on: pw.turnedOn,
      off: pw.turnedOff,
      trust: pw.needsTrust,
      denied: pw.denied,
      failed: pw.failed,
    }),
  )
  return html`<section aria-labelledby="push-h" id="notifications"><h2 id="push-h">${pw.notifications}</h2>
    <p>${pw.notificationsIntro}</p>
    <p id="push-status" role="status">${pw.needsScript}</p>
    <p id="push-switch" class="actions" data-words="${raw(words)}" hidden>
      <button type="button" id="push-on">${pw.turnOn}</button>
      <button type="button" id="push-off" class="secondary" hidden>${pw.turnOff}</button>
    </p>
    ${form(f, '/admin/push/test', html`<button type="submit" class="secondary">${pw.sendTest}</button>`)}
    <h3>${pw.yourDevices}</h3>
    ${
      d.devices.length === 0
        ? html`<p>${pw.noDevices}</p>`
        : html`<ul id="push-devices">${d.devices.map(
            (v) =>
              html`<li class="actions" data-subscription="${v.id}">${v.name} <span class="hint">(${pw.since} <time datetime="${v.since}">${v.since.slice(0, 10)}</time>)</span> ${form(f, `/admin/push/subscriptions/${encodeURIComponent(v.id)}/delete`, html`<button type="submit" class="secondary" aria-label="${pw.turnOffDevice(v.name)}">${pw.turnOff}</button>`)}</li>`,
          )}</ul>`
    }
    ${form(
      f,
      '/admin/push/preferences',
      html`<fieldset><legend>${pw.tellMeAbout}</legend>
        ${check('newOrders', pw.prefNewOrders)}
        ${check('reviews', pw.prefReviews)}
        ${check('lowStock', pw.prefLowStock)}
        ${check('webhookDisabled', pw.prefWebhookDisabled)}
      </fieldset>
      <button type="submit">${pw.savePrefs}</button>`,
    )}
  </section>`
}
