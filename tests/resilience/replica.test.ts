/**
 * Replication survives losing the machine: tests/resilience/replica.ts (the `replica-restore`
 * row of `bun run resilience`, at a third of its size).
 */
import { test } from 'bun:test'
import { runReplicaRestore } from './replica'
import { expectClean } from './expect'

test('orders acknowledged more than 1 s before the machine dies are restored from the replica; ' +
  'the service starts on it and signs with the old webhook secret', async () => {
  // 300 orders here keep bun test quick; `bun run resilience --only replica` runs 1,000.
  const r = await runReplicaRestore({ orders: 300, clients: 8 })
  console.error(r.notes.join('\n'))
  expectClean(r)
}, 60_000)
