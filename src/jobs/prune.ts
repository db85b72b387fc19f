import type { Deps } from '../context'
import { IDEMPOTENCY_TTL_MS } from '../modules/orders/idempotency'

/** Forgets what no longer matters: ended rate-limit windows and idempotency keys past 24 h. */
export function pruneExpired(deps: Deps): void {
  deps.limiter.prune()
  deps.db.$client.run('DELETE FROM idempotency_keys WHERE created_at < ?', [deps.clock.now() - IDEMPOTENCY_TTL_MS])
}
