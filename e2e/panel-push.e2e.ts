/**
 * The installable panel in Chromium: the service worker under /admin/, a push delivered to it
 * shown as a notification naming the order, a tap on it opening the order's page, the manifest
 * and its icons, installability, the offline page, and the Account page's notifications section.
 * Chromium runs with --ignore-certificate-errors (the harness): it registers no service worker
 * over a certificate it does not trust (the test server's is self-signed), as a phone would not.
 * Headless Chromium can't subscribe (`pushManager.subscribe` is refused), so the test posts a
 * subscription of its own making, as the page's script would, to a fake push service, decrypts
 * what the server sent there, and delivers that to the worker through the DevTools protocol.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import sharp from 'sharp'
import { type Harness, check, close, open, ownerStore, signInAs, startHarness } from './panel-harness'
import { makeCatalog, orderBody } from '../tests/helpers/factories'
import { browserSubscription, decryptPush, startPushService, type FakePushService } from '../tests/helpers/push-service'

/** The browser globals the page-side functions use (this file is type-checked without the DOM's). */
interface Browserish {
  navigator: {
    serviceWorker: {
      controller: unknown
      ready: Promise<{ scope: string; getNotifications(): Promise<{ title: string; body: string }[]> }>
    }
  }
}

let h: Harness
let push: FakePushService
beforeAll(async () => {
  push = startPushService()
  h = await startHarness({ pushAllowPrivate: true })
}, 60_000)
afterAll(async () => {
  await h?.close()
  push?.stop()
})

