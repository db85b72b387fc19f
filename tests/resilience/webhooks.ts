/**
 * Webhooks turned against the host, three cases:
 * - rebinding: endpoints whose name answers a public address when the SSRF check asks and
 *   loopback on every later question, each with an https receiver on loopback holding a
 *   certificate for that name (so a second resolution would reach it). Figure: loopback hits
 *   (must be 0) and resolutions per attempt (must be 1).
 * - one store stalls another: store B's endpoints never answer and carry a backlog; store A's
 *   events must still arrive. Figure: A's order → receipt time, worst of several.
 * - listing reads: GET …/deliveries with a large outbox. Figure: its time, and rows moved (0).
 */
import '../helpers/network-guard' // a "public" address in these cases must never be reached for real
import { immediate } from '../../src/db/client'
import { createLogger } from '../../src/lib/log'
import { Dispatcher } from '../../src/modules/webhooks/dispatcher'
import { enqueueEvent } from '../../src/modules/webhooks/outbox'
import { makeApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { startTlsReceiver } from '../helpers/tls-receiver'
import { startReceiver } from '../helpers/webhook-receiver'
import { fail, newResult, timed, type CaseResult } from './lib'

export async function runRebinding(opts: { endpoints?: number } = {}): Promise<CaseResult> {
  const r = newResult('webhooks: DNS rebinding')
  const n = opts.endpoints ?? 10
  const t = makeApp({ webhookAllowPrivate: true, webhookRetrySchedule: [0, 0], webhookMaxPerStore: n })
  const receivers: Awaited<ReturnType<typeof startTlsReceiver>>[] = []
  let dispatcher: Dispatcher | undefined
  await timed(r, async () => {
    const { store, key } = makeShop(t.deps)
    const asked = new Map<string, number>()
    for (let i = 0; i < n; i++) {
      const name = `rebind-${i}.example.test`
      const rx = await startTlsReceiver(name)
      receivers.push(rx)
      const [res, body] = await t.api.post(
        '/api/v1/webhooks',
        { url: `https://${name}:${rx.port}/hook`, events: ['order.created'] },
        { key },
      )
      if (res.status !== 201) throw new Error(`webhook create: ${res.status} ${JSON.stringify(body)}`)
    }
    t.deps.config.webhookAllowPrivate = false
    // Trusts every receiver's certificate: only the address decides whether one is reached.
    const ca = receivers.map((x) => x.ca).join('\n')
    const lookup = async (host: string) => {
      const k = (asked.get(host) ?? 0) + 1
      asked.set(host, k)
      return k === 1 ? ['93.184.216.34'] : ['127.0.0.1']
    }
    dispatcher = new Dispatcher({ ...t.deps, log: createLogger('silent'), ca, lookup })
    for (let e = 0; e < 3; e++)
      immediate(t.deps.db, () =>
        enqueueEvent(t.deps.db.$client, store.id, 'order.created', { id: `o${e}` }, t.deps.clock.now()),
      )
    const { attempted } = await dispatcher.sweep()
    r.tried = attempted
    const lookups = [...asked.values()].reduce((a, b) => a + b, 0)
    const hits = receivers.reduce((a, x) => a + x.hits.length, 0)
    if (hits > 0) {
      r.leaks += hits
      fail(r, `${hits} request(s) reached a loopback receiver`)
    }
    if (lookups !== attempted) fail(r, `${lookups} resolutions for ${attempted} attempts (one each expected)`)
    if (attempted !== n * 3 * 3)
      fail(r, `${attempted} attempts, expected ${n * 3 * 3} (3 events × 3 attempts × ${n} endpoints)`)
    r.notes.push(
      `${attempted} attempts to ${n} rebinding names: ${hits} loopback hits, ${lookups} resolutions (one ` +
        'per attempt); before: fetch resolved each name again after the check',
    )
  })
  dispatcher?.close()
  for (const x of receivers) x.stop()
  t.close()
  return r
}

export async function runStoreStall(
  opts: { hanging?: number; backlog?: number; events?: number } = {},
): Promise<CaseResult> {
  const r = newResult('webhooks: one store stalls another')
  const nHanging = opts.hanging ?? 40
  const t = makeApp({ webhookAllowPrivate: true, webhookMaxPerStore: nHanging })
  const hanging = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Promise<Response>(() => {}) })
  const rx = startReceiver()
  await timed(r, async () => {
    const a = makeShop(t.deps)
    const b = makeShop(t.deps)
    for (let i = 0; i < nHanging; i++) {
      const [res] = await t.api.post(
        '/api/v1/webhooks',
        { url: `http://127.0.0.1:${hanging.port}/b/${i}`, events: ['order.created'] },
        { key: b.key },
      )
      if (res.status !== 201) throw new Error(`webhook create: ${res.status}`)
    }
    await t.api.post('/api/v1/webhooks', { url: rx.url, events: ['order.created'] }, { key: a.key })
    const emit = (storeId: string, id: string) => {
      immediate(t.deps.db, () => enqueueEvent(t.deps.db.$client, storeId, 'order.created', { id }, t.deps.clock.now()))
      t.deps.onOutbox(storeId)
    }
    for (let i = 0; i < (opts.backlog ?? 5); i++) emit(b.store.id, `b${i}`)
    await Bun.sleep(100)
    const times: number[] = []
    for (let i = 0; i < (opts.events ?? 3); i++) {
      // More of B's backlog lands ahead of each of A's events.
      emit(b.store.id, `b-more${i}`)
      const started = performance.now()
      emit(a.store.id, `a${i}`)
      r.tried++
      try {
        await rx.waitFor(() => rx.received.length === i + 1, 10_000)
        times.push(performance.now() - started)
      } catch {
        r.eventsLost++
        fail(r, `store A's event a${i} did not arrive within 10 s`)
      }
      await Bun.sleep(500)
    }
    const worst = Math.max(...times)
    if (worst > 5000) fail(r, `store A waited ${Math.round(worst)} ms (limit 5 s)`)
    r.notes.push(
      `store A's delivery with ${nHanging} never-answering endpoints of store B and its ` +
        `backlog: ${times.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')} (before: 2 min 43 s)`,
    )
  })
  t.close()
  hanging.stop(true)
  rx.stop()
  return r
}

