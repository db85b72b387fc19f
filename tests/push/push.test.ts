/**
 * Web Push to the sellers' devices over HTTP: the key, saving and forgetting a device, and a new
 * order reaching every device of every person of the store who may read orders, encrypted for
 * each browser, after the order's answer and whatever the push service does.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPublicKey, verify } from 'node:crypto'
import { statSync } from 'node:fs'
import path from 'node:path'
import { appForFile, makeApp } from '../helpers/app'
import { makeCatalog, orderBody } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { browserSubscription, decryptPush, startPushService, type FakePushService } from '../helpers/push-service'
import { fixedClock } from '../../src/lib/time'
import { suspendStore } from '../../src/modules/platform-stores/service'
import { memberships } from '../../src/db/schema'
import { and, eq } from 'drizzle-orm'

const clock = fixedClock(Date.UTC(2026, 5, 1, 12))
const t = appForFile({ pushAllowPrivate: true, rateLimitOrders: 100_000 }, { clock })
let push: FakePushService
beforeAll(() => {
  push = startPushService()
})
afterAll(() => push.stop())

const count = (q: string, ...params: string[]) => (t.deps.db.$client.query(q).get(...params) as { n: number }).n

/** A shop, its owner signed in, and `devices` subscriptions of the owner posted as the panel script does. */
async function shopWithDevices(devices = 1) {
  const shop = await makeOwnerShop(t.deps)
  const b = new PanelClient((r) => t.app.handle(r))
  await signIn(b, shop.email)
  await b.get('/admin/account')
  const subs = []
  for (let i = 0; i < devices; i++) subs.push(await subscribeDevice(b, `${shop.store.id}-owner-${i}`))
  return { ...shop, b, subs, cat: makeCatalog(t.deps, shop.store.id) }
}

async function subscribeDevice(b: PanelClient, name: string) {
  const sub = browserSubscription(`${push.url}/push/${name}`)
  await b.get('/admin/account')
  const res = await b.postJson('/admin/push/subscriptions', sub.json)
  expect(res.status).toBe(201)
  return { ...sub, id: res.json.id as string, path: `/push/${name}` }
}

const placeOrder = (storeId: string, cat: ReturnType<typeof makeCatalog>) =>
  t.api.post('/api/orders', orderBody(storeId, cat, { name: 'Ana Souza' }))

const sentTo = (p: string) => push.received.filter((r) => r.path === p)

