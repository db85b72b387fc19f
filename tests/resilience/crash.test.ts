/**
 * Crash safety, CI size: ~100 orders over HTTPS to the real server (spawned), SIGKILLed 3 times
 * mid-burst and restarted; every 201 exists exactly once, every order.created event arrives,
 * the database passes integrity_check after each restart. Full size: `bun run resilience`.
 */
import { expect, test } from 'bun:test'
import { runCrash } from './crash'
import { expectClean } from './expect'

test('SIGKILL during a burst of 100 orders (3 kills): no order or event lost, no duplicate, file intact', async () => {
  const r = await runCrash({ orders: 100, kills: 3, concurrency: 8, eventTimeoutMs: 40_000 })
  expectClean(r)
  expect(r.tried).toBe(100)
  expect(r.ordersLost + r.eventsLost + r.duplicates + r.fiveXx).toBe(0)
}, 90_000)
