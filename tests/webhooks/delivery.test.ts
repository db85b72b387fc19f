/**
 * Delivery: immediate first attempt after commit, Standard Webhooks signatures, retries on the
 * schedule (fixed clock + sweepDeliveries, never sleeping through delays), Retry-After, 410,
 * the 5-day disable, redirects, timeouts, send-time SSRF, concurrency bounds, no double sends
 * across workers and processes, the delivery log and replay.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import path from 'node:path'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody } from '../helpers/factories'
import { ROOT } from '../helpers/server'
import { startReceiver, verify } from '../helpers/webhook-receiver'
import { immediate } from '../../src/db/client'
import { openDb } from '../../src/db/client'
import { enqueueEvent } from '../../src/modules/webhooks/outbox'
import { drainOutbox } from '../helpers/outbox'
import { Dispatcher } from '../../src/modules/webhooks/dispatcher'
import { sweepDeliveries } from '../../src/jobs/webhooks'
import { pruneExpired } from '../../src/jobs/prune'
import { pruneDeliveryLog } from '../../src/modules/webhooks/retention'
import { fixedClock } from '../../src/lib/time'
import { createLogger } from '../../src/lib/log'
import type { Config } from '../../src/config'
import type { WebhookEvent } from '../../src/db/schema'
import { isCuid } from '@paralleldrive/cuid2'

const SEC = 1000
const DAY = 86_400_000

let cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.reverse()) f()
  cleanup = []
})

/** A fresh app delivering to loopback, a store, a receiver and one endpoint for it. */
async function setup(overrides: Partial<Config> = {}, opts: { start?: number; events?: WebhookEvent[] } = {}) {
  const clock = fixedClock(opts.start ?? Date.now())
  const t = makeApp({ webhookAllowPrivate: true, ...overrides }, { clock })
  const rx = startReceiver()
  cleanup.push(
    () => t.close(),
    () => rx.stop(),
  )
  const { store, key } = makeShop(t.deps)
  const [res, body] = await t.api.post(
    '/api/v1/webhooks',
    { url: rx.url, events: opts.events ?? ['order.created', 'order.updated', 'review.created'] },
    { key },
  )
  expectStatus(res, body).toBe(201)
  const hook = body.data as { id: string; secret: string }
  const emit = (data: unknown = { id: Math.random().toString(36).slice(2) }, type: WebhookEvent = 'order.created') =>
    immediate(t.deps.db, () => enqueueEvent(t.deps.db.$client, store.id, type, data, clock.now()))
  const deliveries = async (q = '') => {
    const [r, b] = await t.api.get(`/api/v1/webhooks/${hook.id}/deliveries${q}`, { key })
    expectStatus(r, b).toBe(200)
    return b as { data: Record<string, any>[]; total: number }
  }
  const row = (id: string) =>
    t.deps.db.$client
      .query<Record<string, any>, [string]>(
        'SELECT status, attempts, next_attempt_at AS nextAttemptAt, last_error AS lastError, ' +
          'last_response_code AS code FROM webhook_deliveries WHERE id = ?',
      )
      .get(id)!
  const webhookRow = () =>
    t.deps.db.$client
      .query<Record<string, any>, [string]>(
        'SELECT is_active AS isActive, disabled_reason AS disabledReason, failing_since AS failingSince ' +
          'FROM webhooks WHERE id = ?',
      )
      .get(hook.id)!
  return { t, clock, rx, store, key, hook, emit, deliveries, row, webhookRow }
}

/**
 * The newest delivery's id, once the outbox has been moved into
 * the log (the dispatcher moves it; GET …/deliveries only reads).
 */
const onlyId = (t: TestApp) => (drainOutbox(t.deps.db.$client), newestId(t))
const newestId = (t: TestApp) =>
  t.deps.db.$client
    .query<{ id: string }, []>('SELECT id FROM webhook_deliveries ORDER BY created_at DESC LIMIT 1')
    .get()!.id

