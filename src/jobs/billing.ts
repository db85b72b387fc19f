import type { Deps } from '../context'
import { immediate } from '../db/client'
import { suspendOverdueTx } from '../modules/billing/service'

/**
 * Suspends (reason `unpaid`) every active store that has an open invoice still unpaid after its
 * last card retry (attempts ≥ maxAttempts and the retry time passed). Returns the store ids.
 */
export function runBillingSweep(deps: Pick<Deps, 'db' | 'clock' | 'cache' | 'log'>): string[] {
  const suspended = immediate(deps.db, (tx) => suspendOverdueTx(tx, deps.clock.now()))
  for (const id of suspended) {
    deps.cache.invalidate(id)
    deps.log.info('store suspended: invoice unpaid after the last retry', { storeId: id })
  }
  return suspended
}
