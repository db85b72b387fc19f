/**
 * Webhooks that can't be turned against the host: sends connect to the address the SSRF check
 * passed (DNS rebinding), one store's hanging endpoints don't hold back another store's
 * deliveries, listing deliveries never writes, https only, the per-store endpoint cap,
 * `storeId` in payloads, readable `lastError`s.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { waitFor } from '../helpers/wait'
import { makeApp, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { startReceiver, verify } from '../helpers/webhook-receiver'
import { startTlsReceiver } from '../helpers/tls-receiver'
import { immediate } from '../../src/db/client'
import { enqueueEvent } from '../../src/modules/webhooks/outbox'
import { Dispatcher } from '../../src/modules/webhooks/dispatcher'
import { sweepDeliveries } from '../../src/jobs/webhooks'
import { createLogger } from '../../src/lib/log'
import { fixedClock } from '../../src/lib/time'

let cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.reverse()) f()
  cleanup = []
})

async function tlsReceiver(name: string) {
  const rx = await startTlsReceiver(name)
  cleanup.push(() => rx.stop())
  return rx
}

/** An app with a store and one endpoint at `url` (registered with the guard off, as a test receiver needs). */
async function withEndpoint(url: string, schedule = [0]) {
  const clock = fixedClock(Date.now())
  const t = makeApp({ webhookAllowPrivate: true, webhookRetrySchedule: schedule }, { clock })
  cleanup.push(() => t.close())
  const { store, key } = makeShop(t.deps)
  const [res, body] = await t.api.post('/api/v1/webhooks', { url, events: ['order.created'] }, { key })
  expectStatus(res, body).toBe(201)
  const emit = (data: unknown) =>
    immediate(t.deps.db, () => enqueueEvent(t.deps.db.$client, store.id, 'order.created', data, clock.now()))
  const row = (id: string) =>
    t.deps.db.$client
      .query<{ status: string; attempts: number; lastError: string | null }, [string]>(
        'SELECT status, attempts, last_error AS lastError FROM webhook_deliveries WHERE id = ?',
      )
      .get(id)!
  return { t, clock, store, key, hook: body.data as { id: string; secret: string }, emit, row }
}

describe('sends connect to the address that passed the check', () => {
  test(
    'https by name: the connection goes to the resolved IP, with the original Host and SNI; ' +
      'the payload names the store',
    async () => {
      const rx = await tlsReceiver('hooks.example.test')
      const { t, clock, store, hook, emit } = await withEndpoint(`https://hooks.example.test:${rx.port}/hook`)
      const asked: string[] = []
      const d = new Dispatcher({
        ...t.deps,
        clock,
        log: createLogger('silent'),
        ca: rx.ca,
        lookup: async (host) => (asked.push(host), ['127.0.0.1']),
      })
      cleanup.push(() => d.close())
      emit({ id: 'o1' })
      await d.sweep()
      expect(asked).toEqual(['hooks.example.test']) // one resolution per attempt, and fetch made none
      expect(rx.hits).toHaveLength(1)
      expect(rx.hits[0]!.host).toBe(`hooks.example.test:${rx.port}`)
      const r = rx.hits[0]!
      const payload = verify(hook.secret, {
        id: r.headers['webhook-id']!,
        timestamp: r.headers['webhook-timestamp']!,
        signature: r.headers['webhook-signature']!,
        body: r.body,
        headers: r.headers,
        at: 0,
      })
      expect(payload).toMatchObject({ type: 'order.created', storeId: store.id, data: { id: 'o1' } })
    },
  )

  test('a name with several checked addresses: the first that accepts a connection gets the send', async () => {
    const rx = startReceiver()
    cleanup.push(() => rx.stop())
    const { t, clock, emit, row } = await withEndpoint(`http://multi.example.test:${rx.port}/hook`)
    // The receiver listens on 127.0.0.1 only: 127.0.0.2 refuses the connection, 127.0.0.1 answers.
    const d = new Dispatcher({
      ...t.deps,
      clock,
      log: createLogger('silent'),
      lookup: async () => ['127.0.0.2', '127.0.0.1'],
    })
    cleanup.push(() => d.close())
    emit({ id: 'o1' })
    await d.sweep()
    expect(rx.received).toHaveLength(1)
    expect(rx.received[0]!.headers.host).toBe(`multi.example.test:${rx.port}`)
    const id = t.deps.db.$client.query<{ id: string }, []>('SELECT id FROM webhook_deliveries').get()!.id
    expect(row(id)).toMatchObject({ status: 'succeeded', attempts: 1 })
  })

  test('DNS rebinding: public at check time, loopback afterwards — the loopback receiver is never hit', async () => {
    const rx = await tlsReceiver('rebind.example.test')
    const { t, clock, emit, row } = await withEndpoint(`https://rebind.example.test:${rx.port}/hook`, [60])
    t.deps.config.webhookAllowPrivate = false // the guard on, as in production
    let calls = 0
    // The attacker's name server: a public address for the first question, loopback for every later one.
    const lookup = async () => (calls++ === 0 ? ['93.184.216.34'] : ['127.0.0.1'])
    const d = new Dispatcher({ ...t.deps, clock, log: createLogger('silent'), ca: rx.ca, lookup })
    cleanup.push(() => d.close())
    emit({ id: 'o1' })
    await d.sweep() // attempt 1: checked against 93.184.216.34, connects there (the test network guard refuses it)
    const id = t.deps.db.$client.query<{ id: string }, []>('SELECT id FROM webhook_deliveries').get()!.id
    expect(calls).toBe(1)
    expect(row(id).lastError).toContain('93.184.216.34')
    clock.advance(66_000)
    await d.sweep() // attempt 2: the name now answers loopback, and the check refuses it
    expect(calls).toBe(2)
    expect(row(id)).toMatchObject({ status: 'failed', attempts: 2 })
    expect(row(id).lastError).toContain('non-public address (loopback)')
    expect(rx.hits).toHaveLength(0)
  })
})

