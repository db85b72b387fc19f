/**
 * Retention of the delivery log. Every order writes a ~1 KB delivery row per endpoint, so a log
 * kept forever grows the one database file without bound. Finished rows (succeeded, failed)
 * older than the retention go; pending and sending rows are live and always stay, however old.
 *
 * Deleted per endpoint and status through the (webhook_id, status, created_at) index, in batches
 * of a few hundred rows, each its own short transaction, yielding to the event loop between
 * them: a year-old log cleared in one statement would hold the write lock, and checkout with it,
 * for seconds. In steady state a run (every 10 minutes) finds ten minutes' worth of rows.
 */
import type { Database } from 'bun:sqlite'
import { DAY_MS } from '../../lib/time'
import { deleteFinishedDeliveries, endpointIds } from './sql'

const BATCH = 500

/** Deletes finished deliveries at least `days` old; returns how many went. `days = 0` keeps all. */
export async function pruneDeliveryLog(client: Database, now: number, days: number): Promise<number> {
  if (days <= 0) return 0
  const cutoff = now - days * DAY_MS
  let deleted = 0
  for (const id of endpointIds(client)) {
    for (const status of ['succeeded', 'failed'] as const) {
      for (;;) {
        const n = deleteFinishedDeliveries(client, id, status, cutoff, BATCH)
        deleted += n
        if (n < BATCH) break
        await new Promise<void>((r) => setImmediate(r))
      }
    }
  }
  return deleted
}
