/**
 * The activity log (contract): who (a person, a key's prefix, the CLI, the system), what (a verb
 * and a record) and when, written in the transaction that made the change, so a rolled-back
 * write leaves no line and a committed one always has its line. Kept 180 days.
 */
import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import { activity } from '../../db/schema'
import { actorNameOf } from '../../kernel/actor-name'
import type { Runner } from '../../db/client'
import { DAY_MS } from '../../lib/time'
import type { Actor, OperatorCtx } from '../../kernel/context'
import { activityFacetRows, deleteActivityBefore } from './sql'

export const ACTIVITY_RETENTION_DAYS = 180

export interface ActivityEntry {
  storeId: string
  actor: string
  verb: string
  recordType: string
  recordId?: string | null
}

/** The log's name for an actor: `user:<id>`, `key:<prefix>`, `cli`, `system` (public callers: `public`). */
export function actorRef(actor: Actor, keyPrefix?: string): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.userId}`
    case 'key':
      return `key:${keyPrefix ?? actor.keyId}`
    case 'app':
      return `app:${actor.grantId}`
    default:
      return actor.kind
  }
}

/** In the caller's transaction. */
export function recordActivity(tx: Runner, at: number, e: ActivityEntry): void {
  tx.insert(activity)
    .values({
      storeId: e.storeId,
      actor: e.actor,
      actorName: actorNameOf(e.actor),
      verb: e.verb,
      recordType: e.recordType,
      recordId: e.recordId ?? null,
      at,
    })
    .run()
}

export interface ActivityQuery {
  storeId: string
  actor?: string
  recordType?: string
  recordId?: string
  before?: number
  limit?: number
}

export function listActivity(db: Runner, q: ActivityQuery) {
  const where: SQL[] = [eq(activity.storeId, q.storeId)]
  if (q.actor) where.push(eq(activity.actor, q.actor))
  if (q.recordType) where.push(eq(activity.recordType, q.recordType))
  if (q.recordId) where.push(eq(activity.recordId, q.recordId))
  if (q.before) where.push(lt(activity.seq, q.before))
  return db
    .select()
    .from(activity)
    .where(and(...where))
    .orderBy(desc(activity.seq))
    .limit(Math.min(q.limit ?? 50, 200))
    .all()
}

/** The distinct actors and record types of a store's log, for the page's filters. */
export function activityFacets(db: Runner, storeId: string): { actors: string[]; recordTypes: string[] } {
  const client = (db as unknown as { $client?: import('bun:sqlite').Database }).$client
  if (!client) return { actors: [], recordTypes: [] }
  return activityFacetRows(client, storeId)
}

/**
 * Lines older than 180 days leave (the prune job), in slices
 * so the writer is never held long. Takes the operator's ctx.
 */
export async function pruneActivity({ ctx }: { ctx: OperatorCtx }): Promise<number> {
  const client = ctx.db.$client
  const cutoff = ctx.clock.now() - ACTIVITY_RETENTION_DAYS * DAY_MS
  let total = 0
  for (;;) {
    const n = deleteActivityBefore(client, cutoff, 2000)
    total += n
    if (n < 2000) return total
    await new Promise((r) => setImmediate(r))
  }
}
