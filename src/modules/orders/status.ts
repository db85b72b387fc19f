/**
 * The order status machine: pending → confirmed → shipped → delivered, and
 * cancellation from any state before delivered. Everything else — including a move to the
 * same status — is refused with 409 INVALID_STATUS_TRANSITION.
 */
import type { OrderStatus } from '../../db/schema'
import { Conflict } from '../../lib/errors'

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['shipped', 'cancelled'],
  shipped: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
}

/** The statuses an order in `from` may move to. */
export const nextStatuses = (from: OrderStatus): readonly OrderStatus[] => NEXT[from]

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to)
}

export class InvalidTransition extends Conflict {
  constructor(from: OrderStatus, to: OrderStatus) {
    super('INVALID_STATUS_TRANSITION', `An order cannot move from '${from}' to '${to}'`, { from, to })
  }
}

export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(from, to)) throw new InvalidTransition(from, to)
}
