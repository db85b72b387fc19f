/**
 * The panel's service worker (served as /admin/sw.js, scope /admin/). It does three things:
 * - shows each push as a notification (title, body, tag: a second push about the same order
 *   replaces the first);
 * - on a tap, focuses a panel window and takes it to the push's url, or opens one;
 * - when a navigation under /admin fails for want of a network, answers with the offline page
 *   stored at install. That page and the stylesheet are the only things it stores: it never
 *   keeps an authenticated page (navigations go to the network, and nothing they return is cached).
 * `PRECACHE` (the offline page's and the stylesheet's URLs) is set by the server before this code.
 */
export {}
declare const self: ServiceWorkerGlobalScope
declare const PRECACHE: { offline: string; assets: string[]; icon: string }

const CACHE = `panel-offline-${PRECACHE.assets.join(',')}`

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE)
      // Without cookies: the offline page is the anonymous one, whoever is signed in.
      const urls = [PRECACHE.offline, ...PRECACHE.assets]
      await Promise.all(
        urls.map(async (url) => {
          const res = await fetch(url, { credentials: 'omit', cache: 'no-store' })
          if (res.ok) await cache.put(url, res)
        }),
      )
      await self.skipWaiting()
    })(),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name)
      await self.clients.claim()
    })(),
  )
})

self.addEventListener('fetch', (event) => {
  const req = event.request
  if (req.method !== 'GET') return
  const url = new URL(req.url)
  if (url.origin === self.location.origin && PRECACHE.assets.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((hit) => hit ?? fetch(req)))
    return
  }
  if (req.mode !== 'navigate' || !url.pathname.startsWith('/admin')) return
  event.respondWith(fetch(req).catch(async () => (await caches.match(PRECACHE.offline)) ?? Response.error()))
})

interface PushPayload {
  title?: string
  body?: string
  url?: string
  tag?: string
}

self.addEventListener('push', (event) => {
  let data: PushPayload = {}
  try {
    data = (event.data?.json() ?? {}) as PushPayload
  } catch {
    data = { body: event.data?.text() }
  }
  event.waitUntil(
    self.registration.showNotification(data.title ?? 'Seller panel', {
      body: data.body ?? '',
      tag: data.tag,
      icon: PRECACHE.icon,
      data: { url: data.url ?? '/admin/orders' },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const raw = (event.notification.data as { url?: string } | null)?.url ?? '/admin/orders'
  // Only a page of this panel: a push can't send the person anywhere else.
  const target = new URL(raw, self.location.origin)
  const url =
    target.origin === self.location.origin && target.pathname.startsWith('/admin') ? target.href : '/admin/orders'
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const panel = windows.find((w) => new URL(w.url).pathname.startsWith('/admin'))
      if (panel) {
        // Focusing needs the tap's user activation; navigating needs the window under this worker.
        await panel.focus().catch(() => panel)
        if (await panel.navigate(url).catch(() => null)) return
      }
      await self.clients.openWindow(url)
    })(),
  )
})
