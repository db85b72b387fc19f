/**
 * Checkout first: while checkout batches queue, deliveries go out at WEBHOOK_BUSY_RATE per
 * second and the outbox holds the rest; without pressure they are unbounded, and the backlog
 * drains once pressure ends (src/modules/webhooks/governor.ts).
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { makeApp, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { startReceiver } from '../helpers/webhook-receiver'
import { immediate } from '../../src/db/client'
import { enqueueEvent } from '../../src/modules/webhooks/outbox'
import {
  BUSY_SHARE,
  DeliveryGovernor,
  LATE_STREAK,
  PRESSURE_GROUP,
  PRESSURE_MS,
  PressureSignal,
} from '../../src/modules/webhooks/governor'
import { fixedClock } from '../../src/lib/time'

let cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.reverse()) f()
  cleanup = []
})

describe('DeliveryGovernor', () => {
  test('unbounded without pressure; a full bucket, then the rate in groups, while checkout queues', () => {
    const clock = fixedClock()
    const g = new DeliveryGovernor(clock, 200) // groups of PRESSURE_GROUP (16): one every 80 ms
    expect(g.available()).toBe(Infinity)
    g.notePressure()
    expect(g.underPressure).toBe(true)
    expect(g.available()).toBe(200)
    g.take(200)
    expect(g.available()).toBe(0)
    expect(g.msUntilNext()).toBe((PRESSURE_GROUP * 1000) / 200)
    clock.advance(50)
    g.notePressure()
    expect(g.available()).toBe(0) // 10 tokens: not a group yet
    expect(g.msUntilNext()).toBe(30)
    clock.advance(30)
    expect(g.available()).toBe(PRESSURE_GROUP) // 200 per second
    g.notePressure() // still the same episode: no refill
    expect(g.available()).toBe(PRESSURE_GROUP)
    clock.advance(5_000)
    g.notePressure()
    expect(g.available()).toBe(200) // capped at the burst
    clock.advance(PRESSURE_MS)
    expect(g.underPressure).toBe(false)
    expect(g.available()).toBe(Infinity)
  })

  test('a rate below the group size sends one at a time', () => {
    const clock = fixedClock()
    const g = new DeliveryGovernor(clock, 3)
    g.notePressure()
    expect(g.available()).toBe(3)
    g.take(3)
    expect(g.msUntilNext()).toBe(334)
    clock.advance(200)
    g.notePressure() // the probe keeps reporting pressure: the same episode
    clock.advance(134)
    g.notePressure()
    expect(g.available()).toBe(1)
  })
})

describe('the dispatcher under checkout pressure', () => {
  test('sends at most the bucket while pressured, the rest once pressure ends — nothing lost', async () => {
    const clock = fixedClock(Date.now())
    const t = makeApp({ webhookAllowPrivate: true, webhookBusyRate: 3, webhookConcurrencyPerEndpoint: 10 }, { clock })
    const rx = startReceiver()
    cleanup.push(
      () => t.close(),
      () => rx.stop(),
    )
    const { store, key } = makeShop(t.deps)
    const [res, body] = await t.api.post('/api/v1/webhooks', { url: rx.url, events: ['order.created'] }, { key })
    expectStatus(res, body).toBe(201)

    t.deps.dispatcher.governor.notePressure()
    immediate(t.deps.db, () => {
      for (let i = 0; i < 8; i++)
        enqueueEvent(t.deps.db.$client, store.id, 'order.created', { id: `o${i}` }, clock.now())
    })
    t.deps.onOutbox(store.id)
    await rx.waitFor(() => rx.received.length === 3)
    await t.deps.dispatcher.idle()
    await new Promise((r) => setTimeout(r, 50))
    expect(rx.received.length).toBe(3) // the clock stands still: no new tokens, still under pressure

    clock.advance(PRESSURE_MS) // pressure over: the deferred pump sends the backlog
    await rx.waitFor(() => rx.received.length === 8)
    expect(new Set(rx.received.map((r) => r.id)).size).toBe(8)
  })
})

describe('what counts as checkout pressure (PressureSignal, one observation per 10 ms tick)', () => {
  const busy = { lateMs: 10, cpuShare: 0.95, active: true, pressured: false }
  const run = (ticks: Partial<typeof busy>[]) => {
    const s = new PressureSignal()
    return ticks.map((t) => s.observe({ ...busy, ...t }))
  }

  test('a loop late on LATE_STREAK ticks in a row, a busy process and orders being posted', () => {
    expect(LATE_STREAK).toBe(3)
    expect(run([{}, {}, {}, {}])).toEqual([false, false, true, true])
  })

  test('not one late turn (a GC pause): the streak restarts after an on-time tick', () => {
    expect(run([{}, {}, { lateMs: 1 }, {}, {}, { lateMs: 0 }, {}])).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ])
  })

  test('not without checkout traffic, and not while the process is idle (a stalled VM, a slow disk)', () => {
    expect(run([{ active: false }, { active: false }, { active: false }, { active: false }])).toEqual([
      false,
      false,
      false,
      false,
    ])
    expect(run([{ cpuShare: 0.2 }, { cpuShare: 0.3 }, { cpuShare: 0.2 }, { cpuShare: BUSY_SHARE - 0.01 }])).toEqual([
      false,
      false,
      false,
      false,
    ])
  })

  test('once under pressure, any late busy tick keeps it; on-time or idle ticks do not', () => {
    expect(
      run([
        { pressured: true },
        { pressured: true, lateMs: 0 },
        { pressured: true },
        { pressured: true, cpuShare: 0.1 },
      ]),
    ).toEqual([true, false, true, false])
  })
})
