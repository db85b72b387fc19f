/**
 * Whether open sessions still hold a grant in their store, read in one query for many: long-lived
 * answers (the live inbox's streams) ask it every second, so a sign-out, a removal from the store
 * or a role change ends them at once rather than at their next reconnect.
 */
import type { OperatorCtx } from '../../kernel/context'
import { roleHas, type Grant } from './roles'
import { sessionRolesNow } from './sql'

/**
 * The ids among `held` whose session still exists, is still in `storeId` and whose role there has
 * `grant`. The operator's context (only its `db`): the sessions may be of many stores.
 */
export function sessionsStillGranted({
  ctx: { db },
  input: { grant, held },
}: {
  ctx: Pick<OperatorCtx, 'db'>
  input: { grant: Grant; held: { sessionId: string; storeId: string }[] }
}): Set<string> {
  if (held.length === 0) return new Set()
  const now = new Map(sessionRolesNow(db.$client, [...new Set(held.map((h) => h.sessionId))]).map((r) => [r.id, r]))
  const out = new Set<string>()
  for (const h of held) {
    const row = now.get(h.sessionId)
    if (row && row.storeId === h.storeId && roleHas(row.role, grant)) out.add(h.sessionId)
  }
  return out
}