describe('first attempt', () => {
  test('an order posted through the API reaches the receiver at once, signed and verifiable', async () => {
    const { t, rx, store, hook, deliveries } = await setup()
    const cat = makeCatalog(t.deps, store.id)
    const [res, order] = await t.api.post('/api/orders', orderBody(store.id, cat))
    expectStatus(res, order).toBe(201)
    // No sweep: the commit's onOutbox alone must deliver it.
    await rx.waitFor(() => rx.received.length === 1)
    const got = rx.received[0]!
    expect(got.headers['content-type']).toBe('application/json')
    expect(isCuid(got.id)).toBe(true) // the delivery's id: a plain CUID2 like every id (contract)
    expect(Number(got.timestamp)).toBeCloseTo(Date.now() / 1000, -2)
    const payload = verify(hook.secret, got) as Record<string, any>
    expect(payload).toMatchObject({
      type: 'order.created',
      event: 'order.created',
      data: { id: order.id, orderNumber: order.orderNumber },
    })
    expect(typeof payload.timestamp).toBe('string')
    // The body is exactly the stored payload.
    const stored = t.deps.db.$client
      .query<{ payload: string }, [string]>('SELECT payload FROM webhook_deliveries WHERE id = ?')
      .get(got.id)!.payload
    expect(got.body).toBe(stored)
    await t.deps.dispatcher.idle()
    const log = await deliveries()
    expect(log.total).toBe(1)
    expect(log.data[0]).toMatchObject({
      id: got.id,
      webhookId: hook.id,
      eventType: 'order.created',
      status: 'succeeded',
      attempts: 1,
      lastResponseCode: 204,
      lastError: null,
      nextAttemptAt: null,
    })
    expect(typeof log.data[0]!.lastLatencyMs).toBe('number')
    expect(log.data[0]!.deliveredAt).toEqual(expect.any(String))
  })

  test('only subscribed event types are delivered; an inactive endpoint gets nothing until re-activated', async () => {
    const { t, rx, key, hook, emit, row } = await setup({}, { events: ['order.updated'] })
    expect(emit({ id: 'a' }, 'order.created')).toBe(0)
    emit({ id: 'b' }, 'order.updated')
    const id = onlyId(t)
    await t.api.put(`/api/v1/webhooks/${hook.id}`, { isActive: false }, { key })
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(0)
    expect(row(id).status).toBe('pending')
    await t.api.put(`/api/v1/webhooks/${hook.id}`, { isActive: true }, { key })
    await sweepDeliveries(t.deps)
    expect(rx.received.map((r) => r.id)).toEqual([id])
  })
})

