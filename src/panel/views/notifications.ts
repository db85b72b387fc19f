/**
 * The Account page's "Notifications on this device": the switch for this browser (the panel
 * script subscribes it with the Push API and posts the subscription), a test notification, the
 * person's devices each with "Turn off", and what the person wants to be told about. Without
 * the script the switch stays hidden and says why; the rest are plain forms.
 */
import { escapeHtml, html, raw, type Html } from '../../shop/html'
import { type Frame, form } from './frame'
import type { Words } from '../words'

export interface NotificationsData {
  pw: Words
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
      on: pw.push.turnedOn,
      off: pw.push.turnedOff,
      trust: pw.push.needsTrust,
      denied: pw.push.denied,
      failed: pw.push.failed,
    }),
  )
  return html`<section aria-labelledby="push-h" id="notifications"><h2 id="push-h">${pw.push.notifications}</h2>
    <p>${pw.push.notificationsIntro}</p>
    <p id="push-status" role="status">${pw.push.needsScript}</p>
    <p id="push-switch" class="actions" data-words="${raw(words)}" hidden>
      <button type="button" id="push-on">${pw.push.turnOn}</button>
      <button type="button" id="push-off" class="secondary" hidden>${pw.push.turnOff}</button>
    </p>
    ${form(f, '/admin/push/test', html`<button type="submit" class="secondary">${pw.push.sendTest}</button>`)}
    <h3>${pw.push.yourDevices}</h3>
    ${
      d.devices.length === 0
        ? html`<p>${pw.push.noDevices}</p>`
        : html`<ul id="push-devices">${d.devices.map(
            (v) =>
              html`<li class="actions" data-subscription="${v.id}">${v.name} <span class="hint">(${pw.push.since} <time datetime="${v.since}">${v.since.slice(0, 10)}</time>)</span> ${form(f, `/admin/push/subscriptions/${encodeURIComponent(v.id)}/delete`, html`<button type="submit" class="secondary" aria-label="${pw.push.turnOffDevice(v.name)}">${pw.push.turnOff}</button>`)}</li>`,
          )}</ul>`
    }
    ${form(
      f,
      '/admin/push/preferences',
      html`<fieldset><legend>${pw.push.tellMeAbout}</legend>
        ${check('newOrders', pw.push.prefNewOrders)}
        ${check('reviews', pw.push.prefReviews)}
        ${check('lowStock', pw.push.prefLowStock)}
        ${check('webhookDisabled', pw.push.prefWebhookDisabled)}
      </fieldset>
      <button type="submit">${pw.common.save}</button>`,
    )}
  </section>`
}
