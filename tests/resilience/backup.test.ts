/**
 * Backup while orders are posted, restore into a fresh DATA_DIR: tests/resilience/backup.ts.
 */
import { test } from 'bun:test'
import { runBackup } from './backup'
import { expectClean } from './expect'

test('a backup taken under concurrent orders restores every order acknowledged before it began, intact, ' +
  'with decryptable webhook secrets', async () => {
  expectClean(await runBackup({ clients: 6, ordersBefore: 100, ordersAfter: 30 }))
}, 90_000)