describe('the key and the devices', () => {
  test('GET /admin/push/key gives the VAPID public key, made once into DATA_DIR/vapid.json (0600)', async () => {
    const { b } = await shopWithDevices(0)
    const res = await b.get('/admin/push/key')
    expect(res.status).toBe(200)
    const { publicKey } = JSON.parse(res.text)
    expect(Buffer.from(publicKey, 'base64url').length).toBe(65)
    const file = path.join(t.config.dataDir, 'vapid.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await Bun.file(file).text()).publicKey).toBe(publicKey)
    // Signed out: no key.
    const anonymous = await new PanelClient((r) => t.app.handle(r)).get('/admin/push/key')
    expect(anonymous.status).toBe(303)
  })

  test('the same endpoint again updates its row; DELETE forgets only the person’s own device', async () => {
    const { b, subs } = await shopWithDevices(1)
    await b.get('/admin/account')
    const again = await b.postJson('/admin/push/subscriptions', subs[0]!.json)
    expect(again.status).toBe(201)
    expect(again.json.id).toBe(subs[0]!.id)
    expect(count('SELECT count(*) AS n FROM push_subscriptions WHERE id = ?', subs[0]!.id)).toBe(1)
    // The auth secret is sealed at rest.
    const stored = t.deps.db.$client.query('SELECT auth FROM push_subscriptions WHERE id = ?').get(subs[0]!.id) as {
      auth: string
    }
    expect(stored.auth).not.toContain(subs[0]!.json.keys.auth)

    const other = await shopWithDevices(0)
    const token = other.b.formToken()!
    const theirs = await other.b.request('DELETE', `/admin/push/subscriptions/${subs[0]!.id}`, {
      headers: { origin: other.b.origin, 'x-form-token': token },
    })
    expect(theirs.status).toBe(404)
    const noToken = await b.request('DELETE', `/admin/push/subscriptions/${subs[0]!.id}`, {
      headers: { origin: b.origin },
    })
    expect(noToken.status).toBe(403)
    await b.get('/admin/account')
    const mine = await b.request('DELETE', `/admin/push/subscriptions/${subs[0]!.id}`, {
      headers: { origin: b.origin, 'x-form-token': b.formToken()! },
    })
    expect(mine.status).toBe(204)
    expect(count('SELECT count(*) AS n FROM push_subscriptions WHERE id = ?', subs[0]!.id)).toBe(0)
  })

  test(
    'a subscription needs the form token, a usable key pair, and (without PUSH_ALLOW_PRIVATE) a public ' +
      'https endpoint',
    async () => {
      const { b } = await shopWithDevices(0)
      const good = browserSubscription(`${push.url}/push/x`).json
      const token = b.formToken()!
      expect((await b.postJson('/admin/push/subscriptions', good, { token: null })).status).toBe(403)
      const badKey = await b.postJson(
        '/admin/push/subscriptions',
        { ...good, keys: { p256dh: 'abc', auth: good.keys.auth } },
        { token },
      )
      expect(badKey.status).toBe(400)
      expect(badKey.json.error.field).toBe('keys.p256dh')
      const badAuth = await b.postJson(
        '/admin/push/subscriptions',
        { ...good, keys: { ...good.keys, auth: 'AAAA' } },
        { token },
      )
      expect(badAuth.json.error.field).toBe('keys.auth')

      using strict = makeApp({ pushAllowPrivate: false })
      const shop = await makeOwnerShop(strict.deps)
      const s = new PanelClient((r) => strict.app.handle(r), undefined, { 'accept-language': 'es' })
      await signIn(s, shop.email)
      await s.get('/admin/account')
      const strictToken = s.formToken()!
      const loopback = await s.postJson('/admin/push/subscriptions', good, { token: strictToken })
      expect(loopback.status).toBe(400)
      expect(loopback.json.error).toMatchObject({ field: 'endpoint' })
      expect(loopback.json.error.message).toContain('dirección pública segura')
      const plain = await s.postJson(
        '/admin/push/subscriptions',
        { ...good, endpoint: 'http://push.example.com/x' },
        { token: strictToken },
      )
      expect(plain.status).toBe(400)
      expect(strict.deps.db.$client.query('SELECT count(*) AS n FROM push_subscriptions').get()).toEqual({ n: 0 })
    },
  )
})

describe('a new order', () => {
  test('reaches each device of each person of the store once, encrypted for each, with the order’s words', async () => {
    const shop = await shopWithDevices(2)
    const staff = await makeMember(t.deps, shop.store.id, 'staff')
    const sb = new PanelClient((r) => t.app.handle(r))
    await signIn(sb, staff.email)
    await sb.get('/admin/account')
    const staffDevice = await subscribeDevice(sb, `${shop.store.id}-staff`)
    const before = push.received.length
    const [res, order] = await placeOrder(shop.store.id, shop.cat)
    expect(res.status).toBe(201)
    await push.waitForCount(before + 3)
    for (const device of [...shop.subs, staffDevice]) {
      const got = sentTo(device.path)
      expect(got).toHaveLength(1)
      const r = got[0]!
      expect(r.headers.ttl).toBe('86400')
      expect(r.headers.urgency).toBe('high')
      expect(r.headers['content-encoding']).toBe('aes128gcm')
      expectVapid(r.headers.authorization!, push.url)
      expect(decryptPush(r, device)).toEqual({
        title: `New order ${order.orderNumber} · $${order.total.toFixed(2)}`,
        body: 'Ana Souza · 3 items',
        url: `/admin/orders/${order.id}`,
        tag: `order-${order.id}`,
      })
    }
  })

  test('orders are answered while the push service hangs', async () => {
    const shop = await shopWithDevices(1)
    let release!: () => void
    const hanging = new Promise<void>((r) => (release = r))
    let answered = 0
    push.respond = async (r) => {
      if (r.path === shop.subs[0]!.path) await hanging
      answered++
      return new Response(null, { status: 201 })
    }
    try {
      const [first] = await placeOrder(shop.store.id, shop.cat)
      expect(first.status).toBe(201)
      // The first push is now in flight and gets no answer…
      await waitUntil(() => sentTo(shop.subs[0]!.path).length === 1)
      // …and the next order is answered all the same.
      const [second] = await placeOrder(shop.store.id, shop.cat)
      expect(second.status).toBe(201)
      expect(answered).toBe(0)
    } finally {
      release()
      push.respond = () => new Response(null, { status: 201 })
    }
    await waitUntil(() => sentTo(shop.subs[0]!.path).length === 2)
  })

  test('410 Gone forgets the device; nothing is sent to it again', async () => {
    const shop = await shopWithDevices(1)
    const device = shop.subs[0]!
    push.respond = (r) => new Response(null, { status: r.path === device.path ? 410 : 201 })
    try {
      await placeOrder(shop.store.id, shop.cat)
      await waitUntil(() => count('SELECT count(*) AS n FROM push_subscriptions WHERE id = ?', device.id) === 0)
      await placeOrder(shop.store.id, shop.cat)
      await t.deps.pushes.sweep()
      expect(sentTo(device.path)).toHaveLength(1)
    } finally {
      push.respond = () => new Response(null, { status: 201 })
    }
  })

  test('429 with Retry-After: not again before it says, then again once it has passed', async () => {
    const shop = await shopWithDevices(1)
    const device = shop.subs[0]!
    push.respond = (r, n) =>
      r.path === device.path && n === 1
        ? new Response(null, { status: 429, headers: { 'retry-after': '600' } })
        : new Response(null, { status: 201 })
    try {
      await placeOrder(shop.store.id, shop.cat)
      await waitUntil(() => sentTo(device.path).length === 1)
      await waitUntil(
        () =>
          count('SELECT count(*) AS n FROM push_deliveries WHERE subscription_id = ? AND attempts = 1', device.id) ===
          1,
      )
      clock.advance(300_000)
      await t.deps.pushes.sweep()
      expect(sentTo(device.path)).toHaveLength(1)
      clock.advance(301_000)
      await t.deps.pushes.sweep()
      expect(sentTo(device.path)).toHaveLength(2)
      expect(count('SELECT count(*) AS n FROM push_deliveries WHERE subscription_id = ?', device.id)).toBe(0)
    } finally {
      push.respond = () => new Response(null, { status: 201 })
    }
  })

  test('a removed person, a role that may not read orders and a suspended store get nothing', async () => {
    const shop = await shopWithDevices(1)
    const gone = await makeMember(t.deps, shop.store.id, 'staff')
    const gb = new PanelClient((r) => t.app.handle(r))
    await signIn(gb, gone.email)
    await gb.get('/admin/account')
    const goneDevice = await subscribeDevice(gb, `${shop.store.id}-gone`)
    const noOrders = await makeMember(t.deps, shop.store.id, 'viewer')
    const vb = new PanelClient((r) => t.app.handle(r))
    await signIn(vb, noOrders.email)
    await vb.get('/admin/account')
    const viewerDevice = await subscribeDevice(vb, `${shop.store.id}-viewer`)
    // A role without orders: the roles table grants orders to every role today, so the test
    // gives this person a role the table does not know (which grants nothing).
    t.deps.db
      .update(memberships)
      .set({ role: 'auditor' as never })
      .where(and(eq(memberships.userId, noOrders.user.id), eq(memberships.storeId, shop.store.id)))
      .run()
    const membership = t.deps.db
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, gone.user.id), eq(memberships.storeId, shop.store.id)))
      .get()!
    await shop.b.get('/admin/team')
    expect((await shop.b.submit(`/admin/team/${membership.id}/remove`)).status).toBe(303)

    const before = sentTo(shop.subs[0]!.path).length
    await placeOrder(shop.store.id, shop.cat)
    await waitUntil(() => sentTo(shop.subs[0]!.path).length === before + 1)
    await t.deps.pushes.sweep()
    expect(sentTo(goneDevice.path)).toHaveLength(0)
    expect(sentTo(viewerDevice.path)).toHaveLength(0)

    // Queued, then the store is suspended before the send: dropped, not sent.
    push.respond = async () => new Response(null, { status: 201 })
    suspendStore({ ctx: { ...t.deps, actor: 'test' } as never, input: { storeId: shop.store.id, reason: 'manual' } })
    t.deps.db.$client
      .query(
        'INSERT INTO push_outbox (store_id, order_id, created_at) SELECT store_id, id, ? FROM orders ' +
          'WHERE store_id = ? LIMIT 1',
      )
      .run(clock.now(), shop.store.id)
    await t.deps.pushes.sweep()
    expect(sentTo(shop.subs[0]!.path)).toHaveLength(before + 1)
    expect(count('SELECT count(*) AS n FROM push_deliveries WHERE store_id = ?', shop.store.id)).toBe(0)
  })

  test("a store whose people have no device appends no push, whatever another store's devices want", async () => {
    const other = await shopWithDevices(1)
    const bare = await makeOwnerShop(t.deps)
    await makeMember(t.deps, bare.store.id, 'staff')
    const cat = makeCatalog(t.deps, bare.store.id)
    const [res] = await placeOrder(bare.store.id, cat)
    expect(res.status).toBe(201)
    expect(count('SELECT count(*) AS n FROM push_outbox WHERE store_id = ?', bare.store.id)).toBe(0)
    // The other store's device still gets its own store's orders.
    const before = push.received.length
    expect((await placeOrder(other.store.id, other.cat))[0].status).toBe(201)
    await push.waitForCount(before + 1)
    expect(sentTo(other.subs[0]!.path)).toHaveLength(1)
  })

  test('turning new orders off in the preferences stops them; a test notification still comes', async () => {
    const shop = await shopWithDevices(1)
    await shop.b.get('/admin/account')
    expect((await shop.b.submit('/admin/push/preferences', { reviews: '1' })).location).toContain('done=push-prefs')
    const page = await shop.b.get('/admin/account?done=push-prefs')
    expect(page.text).toContain('Saved what you want to be told about.')
    expect(page.text).toMatch(/name="newOrders" value="1">/)
    expect(page.text).toMatch(/name="reviews" value="1" checked>/)
    await placeOrder(shop.store.id, shop.cat)
    expect(count('SELECT count(*) AS n FROM push_outbox WHERE store_id = ?', shop.store.id)).toBe(0)
    await t.deps.pushes.sweep()
    expect(sentTo(shop.subs[0]!.path)).toHaveLength(0)

    expect((await shop.b.submit('/admin/push/test')).location).toContain('done=push-test')
    await waitUntil(() => sentTo(shop.subs[0]!.path).length === 1)
    expect(decryptPush(sentTo(shop.subs[0]!.path)[0]!, shop.subs[0]!)).toMatchObject({
      title: 'Notifications are on',
      url: '/admin/account',
    })
    // The device list shows it, with a "Turn off" that forgets it.
    const account = await shop.b.get('/admin/account')
    expect(account.text).toContain(`data-subscription="${shop.subs[0]!.id}"`)
    const off = await shop.b.submit(`/admin/push/subscriptions/${shop.subs[0]!.id}/delete`)
    expect(off.location).toContain('done=push-off')
    expect(count('SELECT count(*) AS n FROM push_subscriptions WHERE id = ?', shop.subs[0]!.id)).toBe(0)
  })
})

/**
 * `vapid t=<JWT>, k=<key>`: signed (ES256) with the key the browser
 * subscribed with, for this push service, for at most a day.
 */
function expectVapid(header: string, audience: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header)
  expect(m).not.toBeNull()
  const [jwt, key] = [m![1]!, m![2]!]
  expect(key).toBe(t.deps.pushes.vapid.publicKey)
  const [head, body, sig] = jwt.split('.') as [string, string, string]
  const raw = Buffer.from(key, 'base64url')
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  })
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(sig, 'base64url'),
  )
  expect(signed).toBe(true)
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as { aud: string; exp: number; sub: string }
  expect(claims.aud).toBe(audience)
  expect(claims.exp * 1000 - Date.now()).toBeLessThanOrEqual(86_400_000)
  expect(claims.sub).toStartWith('mailto:')
}

async function waitUntil(cond: () => boolean) {
  const { waitFor } = await import('../helpers/wait')
  await waitFor('the push queue', cond)
}
