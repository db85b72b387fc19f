/**
 * The inbox's "new" marker, per person: an order is new to a person until THAT person
 * opens it — another member opening it changes nothing for them. Two bounds keep it small:
 * an order placed before the person joined the store is not new to them (a new member does not
 * inherit the whole history as unread), and nothing older than NEW_FOR_MS is new (an inbox
 * marker, not an archive of read receipts). So `order_opened` (drizzle/0018) only needs rows
 * inside that window: a person's older rows are pruned when they first open an order, and the table
 * holds at most (people × orders of the window) rows.
 */
import type { Ctx } from '../../kernel/context'
import { transaction } from '../../kernel/write'
import { DAY_MS } from '../../lib/time'
import {
  countUnopened,
  isOpened,
  lastOrderEventId,
  markOpened,
  memberSinceOf,
  openedPairs,
  type NewParams,
} from './sql'

export const NEW_FOR_MS = 30 * DAY_MS

/** Whose "new" marks a read shows: the person's id and the earliest creation time still new to them. */
export interface Viewer {
  userId: string
  /** Orders created at or after this are new to the person unless opened. */
  since: number
}

/** Member-since of a person in a store (ms), or undefined when they are not a member. */
export function memberSince(ctx: Ctx, userId: string): number | undefined {
  return memberSinceOf(ctx.db.$client, ctx.store.id, userId)
}

/** The viewer the ctx acts for: a person of the panel; an API key or the system sees no "new" marks. */
export function viewerOf(
  ctx: Ctx,
  joined = ctx.actor.kind === 'user' ? memberSince(ctx, ctx.actor.userId) : undefined,
): Viewer | undefined {
  if (ctx.actor.kind !== 'user' || joined === undefined) return undefined
  return { userId: ctx.actor.userId, since: Math.max(joined, ctx.clock.now() - NEW_FOR_MS) }
}

/** The "new" test's parameters for a viewer (sql/inbox.ts): with none, no row is new (a `since` no order reaches). */
export const isNewParams = (v: Viewer | undefined): NewParams =>
  v ? [v.since, v.userId] : [Number.MAX_SAFE_INTEGER, '']

/** Which of `orderIds` each person has opened: order id → user ids (the live stream's per-person rows). */
export function openedBy(ctx: Ctx, orderIds: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  if (orderIds.length === 0) return out
  for (const r of openedPairs(ctx.db.$client, orderIds)) {
    const set = out.get(r.o)
    if (set) set.add(r.u)
    else out.set(r.o, new Set([r.u]))
  }
  return out
}

/**
 * Marks the store's order opened by the ctx's person, and prunes that person's marks of orders
 * past the window. Not a change of the order (no event, no cached read drops): a read receipt.
 * An order the person has opened before is not written again: a page opened again (a reload,
 * each move made on it) would otherwise commit a transaction for nothing (docs/decisions/029);
 * the pruning waits for their next first opening. Two first openings at once both write; the
 * insert ignores the second.
 */
export function markOrderSeen({ ctx, input: { orderId } }: { ctx: Ctx; input: { orderId: string } }): void {
  if (ctx.actor.kind !== 'user') return
  const userId = ctx.actor.userId
  if (isOpened(ctx.db.$client, orderId, userId)) return
  const now = ctx.clock.now()
  transaction(ctx.db, () => markOpened(ctx.db.$client, ctx.store.id, orderId, userId, now - NEW_FOR_MS))
}

/** The most unseen orders counted: a badge shows "99+" past it. */
export const UNSEEN_CAP = 100

/** What a panel page's alerts start from (the count and the stream's resume point, read together). */
export interface Unseen {
  /** The orders new to the person (the inbox's "New" marks), at most UNSEEN_CAP. */
  count: number
  /** The order log's head when the count was read: the page's stream resumes after it. */
  after: number
}

/**
 * The person's unseen orders: new to them exactly as the inbox marks them (placed since they joined,
 * within NEW_FOR_MS, not opened by them), with the order log's head in the same read transaction,
 * so an order committed around the page's read is either in the count or in the stream, never both
 * nor neither. Undefined for anyone who is not a person of the store.
 */
export function unseenOrders(ctx: Ctx): Unseen | undefined {
  const viewer = viewerOf(ctx)
  if (!viewer) return undefined
  const client = ctx.db.$client
  return client.transaction(() => ({
    count: countUnopened(client, ctx.store.id, viewer.since, viewer.userId, UNSEEN_CAP),
    after: lastOrderEventId(client),
  }))()
}
