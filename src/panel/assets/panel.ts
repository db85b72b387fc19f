/**
 * The panel's one script (bundled with @simplewebauthn/browser by src/panel/assets.ts). Pages
 * work without it; it adds "Copy" buttons and passkeys (which need the browser's WebAuthn API),
 * the live orders inbox, the product editor's pictures and the webhook delivery log.
 * It reads the form token from the page's own forms and sends it with every state-changing fetch.
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser'
import { startAlerts } from './alerts'
import { setBadge } from './badges'
import { startOrderActions } from './order-actions'
import { startOrdersLive } from './orders-live'
import { startProductPictures } from './product-pictures'
import { registerPanelWorker, startPushSwitch } from './push'
import { startWebhookLog } from './webhook-log'

const $ = <T extends Element>(sel: string) => document.querySelector<T>(sel)

function say(el: Element | null, text: string): void {
  if (el) el.textContent = text
}

async function post(
  url: string,
  token: string | undefined,
  body: unknown,
): Promise<{ ok: boolean; data: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' }
  // The session's form token, from the form of this page (a pending or signed-in session has one).
  token ??= document.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value
  if (token) headers['x-form-token'] = token
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(body ?? {}),
    credentials: 'same-origin',
  })
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>
  return { ok: res.ok && data.ok !== false, data }
}

// Copy buttons: <button data-copy="element-id">.
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.hidden = false
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy!)
    const text = source instanceof HTMLInputElement ? source.value : (source?.textContent ?? '')
    try {
      await navigator.clipboard.writeText(text.trim())
      say(document.getElementById(`${button.dataset.copy}-status`), button.dataset.done ?? '')
    } catch {
      if (source instanceof HTMLInputElement) source.select()
    }
  })
}

const supported = browserSupportsWebAuthn()

// Sign in with a passkey (login page).
const signInButton = $<HTMLButtonElement>('#passkey-signin')
if (signInButton && supported) {
  signInButton.hidden = false
  signInButton.addEventListener('click', async () => {
    const status = $('#passkey-status')
    say(status, '')
    try {
      const options = await post('/admin/login/passkey/options', undefined, {})
      const response = await startAuthentication({ optionsJSON: options.data.options as never })
      // Where the sign-in form was to lead (an assistant's consent page, a panel page): the server checks it.
      const next = document.querySelector<HTMLInputElement>('input[name="next"]')?.value
      const done = await post('/admin/login/passkey', undefined, { response, next })
      if (done.ok) location.assign(String(done.data.next ?? '/admin'))
      else say(status, signInButton.dataset.failed ?? '')
    } catch {
      say(status, signInButton.dataset.failed ?? '')
    }
  })
}

// Add a passkey (account page).
const addForm = $<HTMLFormElement>('#passkey-add')
if (addForm && supported) {
  addForm.hidden = false
  $('#passkey-nojs')?.setAttribute('hidden', '')
  addForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    const token = (addForm.elements.namedItem('_csrf') as HTMLInputElement | null)?.value
    const name = (addForm.elements.namedItem('name') as HTMLInputElement | null)?.value
    const status = $('#passkey-add-status')
    say(status, '')
    try {
      const options = await post('/admin/account/passkeys/options', token, {})
      // No recent proof that it is them: the page that takes one, then back here.
      if (typeof options.data.confirm === 'string') return location.assign(options.data.confirm)
      const response = await startRegistration({ optionsJSON: options.data.options as never })
      const done = await post('/admin/account/passkeys', token, { name, response })
      if (done.ok) location.assign(String(done.data.next ?? '/admin/account'))
      else say(status, addForm.dataset.failed ?? '')
    } catch {
      say(status, addForm.dataset.failed ?? '')
    }
  })
}

// "Confirm it's you" with a passkey: the ceremony proves it, then the held form goes as it was.
const confirmForm = $<HTMLFormElement>('#confirm-passkey')
if (confirmForm && supported) {
  confirmForm.hidden = false
  confirmForm.addEventListener('submit', async (event) => {
    event.preventDefault()
    const status = $('#confirm-passkey-status')
    say(status, '')
    try {
      const options = await post('/admin/confirm/passkey/options', undefined, {})
      const response = await startAuthentication({ optionsJSON: options.data.options as never })
      const done = await post('/admin/confirm/passkey', undefined, { response })
      if (done.ok) confirmForm.submit()
      else say(status, confirmForm.dataset.failed ?? '')
    } catch {
      say(status, confirmForm.dataset.failed ?? '')
    }
  })
}

// New-order alerts on every page (alerts.ts) and the live order lists (orders-live.ts): one stream per tab.
startAlerts()
startOrdersLive()
startOrderActions()

// The product editor's pictures: uploads with progress, moves by drag and by button (product-pictures.ts).
startProductPictures()
// The service worker on every page (installable panel, pushes); the Account page's notification switch.
registerPanelWorker()
startPushSwitch(document.querySelector<HTMLInputElement>('input[name="_csrf"]')?.value)
startWebhookLog()

// The Reviews link's count of reviews waiting for approval stays live: refreshed every half
// minute and when the tab comes back (GET /admin/badges), without a reload.
const reviewsLink = $<HTMLAnchorElement>('a[data-badge="reviews"]')
if (reviewsLink) {
  const refresh = async () => {
    try {
      const res = await fetch('/admin/badges', { headers: { accept: 'application/json' } })
      if (!res.ok) return
      const { reviews } = (await res.json()) as { reviews: number }
      setBadge(reviewsLink, reviews)
    } catch {
      // Offline for a moment: the next turn tries again.
    }
  }
  setInterval(refresh, 30_000)
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refresh()
  })
}

// A refused form opens on its error summary (every fault, each a link to its field): focus it, so
// a screen reader reads it first and a keyboard's next Tab is its first link.
$<HTMLElement>('[data-error-summary]')?.focus()
