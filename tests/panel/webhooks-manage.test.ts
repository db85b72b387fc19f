/**
 * Managing a webhook in the panel over HTTP: edit the URL and events (the API's URL
 * rules at the field), rotate the secret (the new one shown once; the old one still signs during
 * the overlap), "Send test event" (a `webhook.test` event to that endpoint only, through the
 * outbox and the signed delivery path, in its log), a failing delivery in the log and "Retry";
 * staff and viewers refused on every owner form, posted by hand.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, type TestApp } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, PanelClient, signedInOwner, signIn } from '../helpers/panel'
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver'

let t: TestApp
let strict: TestApp
const receivers: Receiver[] = []
beforeAll(() => {
  t = makeApp({ webhookAllowPrivate: true })
  strict = makeApp()
})
afterEach(() => {
  for (const r of receivers.splice(0)) r.stop()
})
afterAll(() => {
  t.close()
  strict.close()
})

async function owner(app = t) {
  const o = await signedInOwner(app)
  return { ...o, key: makeKey(app.deps, o.store.id) }
}
/** A form post from a freshly read page (its form token), as a person (or a hand-made form) sends it. */
const send = (b: PanelClient, path: string, fields: Record<string, string> = {}, from = '/admin') =>
  b.submitFrom(from, path, fields)
const secretOf = (text: string) => /<code id="webhook-secret" class="secret">(whsec_[^<]+)<\/code>/.exec(text)?.[1]
const receiver = () => {
  const r = startReceiver()
  receivers.push(r)
  return r
}
/** The endpoint's newest delivery once its result is written (the receiver sees the request a moment before). */
async function newestDelivery(o: { key: string }, hookId: string, until: (d: Record<string, any>) => boolean) {
  for (let i = 0; i < 400; i++) {
    const [, list] = await t.api.get(`/api/v1/webhooks/${hookId}/deliveries`, { key: o.key })
    if (list.data[0] && until(list.data[0])) return list.data[0] as Record<string, any>
    await Bun.sleep(5)
  }
  throw new Error('the delivery was not recorded in time')
}
/** Adds an endpoint from the panel; its id and the secret shown once. */
async function addHook(
  o: Awaited<ReturnType<typeof owner>>,
  url: string,
  events: Record<string, string> = { 'event-order-created': '1' },
  app = t,
) {
  const posted = await send(o.b, '/admin/webhooks', { url, ...events }, '/admin/webhooks')
  expect(posted.status).toBe(303)
  const res = await o.b.get(posted.location!)
  expect(res.status).toBe(200)
  const [, list] = await app.api.get('/api/v1/webhooks', { key: o.key })
  return { id: list.data.find((h: { url: string }) => h.url === url).id as string, secret: secretOf(res.text)! }
}