test('installable panel: worker, push shown and tapped, manifest and icons, offline page', async () => {
  const { store } = await ownerStore(h, {
    name: 'Zinnia Flowers',
    slug: 'zinnia',
    email: 'zoe@example.com',
    password: 'a long enough password 1',
  })
  const w = await open(h)
  const { page, context } = w
  await context.grantPermissions(['notifications'], { origin: h.origin })
  await signInAs(h, page, 'zoe@example.com', 'a long enough password 1')

  // The Account page's section, as a screen reader finds it.
  await page.goto(`${h.origin}/admin/account`)
  await page.getByRole('heading', { level: 2, name: 'Notifications on this device' }).waitFor()
  await page.getByRole('group', { name: 'Tell me about' }).waitFor()
  expect(await page.getByRole('checkbox', { name: 'New orders' }).isChecked()).toBe(true)
  await check(page)

  // The worker registers under /admin/ from any panel page.
  await page.goto(`${h.origin}/admin/orders`)
  const scope = await page.evaluate(
    async () => (await (globalThis as unknown as Browserish).navigator.serviceWorker.ready).scope,
  )
  expect(scope).toBe(`${h.origin}/admin/`)
  await page.reload()
  await page.waitForFunction(() => (globalThis as unknown as Browserish).navigator.serviceWorker.controller !== null)
  await check(page)

  // The manifest as Chromium reads it, its icons, and nothing standing in the way of installing.
  const cdp = await context.newCDPSession(page)
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data: string }
  expect(manifest.errors).toEqual([])
  const data = JSON.parse(manifest.data)
  expect(data).toMatchObject({
    name: 'Zinnia Flowers · Seller panel',
    start_url: '/admin/orders',
    scope: '/admin/',
    display: 'standalone',
  })
  for (const icon of data.icons as { src: string; sizes: string; purpose: string }[]) {
    const res = await page.request.get(`${h.origin}${icon.src}`)
    expect(res.headers()['content-type']).toBe('image/png')
    const meta = await sharp(await res.body()).metadata()
    expect(`${meta.width}x${meta.height}`).toBe(icon.sizes)
  }
  expect(data.icons.map((i: { purpose: string }) => i.purpose)).toContain('maskable')
  const installability = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[]
  }
  expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([])

  // A device of this person, posted as the page's script posts one.
  const sub = browserSubscription(`${push.url}/push/zinnia`)
  const status = await page.evaluate(async (json) => {
    const token = (await (await fetch('/admin/account')).text()).match(/name="_csrf" value="([^"]+)"/)?.[1] ?? ''
    const res = await fetch('/admin/push/subscriptions', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-form-token': token },
      body: JSON.stringify(json),
    })
    return res.status
  }, sub.json)
  expect(status).toBe(201)

  // An order: the push service gets it, encrypted for this browser; the worker shows it.
  const deps = h.server.running.deps
  const cat = makeCatalog(deps, store.id)
  const res = await h.server.fetch('/api/orders', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(orderBody(store.id, cat, { name: 'Rosa Díaz' })),
  })
  expect(res.status).toBe(201)
  const order = (await res.json()) as { id: string; orderNumber: string }
  await push.waitForCount(1, 30_000)
  const payload = decryptPush(push.received[0]!, sub) as { title: string; url: string }
  expect(payload.url).toBe(`/admin/orders/${order.id}`)

  // Listening before enabling: the registrations and versions are reported as it is enabled, and
  // an event that arrived before the listener would be missed for good. The push goes to the
  // panel's live registration once its worker version is activated (a message delivered to a
  // registration still settling can be dropped by the browser, not by the worker).
  const registered = new Promise<string>((resolve) => {
    let id: string | undefined
    const activated = new Set<string>()
    const settle = () => {
      if (id && activated.has(id)) resolve(id)
    }
    cdp.on(
      'ServiceWorker.workerRegistrationUpdated',
      (e: { registrations: { registrationId: string; scopeURL: string; isDeleted?: boolean }[] }) => {
        const r = e.registrations.find((x) => x.scopeURL === `${h.origin}/admin/` && !x.isDeleted)
        if (r) id = r.registrationId
        settle()
      },
    )
    cdp.on('ServiceWorker.workerVersionUpdated', (e: { versions: { registrationId: string; status: string }[] }) => {
      for (const v of e.versions) if (v.status === 'activated') activated.add(v.registrationId)
      settle()
    })
  })
  await cdp.send('ServiceWorker.enable')
  const registrationId = await registered
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: h.origin,
    registrationId,
    data: JSON.stringify(payload),
  })
  const shown = async () =>
    page.evaluate(async () =>
      (await (await (globalThis as unknown as Browserish).navigator.serviceWorker.ready).getNotifications()).map(
        (n) => ({
          title: n.title,
          body: n.body,
        }),
      ),
    )
  // The worker shows it on its own time: ask until it has (a promise is no predicate for waitForFunction).
  const until = Date.now() + 30_000
  while ((await shown()).length === 0 && Date.now() < until) await Bun.sleep(50)
  const notes = await shown()
  expect(notes).toHaveLength(1)
  expect(notes[0]!.title).toContain(order.orderNumber)
  expect(notes[0]!.body).toContain('Rosa Díaz')

  // A tap: the worker takes the panel's window to the order.
  const worker = context.serviceWorkers().find((s) => s.url().endsWith('/admin/sw.js'))!
  await worker.evaluate(async () => {
    const sw = globalThis as unknown as {
      registration: { getNotifications(): Promise<unknown[]> }
      dispatchEvent(e: Event): boolean
    }
    const [n] = await sw.registration.getNotifications()
    const Ctor = (globalThis as unknown as { NotificationEvent: new (t: string, i: object) => Event }).NotificationEvent
    sw.dispatchEvent(new Ctor('notificationclick', { notification: n }))
  })
  await page.waitForURL(`${h.origin}/admin/orders/${order.id}`)
  await page.getByRole('heading', { level: 1, name: `Order ${order.orderNumber}` }).waitFor()
  await check(page)

  // Offline: a panel address shows the offline page, never a stored copy of a signed-in page.
  await context.setOffline(true)
  await page.goto(`${h.origin}/admin/products`).catch(() => {})
  await page.getByRole('heading', { level: 1, name: 'You are offline' }).waitFor()
  expect(await page.content()).not.toContain('Zinnia')
  await context.setOffline(false)
  await page.goto(`${h.origin}/admin/offline`)
  await check(page)

  await close(w)
}, 120_000)
