/**
 * No API key or webhook secret in the database file bytes (+ -wal, -shm): tests/resilience/secrets.ts.
 */
import { test } from 'bun:test'
import { runSecrets } from './secrets'
import { expectClean } from './expect'

test('database, -wal and -shm bytes hold no API key and no webhook secret (plain, base64, raw, hex)', async () => {
  expectClean(await runSecrets({ keys: 5, webhooks: 4 }))
}, 30_000)