export async function runListingReads(opts: { rows?: number } = {}): Promise<CaseResult> {
  const r = newResult('webhooks: listing never writes')
  const rows = opts.rows ?? 50_000
  const t = makeApp({ webhookAllowPrivate: true })
  await timed(r, async () => {
    const { store, key } = makeShop(t.deps)
    const [, hook] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['order.created'] },
      { key },
    )
    // A checkout burst's worth of events, never moved (the dispatcher is not woken).
    immediate(t.deps.db, () => {
      for (let i = 0; i < rows; i++)
        enqueueEvent(t.deps.db.$client, store.id, 'order.created', { id: `o${i}` }, t.deps.clock.now())
    })
    const count = () => t.deps.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM webhook_outbox').get()!.n
    const before = count()
    const started = performance.now()
    const [res, body] = await t.api.get(`/api/v1/webhooks/${hook.data.id}/deliveries?limit=50`, { key })
    const ms = performance.now() - started
    r.tried++
    if (res.status !== 200 || body.total !== rows)
      fail(r, `listing: ${res.status}, total ${body.total} (expected ${rows})`)
    const moved = before - count()
    if (moved !== 0) fail(r, `listing moved ${moved} outbox rows`)
    r.notes.push(
      `GET …/deliveries with ${rows.toLocaleString('en')} events in the ` +
        `outbox: ${ms.toFixed(0)} ms, ${moved} rows moved (before: it moved them all in one transaction, ` +
        '~1 s for 50,000)',
    )
  })
  t.close()
  return r
}
