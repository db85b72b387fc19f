/**
 * Webhooks that can't be turned against the host, reduced sizes: tests/resilience/webhooks.ts.
 */
import { test } from 'bun:test'
import { runListingReads, runRebinding, runStoreStall } from './webhooks'
import { expectClean } from './expect'

test('DNS rebinding: sends go to the checked address, never to the loopback receiver', async () => {
  expectClean(await runRebinding({ endpoints: 3 }))
})

test("one store's never-answering endpoints don't hold back another store's deliveries", async () => {
  expectClean(await runStoreStall({ hanging: 40, backlog: 2, events: 2 }))
}, 30_000)

test('listing deliveries with a full outbox moves nothing', async () => {
  expectClean(await runListingReads({ rows: 5_000 }))
})