describe('one store cannot stall another', () => {
  test("40 never-answering endpoints of store B: store A's delivery arrives within a few seconds", async () => {
    const t = makeApp({ webhookAllowPrivate: true, webhookMaxPerStore: 40 })
    cleanup.push(() => t.close())
    let hung = 0
    const hanging = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => (hung++, new Promise<Response>(() => {})),
    })
    cleanup.push(() => hanging.stop(true))
    const rxA = startReceiver()
    cleanup.push(() => rxA.stop())
    const a = makeShop(t.deps)
    const b = makeShop(t.deps)
    for (let i = 0; i < 40; i++) {
      const [res, body] = await t.api.post(
        '/api/v1/webhooks',
        { url: `http://127.0.0.1:${hanging.port}/b/${i}`, events: ['order.created'] },
        { key: b.key },
      )
      expectStatus(res, body).toBe(201)
    }
    const [res, body] = await t.api.post(
      '/api/v1/webhooks',
      { url: rxA.url, events: ['order.created'] },
      { key: a.key },
    )
    expectStatus(res, body).toBe(201)
    const emit = (storeId: string, id: string) => {
      immediate(t.deps.db, () => enqueueEvent(t.deps.db.$client, storeId, 'order.created', { id }, t.deps.clock.now()))
      t.deps.onOutbox(storeId)
    }
    // B's backlog first: 5 events × 40 endpoints, all ahead of A's event in the outbox.
    for (let i = 0; i < 5; i++) emit(b.store.id, `b${i}`)
    // B's sends are out and hanging: every send slot of the dispatcher is taken by store B.
    await waitFor("every send slot taken by store B's hanging endpoints", () => hung === t.config.webhookConcurrency)
    emit(a.store.id, 'a1')
    // A deadline, not a timing assertion: A's event arrives while B's 200 sends still hang.
    await rxA.waitFor(() => rxA.received.length === 1, 5000)
    expect(JSON.parse(rxA.received[0]!.body)).toMatchObject({ storeId: a.store.id, data: { id: 'a1' } })
  }, 15_000)
})

