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
import type { Actor, Ctx, OperatorCtx } from '../../kernel/context'
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

/** A step in the caller's transaction: the line commits or rolls back with the change it records. */
export function recordActivityTx(tx: Runner, at: number, e: ActivityEntry): void {
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

/** Which lines of the store's log: by actor, record type or record, older than `before` (a line's `seq`). */
export interface ActivityQuery {
  actor?: string
  recordType?: string
  recordId?: string
  before?: number
  limit?: number
}

/** The ctx's store's log, newest first (at most 200 lines a page). Takes a store actor's `Ctx`. */
export function listActivity({ ctx, input: q }: { ctx: Pick<Ctx, 'db' | 'store'>; input: ActivityQuery }) {
  const where: SQL[] = [eq(activity.storeId, ctx.store.id)]
  if (q.actor) where.push(eq(activity.actor, q.actor))
  if (q.recordType) where.push(eq(activity.recordType, q.recordType))
  if (q.recordId) where.push(eq(activity.recordId, q.recordId))
  if (q.before) where.push(lt(activity.seq, q.before))
  return ctx.db
    .select()
    .from(activity)
    .where(and(...where))
    .orderBy(desc(activity.seq))
    .limit(Math.min(q.limit ?? 50, 200))
    .all()
}

/** The distinct actors and record types of the ctx's store's log, for the page's filters. Takes a `Ctx`. */
export function activityFacets({ ctx }: { ctx: Pick<Ctx, 'db' | 'store'> }): {
  actors: string[]
  recordTypes: string[]
} {
  return activityFacetRows(ctx.db.$client, ctx.store.id)
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