describe('webhooks: edit, rotate, test event, retry', () => {
  test('edit the URL and events: the API sees them; a private or plain-http URL is refused at the field', async () => {
    const made = await owner()
    const hook = await addHook(made, 'https://127.0.0.1:9/a')
    const page = await made.b.get(`/admin/webhooks/${hook.id}/edit`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('value="https://127.0.0.1:9/a"')
    const saved = await made.b.submit(`/admin/webhooks/${hook.id}/edit`, {
      url: 'https://127.0.0.1:9/b',
      'event-order-updated': '1',
      'event-review-created': '1',
    })
    expect(saved.location).toBe(`/admin/webhooks/${hook.id}/edit?done=saved`)
    expect((await t.api.get(`/api/v1/webhooks/${hook.id}`, { key: made.key }))[1].data).toMatchObject({
      url: 'https://127.0.0.1:9/b',
      events: ['order.updated', 'review.created'],
    })
    await made.b.get(`/admin/webhooks/${hook.id}/edit`)
    const none = await made.b.submit(`/admin/webhooks/${hook.id}/edit`, { url: 'https://127.0.0.1:9/b' })
    expect(none.status).toBe(400)
    expect(none.text).toContain('id="events-error"')

    // On a server without WEBHOOK_ALLOW_PRIVATE, editing to a private address is refused at the field.
    // (Its endpoint is written directly: registering a public URL would need DNS.)
    const o = await owner(strict)
    const id = `w${'x'.repeat(23)}`
    strict.deps.db.$client
      .query(
        'INSERT INTO webhooks (id, store_id, url, events, is_active, secret, created_at, updated_at) ' +
          'VALUES (?, ?, ?, ?, 1, ?, 0, 0)',
      )
      .run(id, o.store.id, 'https://example.com/hook', '["order.created"]', 'sealed')
    await o.b.get(`/admin/webhooks/${id}/edit`)
    const priv = await o.b.submit(`/admin/webhooks/${id}/edit`, {
      url: 'https://10.0.0.1/hook',
      'event-order-created': '1',
    })
    expect(priv.status).toBe(400)
    expect(priv.text).toContain('id="url-error"')
    expect(priv.text).toContain('This address points to a private network')
    await o.b.get(`/admin/webhooks/${id}/edit`)
    const http = await o.b.submit(`/admin/webhooks/${id}/edit`, {
      url: 'http://example.com/hook',
      'event-order-created': '1',
    })
    expect(http.status).toBe(400)
    expect(http.text).toContain('id="url-error"')
    expect(
      strict.deps.db.$client.query<{ url: string }, [string]>('SELECT url FROM webhooks WHERE id = ?').get(id)!.url,
    ).toBe('https://example.com/hook')
  })

  test(
    '"Send test event" reaches only that endpoint, signed, and shows in its log; ' +
      'rotating signs with both secrets during the overlap',
    async () => {
      const o = await owner()
      const rx = receiver()
      const other = receiver()
      // Subscribed to order.updated only: the test event goes to it anyway.
      const hook = await addHook(o, rx.url, { 'event-order-updated': '1' })
      await addHook(o, other.url)
      const log = await o.b.get(`/admin/webhooks/${hook.id}`)
      expect(log.text).toContain('Send test event')
      const sent = await o.b.submit(`/admin/webhooks/${hook.id}/test`)
      expect(sent.location).toBe(`/admin/webhooks/${hook.id}?done=test`)
      await rx.waitFor(() => rx.received.length === 1)
      const payload = verify(hook.secret, rx.received[0]!) as Record<string, any>
      expect(payload).toMatchObject({
        type: 'webhook.test',
        event: 'webhook.test',
        storeId: o.store.id,
        data: { webhookId: hook.id, url: rx.url },
      })
      expect(await newestDelivery(o, hook.id, (d) => d.status !== 'sending')).toMatchObject({
        id: rx.received[0]!.id,
        eventType: 'webhook.test',
        status: 'succeeded',
        lastResponseCode: 204,
      })
      const shown = await o.b.get(sent.location!)
      expect(shown.text).toContain('A test event is on its way.')
      expect(shown.text).toContain('webhook.test')
      expect(other.received).toHaveLength(0)

      // Rotate: a new secret, shown once; both sign until the overlap ends.
      await o.b.get(`/admin/webhooks/${hook.id}/edit`)
      const rotation = await o.b.submit(`/admin/webhooks/${hook.id}/rotate`)
      expect(rotation.status).toBe(303)
      expect(rotation.text).not.toContain('whsec_')
      const rotated = await o.b.get(rotation.location!)
      expect(rotated.status).toBe(200)
      expect(rotated.text).toContain('Your new signing secret')
      expect(rotated.text).toContain('24 hours')
      const fresh = secretOf(rotated.text)!
      expect(fresh).toBeDefined()
      expect(fresh).not.toBe(hook.secret)
      expect((await o.b.get(`/admin/webhooks/${hook.id}/edit`)).text).not.toContain(fresh)
      // Reloading the secret's page neither shows it again nor rotates again.
      const reload = await o.b.get(rotation.location!)
      expect(reload.text).not.toContain(fresh)
      expect(reload.text).toContain('This secret was shown once')
      expect((await o.b.get(`/admin/webhooks/${hook.id}/edit`)).status).toBe(200)
      await o.b.submit(`/admin/webhooks/${hook.id}/test`)
      await rx.waitFor(() => rx.received.length === 2)
      const second = rx.received[1]!
      expect(second.signature.split(' ')).toHaveLength(2)
      expect(verify(fresh, second)).toMatchObject({ type: 'webhook.test' })
      expect(verify(hook.secret, second)).toMatchObject({ type: 'webhook.test' })
      expect(second.id).not.toBe(rx.received[0]!.id)
    },
  )

  test('a failing delivery shows in the log with its response; Retry sends it again and it succeeds', async () => {
    const o = await owner()
    const rx = receiver()
    rx.respond = () => new Response('down for maintenance', { status: 500 })
    const hook = await addHook(o, rx.url)
    await send(o.b, `/admin/webhooks/${hook.id}/test`, {}, `/admin/webhooks/${hook.id}`)
    await rx.waitFor(() => rx.received.length === 1)
    const deliveryId = rx.received[0]!.id
    await newestDelivery(o, hook.id, (d) => d.lastResponseCode === 500)
    const log = await o.b.get(`/admin/webhooks/${hook.id}`)
    expect(log.text).toContain('HTTP 500: down for maintenance')
    expect(log.text).toContain('<dd>500')
    // One attempt so far, and the schedule's next one is shown with its time; without the script, a Refresh link.
    expect(log.text).toContain('<dt>Attempts</dt><dd>1</dd>')
    expect(log.text).toMatch(/<dt>Next attempt<\/dt><dd><time datetime="[^"]+">/)
    expect(log.text).toContain(`<a href="/admin/webhooks/${hook.id}" data-refresh-link>Refresh the log</a>`)
    rx.respond = () => new Response(null, { status: 204 })
    const retried = await o.b.submit(`/admin/webhooks/${hook.id}/deliveries/${deliveryId}/retry`)
    expect(retried.location).toBe(`/admin/webhooks/${hook.id}?done=retried`)
    await rx.waitFor(() => rx.received.length === 2)
    expect(rx.received[1]!.id).toBe(deliveryId)
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body)
    expect(await newestDelivery(o, hook.id, (d) => d.status === 'succeeded')).toMatchObject({
      id: deliveryId,
      lastResponseCode: 204,
    })
    const after = (await o.b.get(`/admin/webhooks/${hook.id}`)).text
    expect(after).toContain('Delivered')
    // The manual retry's attempt is the second, not a new first one; nothing is scheduled any more.
    expect(after).toContain('<dt>Attempts</dt><dd>2</dd>')
    expect(after).not.toContain('Next attempt')
    // The rows alone, as the page's script fetches them to stay current.
    const fragment = await o.b.request('GET', `/admin/webhooks/${hook.id}/log`, {
      headers: { accept: 'application/json' },
    })
    expect(fragment.status).toBe(200)
    const { html } = JSON.parse(fragment.text) as { html: string }
    expect(html).toContain('<li data-status="succeeded">')
    expect(html).toContain('<dt>Attempts</dt><dd>2</dd>')
    // Another store's owner gets no rows.
    const stranger = await owner()
    expect((await stranger.b.request('GET', `/admin/webhooks/${hook.id}/log`)).status).toBe(403)
  })
})