describe('retries', () => {
  test('fails twice, succeeds on the third attempt, on the schedule with jitter; webhook-id stable', async () => {
    const start = Date.now() - 200 * SEC
    const { t, clock, rx, hook, emit, row, webhookRow } = await setup({ webhookRetrySchedule: [5, 300] }, { start })
    rx.respond = (_r, n) => (n <= 2 ? new Response('boom', { status: 500 }) : new Response(null, { status: 200 }))
    emit({ id: 'o1' })
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(1)
    let r = row(id)
    expect(r).toMatchObject({ status: 'pending', attempts: 1, code: 500, lastError: 'HTTP 500: boom' })
    expect(r.nextAttemptAt - clock.now()).toBeGreaterThanOrEqual(4.5 * SEC)
    expect(r.nextAttemptAt - clock.now()).toBeLessThanOrEqual(5.5 * SEC)
    expect(webhookRow().failingSince).toBe(clock.now())

    await sweepDeliveries(t.deps) // not due yet
    expect(rx.received).toHaveLength(1)
    clock.set(r.nextAttemptAt)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(2)
    r = row(id)
    expect(r).toMatchObject({ status: 'pending', attempts: 2 })
    expect(r.nextAttemptAt - clock.now()).toBeGreaterThanOrEqual(270 * SEC)
    expect(r.nextAttemptAt - clock.now()).toBeLessThanOrEqual(330 * SEC)

    clock.set(r.nextAttemptAt - 1)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(2)
    clock.advance(1)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(3)
    expect(row(id)).toMatchObject({ status: 'succeeded', attempts: 3, code: 200, lastError: null })
    expect(webhookRow().failingSince).toBeNull()
    expect(new Set(rx.received.map((x) => x.id))).toEqual(new Set([id]))
    expect(new Set(rx.received.map((x) => x.body)).size).toBe(1)
    // Each attempt is signed for its own timestamp, and each verifies.
    expect(new Set(rx.received.map((x) => x.timestamp)).size).toBe(3)
    for (const x of rx.received) expect(verify(hook.secret, x)).toMatchObject({ data: { id: 'o1' } })
  })

  test('with a zero-delay schedule one sweep runs each attempt; when the schedule is spent it fails', async () => {
    const { t, rx, emit, row } = await setup({ webhookRetrySchedule: [0, 0] })
    rx.respond = () => new Response('nope', { status: 502 })
    emit()
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(3)
    expect(row(id)).toMatchObject({ status: 'failed', attempts: 3, code: 502 })
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(3)
  })

  test(
    'Retry-After on 429/503 pushes the next attempt later than the schedule (seconds or HTTP date), ' +
      'capped at 24 h',
    async () => {
      // A whole second, since HTTP dates carry seconds only.
      const { t, clock, rx, emit, row } = await setup(
        { webhookRetrySchedule: [5, 5, 5, 5] },
        { start: Math.floor(Date.now() / 1000) * 1000 },
      )
      const answers = [
        new Response(null, { status: 429, headers: { 'retry-after': '120' } }),
        new Response(null, {
          status: 503,
          headers: { 'retry-after': new Date(clock.now() + 600 * SEC).toUTCString() },
        }),
        // sooner than the schedule: the schedule wins
        new Response(null, { status: 429, headers: { 'retry-after': '1' } }),
        new Response(null, { status: 429, headers: { 'retry-after': String(10 * 86400) } }),
        new Response(null, { status: 204 }),
      ]
      rx.respond = (_r, n) => answers[n - 1]!
      emit()
      const id = onlyId(t)
      const t0 = clock.now()
      await sweepDeliveries(t.deps)
      expect(row(id).nextAttemptAt - t0).toBe(120 * SEC)
      clock.advance(60 * SEC)
      await sweepDeliveries(t.deps)
      expect(rx.received).toHaveLength(1)
      clock.set(t0 + 120 * SEC)
      await sweepDeliveries(t.deps)
      expect(rx.received).toHaveLength(2)
      expect(row(id).nextAttemptAt).toBe(t0 + 600 * SEC)
      clock.set(t0 + 600 * SEC)
      await sweepDeliveries(t.deps)
      expect(rx.received).toHaveLength(3)
      const third = row(id).nextAttemptAt - clock.now()
      expect(third).toBeGreaterThanOrEqual(4.5 * SEC)
      expect(third).toBeLessThanOrEqual(5.5 * SEC)
      clock.advance(third)
      await sweepDeliveries(t.deps)
      expect(rx.received).toHaveLength(4)
      expect(row(id).nextAttemptAt - clock.now()).toBe(DAY)
      clock.advance(DAY)
      await sweepDeliveries(t.deps)
      expect(row(id)).toMatchObject({ status: 'succeeded', attempts: 5 })
    },
  )

  test('redirects are not followed: a 3xx is a failed attempt', async () => {
    const { t, rx, emit, row } = await setup()
    const other = startReceiver()
    cleanup.push(() => other.stop())
    rx.respond = () => new Response(null, { status: 307, headers: { location: other.url } })
    emit()
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(1)
    expect(other.received).toHaveLength(0)
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 1, code: 307 })
    expect(row(id).lastError).toContain('redirect')
  })

  test('a receiver slower than the timeout is a failed attempt', async () => {
    const { t, rx, emit, row } = await setup({ webhookTimeoutMs: 200 })
    rx.respond = () => new Promise<Response>(() => {}) // never answers
    emit()
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 1, code: null, lastError: 'timeout after 200 ms' })
  })

  test('a refused connection is a failed attempt with the error recorded', async () => {
    const { t, rx, emit, row } = await setup()
    rx.stop()
    emit()
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    const r = row(id)
    expect(r).toMatchObject({ status: 'pending', attempts: 1, code: null })
    expect(r.lastError.length).toBeGreaterThan(0)
  })
})

