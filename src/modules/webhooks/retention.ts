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
import type { OperatorCtx } from '../../kernel/context'
import { DAY_MS } from '../../lib/time'
import { deleteFinishedDeliveries, endpointIds } from './sql'

const BATCH = 500

/**
 * Deletes finished deliveries at least `days` old; returns how
 * many went. `days = 0` keeps all. Takes the operator's ctx.
 */
export async function pruneDeliveryLog({ ctx, input }: { ctx: OperatorCtx; input: { days: number } }): Promise<number> {
  const { days } = input
  if (days <= 0) return 0
  const client = ctx.db.$client
  const cutoff = ctx.clock.now() - days * DAY_MS
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
