/**
 * What one read of the order log sends a stream (live.ts): each order once, with its latest
 * event, and at most MAX_ROWS orders — the newest; the older new orders of a burst are only
 * counted. So a stream's write per read stays small however many orders a second its store takes.
 */
import type { OrderEventRow } from '../../../modules/orders'

export const MAX_ROWS = 10

export interface Batch {
  /** One entry per order, in event order: its latest event, and whether the batch created it. */
  sent: { event: OrderEventRow; created: boolean }[]
  /** New orders of the batch left out (beyond MAX_ROWS). */
  skipped: number
  /** The batch's last event id. */
  last: number
}

/** Each order's latest event of `events` (which created it, if one did); the MAX_ROWS newest orders. */
export function latestPerOrder(events: OrderEventRow[]): Batch {
  const byOrder = new Map<string, { event: OrderEventRow; created: boolean }>()
  for (const e of events) {
    const seen = byOrder.get(e.orderId)
    byOrder.delete(e.orderId) // re-inserted last: the map keeps the orders in the order of their latest event
    byOrder.set(e.orderId, { event: e, created: (seen?.created ?? false) || e.previous === null })
  }
  const all = [...byOrder.values()]
  const sent = all.slice(-MAX_ROWS)
  const skipped = all.slice(0, all.length - sent.length).filter((x) => x.created).length
  return { sent, skipped, last: events[events.length - 1]!.id }
}
