/**
 * The Account page's "Notifications on this device": the switch for this browser (the panel
 * script subscribes it with the Push API and posts the subscription), a test notification, the
 * person's devices each with "Turn off", and what the person wants to be told about. Without
 * the script the switch stays hidden and says why; the rest are plain forms.
 */
import { escapeHtml, html, raw, type Html } from '../../shop/html'
import { type Frame, form, submitFor } from './frame'

export interface NotificationsData {
  devices: { id: string; name: string; since: string }[]
  prefs: { newOrders: boolean; reviews: boolean; lowStock: boolean; webhookDisabled: boolean }
}

export function notificationsSection(f: Frame, d: NotificationsData): Html {
  const { w } = f
  const check = (name: keyof NotificationsData['prefs'], label: string) => {
    const checked = raw(d.prefs[name] ? ' checked' : '')
    return html`<label class="check"><input type="checkbox" name="${name}" value="1"${checked}> ${label}</label>`
  }
  const device = (v: NotificationsData['devices'][number]) => {
    const day = html`<time datetime="${v.since}">${v.since.slice(0, 10)}</time>`
    const since = html`<span class="hint">(${w.push.since} ${day})</span>`
    const turnOff = submitFor('secondary', w.push.turnOffDevice(v.name), w.push.turnOff)
    const off = form(f, `/admin/push/subscriptions/${encodeURIComponent(v.id)}/delete`, turnOff)
    return html`<li class="actions" data-subscription="${v.id}">${v.name} ${since} ${off}</li>`
  }
  // What the script says, in the person's words (attributes: the CSP allows no inline script).
  const words = escapeHtml(
    JSON.stringify({
      on: w.push.turnedOn,
      off: w.push.turnedOff,
      trust: w.push.needsTrust,
      denied: w.push.denied,
      failed: w.push.failed,
    }),
  )
  return html`<section aria-labelledby="push-h" id="notifications"><h2 id="push-h">${w.push.notifications}</h2>
    <p>${w.push.notificationsIntro}</p>
    <p id="push-status" role="status">${w.push.needsScript}</p>
    <p id="push-switch" class="actions" data-words="${raw(words)}" hidden>
      <button type="button" id="push-on">${w.push.turnOn}</button>
      <button type="button" id="push-off" class="secondary" hidden>${w.push.turnOff}</button>
    </p>
    ${form(f, '/admin/push/test', html`<button type="submit" class="secondary">${w.push.sendTest}</button>`)}
    <h3>${w.push.yourDevices}</h3>
    ${
      d.devices.length === 0
        ? html`<p>${w.push.noDevices}</p>`
        : html`<ul id="push-devices">${d.devices.map(device)}</ul>`
    }
    ${form(
      f,
      '/admin/push/preferences',
      html`<fieldset><legend>${w.push.tellMeAbout}</legend>
        ${check('newOrders', w.push.prefNewOrders)}
        ${check('reviews', w.push.prefReviews)}
        ${check('lowStock', w.common.lowStock)}
        ${check('webhookDisabled', w.push.prefWebhookDisabled)}
      </fieldset>
      <button type="submit">${w.common.save}</button>`,
    )}
  </section>`
}
