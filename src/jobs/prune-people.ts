import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import { pruneActivity, pruneInvitations, pruneSessions } from '../modules/people'

/**
 * The people module's retention: activity lines past 180 days (contract), sessions past their
 * idle or absolute expiry, and one-time links a week past their expiry or use.
 */
export async function prunePeople(deps: { db: Db; clock: Clock }): Promise<void> {
  pruneSessions({ ctx: deps })
  pruneInvitations({ ctx: deps })
  await pruneActivity({ ctx: deps })
}
