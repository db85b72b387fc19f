/**
 * Moves the whole outbox into the delivery log (one transaction), as the dispatcher would, so a
 * test can read every event written so far by its delivery id (GET …/deliveries only reads).
 */
import type { Database } from 'bun:sqlite'
import { moveAll } from '../../src/modules/webhooks/outbox'

export function drainOutbox(client: Database): void {
  if (client.query('SELECT 1 FROM webhook_outbox LIMIT 1').get() === null) return
  client.transaction(() => moveAll(client)).immediate()
}
