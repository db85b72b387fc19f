/** Webhook endpoints: CRUD, the secret shown once, rotation, validation, SSRF refusals, secrets at rest. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { Webhook } from 'standardwebhooks'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { startReceiver, verify, type Receiver } from '../helpers/webhook-receiver'
import { immediate } from '../../src/db/client'
import { enqueueEvent } from '../../src/modules/webhooks/outbox'
import { sweepDeliveries } from '../../src/jobs/webhooks'
import { fixedClock } from '../../src/lib/time'

const PUBLIC_URL = 'https://93.184.216.34/hooks/orders'

describe('webhook endpoints (SSRF guard on)', () => {
  let t: TestApp
  beforeAll(() => {
    t = makeApp()
  })
  afterAll(() => t.close())

  test('create → 201 with a whsec_ secret shown only there; list, get, update, delete', async () => {
    const { key } = makeShop(t.deps)
    const [res, body] = await t.api.post(
      '/api/v1/webhooks',
      { url: PUBLIC_URL, events: ['order.created', 'review.created'] },
      { key },
    )
    expectStatus(res, body).toBe(201)
    const hook = body.data
    expect(hook).toMatchObject({
      url: PUBLIC_URL,
      events: ['order.created', 'review.created'],
      isActive: true,
      disabledReason: null,
    })
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32,44}={0,2}$/)
    const raw = Buffer.from(hook.secret.slice(6), 'base64')
    expect(raw.length).toBeGreaterThanOrEqual(24)
    expect(raw.length).toBeLessThanOrEqual(32)
    expect(Object.keys(hook).sort()).toEqual([
      'createdAt',
      'disabledReason',
      'events',
      'id',
      'isActive',
      'secret',
      'updatedAt',
      'url',
    ])

    const [lr, list] = await t.api.get('/api/v1/webhooks', { key })
    expectStatus(lr, list).toBe(200)
    expect(list).toMatchObject({ total: 1, limit: 50, offset: 0 })
    expect(list.data[0].id).toBe(hook.id)
    expect(JSON.stringify(list)).not.toContain(hook.secret.slice(6))
    expect(list.data[0].secret).toBeUndefined()

    const [gr, got] = await t.api.get(`/api/v1/webhooks/${hook.id}`, { key })
    expectStatus(gr, got).toBe(200)
    expect(got.data.secret).toBeUndefined()

    const [ur, upd] = await t.api.put(
      `/api/v1/webhooks/${hook.id}`,
      { events: ['order.updated'], isActive: false },
      { key },
    )
    expectStatus(ur, upd).toBe(200)
    expect(upd.data).toMatchObject({ id: hook.id, url: PUBLIC_URL, events: ['order.updated'], isActive: false })
    expect(upd.data.secret).toBeUndefined()

    const [dr, del] = await t.api.delete(`/api/v1/webhooks/${hook.id}`, { key })
    expectStatus(dr, del).toBe(200)
    expect(del).toEqual({ data: { id: hook.id, deleted: true } })
    const [gone] = await t.api.get(`/api/v1/webhooks/${hook.id}`, { key })
    expect(gone.status).toBe(404)
  })

  test("another store's webhook → 403, a missing one → 404", async () => {
    const a = makeShop(t.deps)
    const b = makeShop(t.deps)
    const [, created] = await t.api.post(
      '/api/v1/webhooks',
      { url: PUBLIC_URL, events: ['order.created'] },
      { key: a.key },
    )
    for (const [method, p] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
    ] as const) {
      const [res, body] = await t.api.call(
        method,
        `/api/v1/webhooks/${created.data.id}${p}`,
        method === 'PUT' ? { isActive: false } : undefined,
        { key: b.key },
      )
      expectStatus(res, body).toBe(403)
      const [res404, body404] = await t.api.call(
        method,
        `/api/v1/webhooks/nosuchwebhook${p}`,
        method === 'PUT' ? { isActive: false } : undefined,
        { key: a.key },
      )
      expectStatus(res404, body404).toBe(404)
    }
    const [rr, rb] = await t.api.post(`/api/v1/webhooks/${created.data.id}/deliveries/msg_nosuch/retry`, undefined, {
      key: a.key,
    })
    expectStatus(rr, rb).toBe(404)
  })

  test('validation: events non-empty, known, unique; url well-formed http(s)', async () => {
    const { key } = makeShop(t.deps)
    const cases: [unknown, string, string][] = [
      [{ url: PUBLIC_URL, events: [] }, 'events', 'out_of_range'],
      [{ url: PUBLIC_URL }, 'events', 'required'],
      [{ url: PUBLIC_URL, events: ['order.deleted'] }, 'events[0]', 'invalid_format'],
      [{ url: PUBLIC_URL, events: ['order.created', 'order.created'] }, 'events[1]', 'duplicate'],
      [{ events: ['order.created'] }, 'url', 'required'],
      [{ url: 'not a url', events: ['order.created'] }, 'url', 'invalid_format'],
      [{ url: 'ftp://93.184.216.34/x', events: ['order.created'] }, 'url', 'invalid_format'],
      [{ url: 'https://user:pw@93.184.216.34/x', events: ['order.created'] }, 'url', 'invalid_format'],
      [{ url: 'https://does-not-exist.invalid/hook', events: ['order.created'] }, 'url', 'not_found'],
    ]
    for (const [body, field, reason] of cases) {
      const [res, out] = await t.api.post('/api/v1/webhooks', body, { key })
      expectStatus(res, out).toBe(400)
      expect(out).toMatchObject({ code: 'VALIDATION_ERROR', details: { field, reason } })
    }
    const [, list] = await t.api.get('/api/v1/webhooks', { key })
    expect(list.total).toBe(0)
  })

  test('private and loopback URLs are refused at registration and on update, in every spelling', async () => {
    const { key } = makeShop(t.deps)
    const refused = [
      'http://127.0.0.1/hook',
      'http://localhost:8080/hook',
      'http://LOCALHOST./hook',
      'http://foo.localhost/hook',
      'http://intranet/hook',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://127.1/',
      'http://017700000001/',
      'http://0/',
      'http://0.0.0.0/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://172.31.255.255/',
      'http://192.168.1.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[64:ff9b::a00:1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[ff02::1]/',
    ]
    for (const url of refused) {
      const [res, body] = await t.api.post('/api/v1/webhooks', { url, events: ['order.created'] }, { key })
      if (res.status !== 400) throw new Error(`${url} was accepted: ${JSON.stringify(body)}`)
      expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url', reason: 'private_address' } })
    }
    const [ok, created] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'https://[2606:4700:4700::1111]/hook', events: ['order.created'] },
      { key },
    )
    expectStatus(ok, created).toBe(201)
    const [ur, ub] = await t.api.put(`/api/v1/webhooks/${created.data.id}`, { url: 'http://127.0.0.1:9/' }, { key })
    expectStatus(ur, ub).toBe(400)
    expect(ub.details).toEqual({ field: 'url', reason: 'private_address' })
  })

  test('secrets are encrypted at rest: no plaintext secret in the database files', async () => {
    const { key } = makeShop(t.deps)
    const secrets: string[] = []
    for (let i = 0; i < 3; i++) {
      const [, body] = await t.api.post('/api/v1/webhooks', { url: PUBLIC_URL, events: ['order.created'] }, { key })
      secrets.push(body.data.secret)
      const [, rotated] = await t.api.post(`/api/v1/webhooks/${body.data.id}/rotate-secret`, undefined, { key })
      secrets.push(rotated.data.secret)
    }
    t.deps.db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    const files = readdirSync(t.config.dataDir).filter((f) => f.startsWith('storefront.db'))
    const bytes = Buffer.concat(files.map((f) => readFileSync(path.join(t.config.dataDir, f))))
    expect(bytes.length).toBeGreaterThan(0)
    for (const s of secrets) {
      expect(bytes.includes(Buffer.from(s))).toBe(false)
      expect(bytes.includes(Buffer.from(s.slice(6)))).toBe(false) // the base64 key itself
      expect(bytes.includes(Buffer.from(s.slice(6), 'base64'))).toBe(false) // or its raw bytes
    }
    const stored = t.deps.db.$client.query<{ secret: string }, []>('SELECT secret FROM webhooks').all()
    expect(stored.every((r) => r.secret.startsWith('v1.'))).toBe(true)
    // The generated key file is private to the service's user.
    expect(statSync(path.join(t.config.dataDir, 'secret.key')).mode & 0o777).toBe(0o600)
  })
})

describe('rotation and re-activation (loopback receiver)', () => {
  let t: TestApp
  let rx: Receiver
  // Near real time: the standardwebhooks verifier accepts timestamps within 5 minutes of now.
  const clock = fixedClock(Date.now() - 30_000)
  beforeAll(() => {
    t = makeApp({ webhookAllowPrivate: true, webhookSecretOverlapSec: 60 }, { clock })
    rx = startReceiver()
  })
  afterAll(() => {
    rx.stop()
    t.close()
  })

  test('after rotation both the old and the new secret verify, until the overlap ends', async () => {
    const { store, key } = makeShop(t.deps)
    const [, created] = await t.api.post('/api/v1/webhooks', { url: rx.url, events: ['order.created'] }, { key })
    const oldSecret = created.data.secret
    const [rr, rotated] = await t.api.post(`/api/v1/webhooks/${created.data.id}/rotate-secret`, undefined, { key })
    expectStatus(rr, rotated).toBe(200)
    const newSecret = rotated.data.secret
    expect(newSecret).not.toBe(oldSecret)
    expect(newSecret).toMatch(/^whsec_/)
    expect(rotated.data).toMatchObject({ id: created.data.id, url: rx.url, isActive: true })

    immediate(t.deps.db, () => enqueueEvent(t.deps.db.$client, store.id, 'order.created', { id: 'o1' }, clock.now()))
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(1)
    const first = rx.received[0]!
    const sigs = first.signature.split(' ')
    expect(sigs).toHaveLength(2)
    expect(sigs.every((s) => s.startsWith('v1,'))).toBe(true)
    expect(verify(oldSecret, first)).toMatchObject({ type: 'order.created', data: { id: 'o1' } })
    expect(verify(newSecret, first)).toMatchObject({ type: 'order.created' })
    // Each signature alone is made with exactly one of the two secrets: the new one first.
    const headers = (sig: string) => ({
      'webhook-id': first.id,
      'webhook-timestamp': first.timestamp,
      'webhook-signature': sig,
    })
    expect(new Webhook(newSecret).verify(first.body, headers(sigs[0]!))).toBeTruthy()
    expect(() => new Webhook(newSecret).verify(first.body, headers(sigs[1]!))).toThrow()
    expect(new Webhook(oldSecret).verify(first.body, headers(sigs[1]!))).toBeTruthy()
    expect(() => new Webhook(oldSecret).verify(first.body, headers(sigs[0]!))).toThrow()

    // After the overlap only the new secret signs.
    clock.advance(61_000)
    immediate(t.deps.db, () => enqueueEvent(t.deps.db.$client, store.id, 'order.created', { id: 'o2' }, clock.now()))
    rx.received.length = 0
    await sweepDeliveries(t.deps)
    const second = rx.received[0]!
    expect(second.signature.split(' ')).toHaveLength(1)
    expect(verify(newSecret, second)).toMatchObject({ data: { id: 'o2' } })
    expect(() => verify(oldSecret, second)).toThrow()
  })

  test('re-activating an endpoint the service disabled clears disabledReason', async () => {
    const { key } = makeShop(t.deps)
    const [, created] = await t.api.post('/api/v1/webhooks', { url: rx.url, events: ['order.created'] }, { key })
    t.deps.db.$client.run(
      "UPDATE webhooks SET is_active = 0, disabled_reason = 'Endpoint answered 410 Gone', " +
        'failing_since = 1 WHERE id = ?',
      [created.data.id],
    )
    const [, before] = await t.api.get(`/api/v1/webhooks/${created.data.id}`, { key })
    expect(before.data).toMatchObject({ isActive: false, disabledReason: 'Endpoint answered 410 Gone' })
    const [res, body] = await t.api.put(`/api/v1/webhooks/${created.data.id}`, { isActive: true }, { key })
    expectStatus(res, body).toBe(200)
    expect(body.data).toMatchObject({ isActive: true, disabledReason: null })
    const row = t.deps.db.$client
      .query<{ failing_since: number | null }, [string]>('SELECT failing_since FROM webhooks WHERE id = ?')
      .get(created.data.id)
    expect(row!.failing_since).toBeNull()
  })
})