describe('listing deliveries never writes', () => {
  test('events still in the outbox are listed as pending under the id they are sent with later; no move', async () => {
    const rx = startReceiver()
    cleanup.push(() => rx.stop())
    const { t, key, hook, emit } = await withEndpoint(rx.url)
    for (let i = 0; i < 30; i++) emit({ id: `o${i}` })
    const counts = () =>
      t.deps.db.$client
        .query<{ outbox: number; log: number }, []>(
          'SELECT (SELECT count(*) FROM webhook_outbox) AS outbox, (SELECT count(*) FROM webhook_deliveries) AS log',
        )
        .get()!
    const before = counts()
    expect(before).toEqual({ outbox: 30, log: 0 })
    const [res, list] = await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=100`, { key })
    expectStatus(res, list).toBe(200)
    expect(counts()).toEqual(before)
    expect(list.total).toBe(30)
    expect(
      list.data.every((d: { status: string; attempts: number }) => d.status === 'pending' && d.attempts === 0),
    ).toBe(true)
    const [, pending] = await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries?status=pending&limit=5&offset=5`, {
      key,
    })
    expect(pending).toMatchObject({ total: 30, limit: 5, offset: 5 })
    expect(pending.data.map((d: { id: string }) => d.id)).toEqual(
      list.data.slice(5, 10).map((d: { id: string }) => d.id),
    )
    const [, failed] = await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries?status=failed`, { key })
    expect(failed.total).toBe(0)
    await sweepDeliveries(t.deps)
    expect(new Set(rx.received.map((r) => r.id))).toEqual(new Set(list.data.map((d: { id: string }) => d.id)))
    const [, after] = await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=100`, { key })
    expect(after.total).toBe(30)
    expect(after.data.every((d: { status: string }) => d.status === 'succeeded')).toBe(true)
  })
})

describe('registration', () => {
  test('https only, unless WEBHOOK_ALLOW_PRIVATE; a refusal says how to allow private addresses to test', async () => {
    const t = makeApp()
    cleanup.push(() => t.close())
    const { key } = makeShop(t.deps)
    const [r1, b1] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'http://93.184.216.34/hook', events: ['order.created'] },
      { key },
    )
    expectStatus(r1, b1).toBe(400)
    expect(b1).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url', reason: 'invalid_format' } })
    expect(b1.error).toContain('https')
    expect(b1.error).toContain('WEBHOOK_ALLOW_PRIVATE=1')
    const [r2, b2] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'https://10.0.0.1/hook', events: ['order.created'] },
      { key },
    )
    expectStatus(r2, b2).toBe(400)
    expect(b2.details).toEqual({ field: 'url', reason: 'private_address' })
    expect(b2.error).toContain('WEBHOOK_ALLOW_PRIVATE=1')
    const [r3, b3] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'https://93.184.216.34/hook', events: ['order.created'] },
      { key },
    )
    expectStatus(r3, b3).toBe(201)
    const local = makeApp({ webhookAllowPrivate: true })
    cleanup.push(() => local.close())
    const shop = makeShop(local.deps)
    const [r4, b4] = await local.api.post(
      '/api/v1/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['order.created'] },
      { key: shop.key },
    )
    expectStatus(r4, b4).toBe(201)
  })

  test(
    'at most WEBHOOK_MAX_PER_STORE endpoints per store → 409 LIMIT_REACHED with the limit; ' +
      'other stores unaffected',
    async () => {
      const t = makeApp({ webhookMaxPerStore: 2 })
      cleanup.push(() => t.close())
      const a = makeShop(t.deps)
      const b = makeShop(t.deps)
      const create = (key: string) =>
        t.api.post('/api/v1/webhooks', { url: 'https://93.184.216.34/hook', events: ['order.created'] }, { key })
      const [, first] = await create(a.key)
      await create(a.key)
      const [res, body] = await create(a.key)
      expectStatus(res, body).toBe(409)
      expect(body).toMatchObject({ code: 'LIMIT_REACHED', details: { limit: 2 } })
      expectStatus(...(await create(b.key))).toBe(201)
      await t.api.delete(`/api/v1/webhooks/${first.data.id}`, { key: a.key })
      expectStatus(...(await create(a.key))).toBe(201)
      const [, list] = await t.api.get('/api/v1/webhooks', { key: a.key })
      expect(list.total).toBe(2)
    },
  )
})

test('a refused connection is recorded once as "ECONNREFUSED: …", not with the code twice', async () => {
  const rx = startReceiver()
  const { t, emit, row } = await withEndpoint(rx.url)
  rx.stop()
  emit({ id: 'x' })
  await sweepDeliveries(t.deps)
  const id = t.deps.db.$client.query<{ id: string }, []>('SELECT id FROM webhook_deliveries').get()!.id
  const { lastError } = row(id)
  expect(lastError).toStartWith('ECONNREFUSED: ')
  expect(lastError).not.toContain('ECONNREFUSED: ECONNREFUSED')
})