describe('disabling endpoints', () => {
  test('410 Gone disables the endpoint and fails its other pending deliveries', async () => {
    const { t, rx, key, hook, emit, row, deliveries } = await setup({
      webhookConcurrencyPerEndpoint: 1,
      webhookConcurrency: 1,
    })
    rx.respond = () => new Response('gone', { status: 410 })
    emit()
    emit()
    emit()
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(1)
    const [, got] = await t.api.get(`/api/v1/webhooks/${hook.id}`, { key })
    expect(got.data).toMatchObject({ isActive: false, disabledReason: expect.stringContaining('410') })
    const log = await deliveries()
    expect(log.data.map((d) => d.status)).toEqual(['failed', 'failed', 'failed'])
    expect(row(rx.received[0]!.id)).toMatchObject({ attempts: 1, code: 410 })
    expect(emit()).toBe(0) // no new deliveries for a disabled endpoint
  })

  test('an endpoint failing continuously for 5 days is disabled; a success in between resets the clock', async () => {
    const { t, clock, rx, key, hook, emit, webhookRow, deliveries } = await setup({
      webhookRetrySchedule: Array(10).fill(60),
    })
    let ok = false
    rx.respond = () => new Response(null, { status: ok ? 204 : 500 })
    const t0 = clock.now()
    emit()
    await sweepDeliveries(t.deps)
    expect(webhookRow().failingSince).toBe(t0)
    // A success clears the run of failures.
    clock.advance(4 * DAY)
    ok = true
    await sweepDeliveries(t.deps)
    expect(webhookRow().failingSince).toBeNull()
    ok = false
    const t1 = clock.now()
    emit()
    await sweepDeliveries(t.deps)
    expect(webhookRow().failingSince).toBe(t1)
    clock.advance(3 * DAY)
    emit()
    await sweepDeliveries(t.deps)
    expect(webhookRow().isActive).toBe(1)
    clock.set(t1 + 5 * DAY)
    emit()
    await sweepDeliveries(t.deps)
    const w = webhookRow()
    expect(w.isActive).toBe(0)
    expect(w.disabledReason).toContain('5 days')
    const [, got] = await t.api.get(`/api/v1/webhooks/${hook.id}`, { key })
    expect(got.data.isActive).toBe(false)
    const statuses = (await deliveries()).data.map((d) => d.status)
    expect(statuses).toEqual(['failed', 'failed', 'failed', 'succeeded'])
  })
})

describe('SSRF at send time', () => {
  test('an endpoint that is private when sent to is not contacted; the attempt fails with the reason', async () => {
    const { t, rx, emit, row } = await setup()
    t.deps.config.webhookAllowPrivate = false // the same URL, now checked against the guard
    emit()
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(0)
    expect(row(id)).toMatchObject({ status: 'pending', attempts: 1, code: null })
    expect(row(id).lastError).toContain('non-public address (loopback)')
  })
})

