/**
 * Replication survives losing the machine: tests/resilience/replica.ts (the `replica-restore`
 * row of `bun run resilience`, at the same size).
 */
import { test } from 'bun:test'
import { runReplicaRestore } from './resilience/replica'
import { expectClean } from './resilience/expect'

test('orders acknowledged more than 1 s before the machine dies are restored from the replica; the service starts on it and signs with the old webhook secret', async () => {
  const r = await runReplicaRestore({ orders: 1000, clients: 8 })
  console.error(r.notes.join('\n'))
  expectClean(r)
}, 60_000)
