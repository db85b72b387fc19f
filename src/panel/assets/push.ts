/**
 * The panel's service worker on every page (so the panel can be installed and pushes shown),
 * and the Account page's "Turn on / Turn off" for this device's notifications: the browser's
 * Push API subscribes with the server's VAPID key and the subscription is posted to the panel.
 * Browsers allow service workers only on a secure origin they trust; elsewhere the switch
 * stays hidden and says so.
 */
const ID_KEY = 'panel-push-subscription'

export function registerPanelWorker(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return
  // A refused registration (an untrusted certificate) leaves the panel as it was.
  navigator.serviceWorker.register('/admin/sw.js', { scope: '/admin/' }).catch(() => {})
}

type Words = Record<'on' | 'off' | 'trust' | 'denied' | 'failed', string>

const keyBytes = (b64url: string): Uint8Array<ArrayBuffer> => {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/')
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
  return Uint8Array.from(bin, (c) => c.charCodeAt(0))
}

export function startPushSwitch(token: string | undefined): void {
  const box = document.getElementById('push-switch')
  const status = document.getElementById('push-status')
  const on = document.getElementById('push-on') as HTMLButtonElement | null
  const off = document.getElementById('push-off') as HTMLButtonElement | null
  if (!box || !status || !on || !off) return
  const words = JSON.parse(box.dataset.words ?? '{}') as Words
  const say = (text: string): void => {
    status.textContent = text
  }
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !window.isSecureContext) {
    say(words.trust)
    return
  }
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'x-form-token': token ?? '' }
  const show = (subscribed: boolean) => {
    box.hidden = false
    on.hidden = subscribed
    off.hidden = !subscribed
    say(subscribed ? words.on : words.off)
  }
  const registration = () => navigator.serviceWorker.register('/admin/sw.js', { scope: '/admin/' })

  void (async () => {
    try {
      const current = await (await registration()).pushManager.getSubscription()
      show(Boolean(current && localStorage.getItem(ID_KEY)))
    } catch {
      say(words.trust)
    }
  })()

  on.addEventListener('click', async () => {
    try {
      if ((await Notification.requestPermission()) !== 'granted') return say(words.denied)
      const reg = await registration()
      await navigator.serviceWorker.ready
      const { publicKey } = (await (await fetch('/admin/push/key', { headers })).json()) as { publicKey: string }
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) })
      const res = await fetch('/admin/push/subscriptions', {
        method: 'POST',
        headers,
        body: JSON.stringify(sub.toJSON()),
        credentials: 'same-origin',
      })
      const data = (await res.json()) as { id?: string; error?: { message?: string } }
      if (!res.ok || !data.id) return say(data.error?.message ?? words.failed)
      localStorage.setItem(ID_KEY, data.id)
      location.assign('/admin/account#notifications')
    } catch {
      say(words.failed)
    }
  })

  off.addEventListener('click', async () => {
    try {
      const id = localStorage.getItem(ID_KEY)
      if (id)
        await fetch(`/admin/push/subscriptions/${encodeURIComponent(id)}`, {
          method: 'DELETE',
          headers,
          credentials: 'same-origin',
        })
      localStorage.removeItem(ID_KEY)
      await (await (await registration()).pushManager.getSubscription())?.unsubscribe()
      location.assign('/admin/account#notifications')
    } catch {
      say(words.failed)
    }
  })
}