describe('concurrency', () => {
  test('per-endpoint and overall bounds hold', async () => {
    const { t, rx, store, key, emit } = await setup({ webhookConcurrency: 3, webhookConcurrencyPerEndpoint: 2 })
    const rx2 = startReceiver()
    cleanup.push(() => rx2.stop())
    await t.api.post('/api/v1/webhooks', { url: rx2.url, events: ['order.created'] }, { key })
    let now = 0
    let max = 0
    const perPort = new Map<number, number>()
    let maxPer = 0
    const hold = (port: number) => async () => {
      now++
      perPort.set(port, (perPort.get(port) ?? 0) + 1)
      max = Math.max(max, now)
      maxPer = Math.max(maxPer, perPort.get(port)!)
      await Bun.sleep(20)
      now--
      perPort.set(port, perPort.get(port)! - 1)
      return new Response(null, { status: 204 })
    }
    rx.respond = hold(rx.port)
    rx2.respond = hold(rx2.port)
    for (let i = 0; i < 12; i++) emit()
    await sweepDeliveries(t.deps)
    expect(rx.received).toHaveLength(12)
    expect(rx2.received).toHaveLength(12)
    expect(max).toBe(3)
    expect(maxPer).toBe(2)
    expect(store.id).toBeTruthy()
  })

  test('parallel sweeps, a second Dispatcher on its own connection, another process never send one twice', async () => {
    const { t, clock, rx, emit } = await setup({ webhookConcurrency: 8, webhookConcurrencyPerEndpoint: 8 })
    rx.respond = async () => {
      await Bun.sleep(2)
      return new Response(null, { status: 204 })
    }
    const N = 200
    for (let i = 0; i < N; i++) emit({ i })
    const second = new Dispatcher({
      db: openDb({ dataDir: t.config.dataDir, synchronous: 'NORMAL' }),
      config: t.config,
      clock,
      log: createLogger('silent'),
      secretBox: t.deps.secretBox,
    })
    cleanup.push(() => {
      second.close()
      ;(second as unknown as { deps: { db: { $client: { close(): void } } } }).deps.db.$client.close()
    })
    // A separate OS process sweeping the same database at the same time.
    const child = Bun.spawn(['bun', path.join(ROOT, 'tests/helpers/webhook-sweeper.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: t.config.dataDir, WEBHOOK_ALLOW_PRIVATE: '1', SWEEP_FOR_MS: '1500' },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    cleanup.push(() => child.kill())
    // The child has opened the database and begun sweeping when it says so.
    const childErr = child.stderr.getReader()
    let said = ''
    while (!said.includes('sweeping')) {
      const { value, done } = await childErr.read()
      if (done) throw new Error(`the sweeper exited before sweeping: ${said}`)
      said += new TextDecoder().decode(value)
    }
    childErr.releaseLock()
    await Promise.all([
      ...Array.from({ length: 5 }, () => sweepDeliveries(t.deps)),
      second.sweep(),
      (async () => t.deps.onOutbox('x'))(),
    ])
    await rx.waitFor(() => new Set(rx.received.map((r) => r.id)).size === N, 10_000)
    expect(await child.exited).toBe(0)
    const childSent = Number((await new Response(child.stdout).text()).trim())
    const counts = rx.counts()
    expect(counts.size).toBe(N)
    expect([...counts.values()].every((n) => n === 1)).toBe(true)
    expect(rx.received).toHaveLength(N)
    const states = t.deps.db.$client
      .query<{ status: string; attempts: number; n: number }, []>(
        'SELECT status, attempts, COUNT(*) AS n FROM webhook_deliveries GROUP BY 1, 2',
      )
      .all()
    expect(states).toEqual([{ status: 'succeeded', attempts: 1, n: N }])
    // Not a timing assertion: only that the child really took part (it claimed some rows itself).
    expect(childSent).toBeGreaterThanOrEqual(0)
  })
})

describe('delivery log and replay', () => {
  test('newest first, status filter, limit/offset, fields', async () => {
    const { t, clock, rx, key, emit, deliveries } = await setup({ webhookRetrySchedule: [60] })
    rx.respond = (_r, n) => new Response(null, { status: n === 1 ? 500 : 204 })
    emit({ n: 1 })
    clock.advance(1)
    await sweepDeliveries(t.deps) // first fails → pending
    emit({ n: 2 })
    clock.advance(1)
    emit({ n: 3 }, 'review.created')
    await sweepDeliveries(t.deps)
    const all = await deliveries()
    expect(all.total).toBe(3)
    expect(all.data.map((d) => d.eventType)).toEqual(['review.created', 'order.created', 'order.created'])
    expect(all.data.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'pending'])
    expect(Object.keys(all.data[0]!).sort()).toEqual(
      [
        'attempts',
        'createdAt',
        'deliveredAt',
        'eventType',
        'id',
        'lastError',
        'lastLatencyMs',
        'lastResponseCode',
        'nextAttemptAt',
        'status',
        'updatedAt',
        'webhookId',
      ].sort(),
    )
    expect(all.data[2]!.nextAttemptAt).toEqual(expect.any(String))
    const pending = await deliveries('?status=pending')
    expect(pending.total).toBe(1)
    expect(pending.data[0]!.lastResponseCode).toBe(500)
    const page2 = await deliveries('?limit=1&offset=1')
    expect(page2).toMatchObject({ total: 3, limit: 1, offset: 1 })
    expect(page2.data[0]!.id).toBe(all.data[1]!.id)
    const [bad, badBody] = await t.api.get(`/api/v1/webhooks/${all.data[0]!.webhookId}/deliveries?status=done`, { key })
    expectStatus(bad, badBody).toBe(400)
    expect(badBody.details.field).toBe('status')
  })

  test(
    'retention: finished deliveries older than WEBHOOK_LOG_RETENTION_DAYS leave the log, in batches; ' +
      'pending ones stay',
    async () => {
      const { t, clock, rx, emit, deliveries } = await setup({ webhookRetrySchedule: [0], webhookLogRetentionDays: 30 })
      rx.respond = (req) => new Response(null, { status: req.body.includes('"fail"') ? 500 : 204 })
      emit({ id: 'ok' })
      emit({ id: 'fail' })
      await sweepDeliveries(t.deps)
      rx.respond = () => new Response(null, { status: 204 })
      const client = t.deps.db.$client
      // Old enough to go: 1,200 more succeeded rows (more than two batches), copied from the first.
      client.run(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200)
       INSERT INTO webhook_deliveries (id, webhook_id, store_id, event_type, payload, status, attempts, created_at,
       updated_at)
       SELECT 'copy' || i, webhook_id, store_id, event_type, payload, status, attempts, created_at, updated_at
       FROM n, (SELECT * FROM webhook_deliveries WHERE status = 'succeeded')`,
      )
      clock.advance(30 * DAY - 1)
      emit({ id: 'stuck' }) // not sent (no sweep): pending once moved; made old below
      drainOutbox(client)
      client.run(`UPDATE webhook_deliveries SET created_at = 0, next_attempt_at = ?1 WHERE status = 'pending'`, [
        clock.now() + DAY,
      ])
      expect((await deliveries()).total).toBe(1203)
      await pruneExpired(t.deps) // one ms short of 30 days: nothing goes
      expect((await deliveries()).total).toBe(1203)
      clock.advance(1)
      await pruneExpired(t.deps)
      const left = await deliveries()
      expect(left.data.map((d) => d.status)).toEqual(['pending'])
      expect(
        await pruneDeliveryLog({
          ctx: { db: t.deps.db, clock: { now: () => clock.now() + 365 * DAY } },
          input: { days: 0 },
        }),
      ).toBe(0) // 0 keeps everything
    },
  )

  test('replay resends the same webhook-id and body at once and starts the delivery over', async () => {
    const { t, rx, key, hook, emit, row } = await setup({ webhookRetrySchedule: [0] })
    rx.respond = () => new Response(null, { status: 500 })
    emit({ id: 'r1' })
    const id = onlyId(t)
    await sweepDeliveries(t.deps)
    expect(row(id)).toMatchObject({ status: 'failed', attempts: 2 })
    rx.respond = () => new Response(null, { status: 204 })
    const [res, body] = await t.api.post(`/api/v1/webhooks/${hook.id}/deliveries/${id}/retry`, undefined, { key })
    expectStatus(res, body).toBe(202)
    expect(body.data).toMatchObject({ id, status: 'pending', attempts: 0 })
    // No sweep: the replay itself triggers the attempt.
    await rx.waitFor(() => rx.received.length === 3)
    await t.deps.dispatcher.idle()
    expect(rx.received[2]!.id).toBe(id)
    expect(rx.received[2]!.body).toBe(rx.received[0]!.body)
    expect(verify(hook.secret, rx.received[2]!)).toMatchObject({ data: { id: 'r1' } })
    expect(row(id)).toMatchObject({ status: 'succeeded', attempts: 1 })
    // A delivery of another endpoint of the same store is 404 under this one.
    const [, other] = await t.api.post('/api/v1/webhooks', { url: rx.url, events: ['order.created'] }, { key })
    const [r404, b404] = await t.api.post(`/api/v1/webhooks/${other.data.id}/deliveries/${id}/retry`, undefined, {
      key,
    })
    expectStatus(r404, b404).toBe(404)
  })
})
