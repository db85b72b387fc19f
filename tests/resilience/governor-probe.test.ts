/**
 * The dispatcher's pressure probe on a real, saturated event loop (src/modules/webhooks/governor.ts).
 * It reads real timers, so it runs with the whole-process tests, not in `bun test`. The process's
 * CPU time is the one thing substituted: a loaded machine gives the saturated loop a fraction of a
 * core, and the probe rightly reads that as a stalled machine, not checkout pressure (the share's
 * own rule is tested in tests/webhooks/governor.test.ts). Here the process is given the whole core.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { makeApp, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'

let cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.reverse()) f()
  cleanup = []
})

describe('the probe on a real event loop', () => {
  const block = (ms: number) => {
    const end = performance.now() + ms
    while (performance.now() < end) {
      /* a busy event loop */
    }
  }
  /** A saturated loop for `ms`: busy in 15 ms turns, so every 10 ms probe fires late. */
  const saturate = async (ms: number) => {
    const end = performance.now() + ms
    while (performance.now() < end) {
      block(15)
      await new Promise((r) => setTimeout(r, 0))
    }
  }

  test('a saturated loop puts the dispatcher under pressure while orders are posted, not otherwise', async () => {
    const { makeCatalog, orderBody } = await import('../helpers/factories')
    // CPU time that keeps pace with the wall clock: a saturated loop on a core of its own.
    const t = makeApp({ rateLimitOrders: 1000 }, { cpuMs: () => performance.now() })
    cleanup.push(() => t.close())
    const { store } = makeShop(t.deps)
    const cat = makeCatalog(t.deps, store.id)
    const governor = t.deps.dispatcher.governor

    await saturate(150)
    expect(governor.underPressure).toBe(false)

    const [res, body] = await t.api.post('/api/orders', orderBody(store.id, cat))
    expectStatus(res, body).toBe(201)
    // Up to forty 150 ms turns to show it (it stops at the first that does).
    for (let i = 0; i < 40 && !governor.underPressure; i++) await saturate(150)
    expect(governor.underPressure).toBe(true)
  })
})