describe('owner forms posted by hand', () => {
  test('staff and viewers get 403 on team, API keys, webhooks and settings forms; nothing changes', async () => {
    const o = await owner()
    const hook = await addHook(o, 'https://127.0.0.1:9/hook')
    const ownerMembership = t.deps.db.$client
      .query<{ id: string }, [string]>('SELECT id FROM memberships WHERE user_id = ?')
      .get(o.user.id)!.id
    const forms: [string, Record<string, string>][] = [
      ['/admin/team/invite', { email: 'new@example.com', role: 'owner' }],
      [`/admin/team/${ownerMembership}/role`, { role: 'viewer' }],
      [`/admin/team/${ownerMembership}/remove`, {}],
      ['/admin/keys', { name: 'x', 'scope-products-read': '1' }],
      ['/admin/webhooks', { url: 'https://127.0.0.1:9/x', 'event-order-created': '1' }],
      [`/admin/webhooks/${hook.id}/edit`, { url: 'https://127.0.0.1:9/y', 'event-order-created': '1' }],
      [`/admin/webhooks/${hook.id}/rotate`, {}],
      [`/admin/webhooks/${hook.id}/test`, {}],
      [`/admin/webhooks/${hook.id}/active`, { isActive: '0' }],
      [`/admin/webhooks/${hook.id}/delete`, {}],
      ['/admin/settings', { name: 'Taken over' }],
    ]
    for (const role of ['staff', 'viewer'] as const) {
      const m = await makeMember(t.deps, o.store.id, role)
      const b = new PanelClient((r) => t.app.handle(r))
      await signIn(b, m.email)
      for (const [path, fields] of forms)
        expect({ role, path, status: (await send(b, path, fields)).status }).toEqual({ role, path, status: 403 })
      for (const path of ['/admin/team', '/admin/keys', '/admin/webhooks', `/admin/webhooks/${hook.id}/edit`])
        expect({ role, path, status: (await b.get(path)).status }).toEqual({ role, path, status: 403 })
    }
    const [, h] = await t.api.get(`/api/v1/webhooks/${hook.id}`, { key: o.key })
    expect(h.data).toMatchObject({ url: 'https://127.0.0.1:9/hook', isActive: true })
    expect(
      t.deps.db.$client
        .query<{ role: string }, [string]>('SELECT role FROM memberships WHERE id = ?')
        .get(ownerMembership)!.role,
    ).toBe('owner')
    expect(
      t.deps.db.$client
        .query<{ n: number }, [string]>('SELECT count(*) AS n FROM webhook_outbox WHERE store_id = ?')
        .get(o.store.id)!.n +
        t.deps.db.$client
          .query<{ n: number }, [string]>('SELECT count(*) AS n FROM webhook_deliveries WHERE store_id = ?')
          .get(o.store.id)!.n,
    ).toBe(0)
    expect(
      t.deps.db.$client.query<{ name: string }, [string]>('SELECT name FROM stores WHERE id = ?').get(o.store.id)!.name,
    ).not.toBe('Taken over')
  })
})
