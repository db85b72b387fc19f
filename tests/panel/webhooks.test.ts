/**
 * Webhooks in the panel over HTTP: add (the secret shown once), the API's URL rules at
 * the field (plain http, a private address), disable and enable, the delivery log with "Retry",
 * delete after confirming; staff and viewers refused by hand; another store's endpoint refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { makeApp, type TestApp } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { webhookDeliveries, webhooks } from '../../src/db/schema'

let t: TestApp
let strict: TestApp
beforeAll(() => {
  t = makeApp({ webhookAllowPrivate: true })
  strict = makeApp()
})
afterAll(() => {
  t.close()
  strict.close()
})

async function owner(app = t) {
  const shop = await makeOwnerShop(app.deps)
  const b = new PanelClient((r) => app.app.handle(r))
  await signIn(b, shop.email)
  return { ...shop, b, key: makeKey(app.deps, shop.store.id) }
}

const events = { 'event-order-created': '1', 'event-order-updated': '1' }

describe('webhooks', () => {
  test('add → the secret once → listed; disable, enable; the API sees each change; delete on confirm', async () => {
    const { b, key } = await owner()
    expect((await b.get('/admin/webhooks')).status).toBe(200)
    // POST → 303 → the page that shows the secret; the POST's own answer and the address carry no secret.
    const posted = await b.submit('/admin/webhooks', { url: 'https://127.0.0.1:9/hook', ...events })
    expect(posted.status).toBe(303)
    expect(posted.text).not.toContain('whsec_')
    expect(posted.location).toMatch(/^\/admin\/webhooks\/[^/]+\/secret\?shown=[\w-]+$/)
    const res = await b.get(posted.location!)
    expect(res.status).toBe(200)
    const secret = /<code id="webhook-secret" class="secret">(whsec_[^<]+)<\/code>/.exec(res.text)?.[1]
    expect(secret).toBeDefined()
    // A reload shows it no more, and adds nothing.
    const again = await b.get(posted.location!)
    expect(again.status).toBe(200)
    expect(again.text).not.toContain(secret!)
    expect(again.text).toContain('This secret was shown once')
    const [, list] = await t.api.get('/api/v1/webhooks', { key })
    expect(list.data).toHaveLength(1)
    const hook = list.data[0]
    expect(hook.events).toEqual(['order.created', 'order.updated'])
    const page = await b.get('/admin/webhooks')
    expect(page.text).toContain('https://127.0.0.1:9/hook')
    expect(page.text).not.toContain(secret!)
    expect((await b.submit(`/admin/webhooks/${hook.id}/active`, { isActive: '0' })).status).toBe(303)
    expect((await t.api.get(`/api/v1/webhooks/${hook.id}`, { key }))[1].data.isActive).toBe(false)
    await b.get('/admin/webhooks')
    expect((await b.submit(`/admin/webhooks/${hook.id}/active`, { isActive: '1' })).status).toBe(303)
    expect((await t.api.get(`/api/v1/webhooks/${hook.id}`, { key }))[1].data.isActive).toBe(true)
    expect((await b.get(`/admin/webhooks/${hook.id}/delete`)).text).toContain('Yes, delete')
    expect((await b.submit(`/admin/webhooks/${hook.id}/delete`)).status).toBe(303)
    expect((await t.api.get(`/api/v1/webhooks/${hook.id}`, { key }))[0].status).toBe(404)
  })

  test("the URL rules are the API's, at the field: plain http, a private address; no event picked", async () => {
    const { b } = await owner(strict)
    await b.get('/admin/webhooks')
    const http = await b.submit('/admin/webhooks', { url: 'http://example.com/hook', ...events })
    expect(http.status).toBe(400)
    expect(http.text).toContain('id="url-error"')
    const priv = await b.submit('/admin/webhooks', { url: 'https://10.0.0.1/hook', ...events })
    expect(priv.status).toBe(400)
    expect(priv.text).toContain('This address points to a private network')
    const none = await b.submit('/admin/webhooks', { url: 'https://10.0.0.1/hook' })
    expect(none.status).toBe(400)
    expect(none.text).toContain('id="events-error"')
    expect(strict.deps.db.select().from(webhooks).all()).toHaveLength(0)
  })

  test('the delivery log shows each attempt; Retry sends it again (pending, attempts 0)', async () => {
    const { b, store, key } = await owner()
    await b.get('/admin/webhooks')
    await b.submit('/admin/webhooks', { url: 'https://127.0.0.1:9/hook', ...events })
    const [, list] = await t.api.get('/api/v1/webhooks', { key })
    const hookId = list.data[0].id
    // The endpoint is disabled so the dispatcher leaves the row alone while the test reads it.
    await b.get('/admin/webhooks')
    await b.submit(`/admin/webhooks/${hookId}/active`, { isActive: '0' })
    const now = Date.now()
    t.deps.db
      .insert(webhookDeliveries)
      .values({
        id: 'msg_test_1',
        webhookId: hookId,
        storeId: store.id,
        eventType: 'order.created',
        payload: '{}',
        status: 'failed',
        attempts: 5,
        lastResponseCode: 500,
        lastLatencyMs: 12,
        lastError: 'HTTP 500',
        createdAt: now,
        updatedAt: now,
      })
      .run()
    const log = await b.get(`/admin/webhooks/${hookId}`)
    expect(log.status).toBe(200)
    expect(log.text).toContain('Failed')
    expect(log.text).toContain('HTTP 500')
    expect(log.text).toContain('Retry delivery msg_test_1')
    const retried = await b.submit(`/admin/webhooks/${hookId}/deliveries/msg_test_1/retry`)
    expect(retried.status).toBe(303)
    const row = t.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, 'msg_test_1')).get()!
    expect(row).toMatchObject({ status: 'pending', attempts: 0 })
    expect((await b.get(retried.location!)).text).toContain('The delivery will be sent again now.')
  })

  test("staff and viewers get 403 on the page and on hand-made posts; another store's endpoint is 403", async () => {
    const a = await owner()
    const other = await owner()
    await other.b.get('/admin/webhooks')
    await other.b.submit('/admin/webhooks', { url: 'https://127.0.0.1:9/theirs', ...events })
    const theirs = t.deps.db.select().from(webhooks).where(eq(webhooks.storeId, other.store.id)).get()!
    for (const role of ['staff', 'viewer'] as const) {
      const m = await makeMember(t.deps, a.store.id, role)
      const b = new PanelClient((r) => t.app.handle(r))
      await signIn(b, m.email)
      expect((await b.get('/admin/webhooks')).status).toBe(403)
      expect((await b.submit('/admin/webhooks', { url: 'https://127.0.0.1:9/x', ...events })).status).toBe(403)
    }
    await a.b.get('/admin/webhooks')
    expect((await a.b.get(`/admin/webhooks/${theirs.id}`)).status).toBe(403)
    expect((await a.b.submit(`/admin/webhooks/${theirs.id}/delete`)).status).toBe(403)
    expect((await a.b.submit(`/admin/webhooks/${theirs.id}/active`, { isActive: '0' })).status).toBe(403)
    expect(t.deps.db.select().from(webhooks).where(eq(webhooks.id, theirs.id)).get()!.isActive).toBe(true)
    expect(t.deps.db.select().from(webhooks).where(eq(webhooks.storeId, a.store.id)).all()).toHaveLength(0)
  })
})
