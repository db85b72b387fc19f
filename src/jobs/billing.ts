import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import type { Logger } from '../lib/log'
import { transaction } from '../kernel/write'
import { suspendOverdueTx } from '../modules/billing'
import { recordActivityTx } from '../modules/people'

/**
 * Suspends (reason `unpaid`) every active store that has an open invoice still unpaid after its
 * last card retry (attempts ≥ maxAttempts and the retry time passed). Returns the store ids.
 */
export function runBillingSweep(deps: { db: Db; clock: Clock; log: Logger }): string[] {
  const suspended = transaction(
    deps.db,
    (tx) => {
      const now = deps.clock.now()
      const ids = suspendOverdueTx({ ctx: { db: tx, now } })
      // The system suspended them: its activity lines commit with the suspensions.
      for (const id of ids)
        recordActivityTx(tx, now, { storeId: id, actor: 'system', verb: 'suspend', recordType: 'store', recordId: id })
      return ids
    },
    (ids) => ids,
  )
  for (const id of suspended) deps.log.info('store suspended: invoice unpaid after the last retry', { storeId: id })
  return suspended
}
