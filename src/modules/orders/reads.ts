/**
 * The orders module's read verbs for code outside it: the panel's order page and live feed,
 * the customer detail, the store summary. Each says which context it takes.
 */
import type { Fragments } from '../../db/fragments'
import type { Ctx, OperatorCtx } from '../../kernel/context'
import type { OrderItem } from '../../db/schema'
import { orderFragments } from './fragments'
import {
  countOrders,
  itemsOf,
  lastOrderEventId,
  orderEventsAfter,
  pageOfOrderIds,
  pageOfOrders,
  statusTokenOf,
  storeOrderEventsAfter,
  type OrderEventRow,
} from './sql'
import { listViews, type OrderListView } from './views'

/** An order's lines (the order was looked up in the ctx's store). Takes a store actor's `Ctx`. */
export function orderItems({ ctx, input }: { ctx: Ctx; input: { orderId: string } }): OrderItem[] {
  return itemsOf(ctx.db.$client, [input.orderId]).get(input.orderId) ?? []
}

/** The token of an order's public status page, if it has one. Takes a store actor's `Ctx`. */
export function orderStatusToken({ ctx, input }: { ctx: Ctx; input: { orderId: string } }): string | undefined {
  return statusTokenOf(ctx.db.$client, input.orderId)
}

/** How many orders the ctx's store holds. Takes a store actor's `Ctx`. */
export function orderCount({ ctx }: { ctx: Ctx }): number {
  return countOrders(ctx.db, ctx.store.id)
}

/** The newest order event's id across all stores (0 with none): where a live feed starts. Takes the operator's ctx. */
export function latestOrderEventId({ ctx }: { ctx: Pick<OperatorCtx, 'db'> }): number {
  return lastOrderEventId(ctx.db.$client)
}

/** Every store's order events after `after`, oldest first (the live feed's poll). Takes the operator's ctx. */
export function orderEventsSince({
  ctx,
  input,
}: {
  ctx: Pick<OperatorCtx, 'db'>
  input: { after: number; limit: number }
}): OrderEventRow[] {
  return orderEventsAfter(ctx.db.$client, input.after, input.limit)
}

/** The ctx's store's order events after `after` (a stream resuming). Takes a store actor's `Ctx`. */
export function storeOrderEventsSince({
  ctx,
  input,
}: {
  ctx: Ctx
  input: { after: number; limit: number }
}): OrderEventRow[] {
  return storeOrderEventsAfter(ctx.db.$client, ctx.store.id, input.after, input.limit)
}

interface CustomerPage {
  customerId: string
  limit: number
  offset: number
}

/** One page of a customer's orders in list form, newest first. Takes a store actor's `Ctx`. */
export function customerOrders({ ctx, input }: { ctx: Ctx; input: CustomerPage }): OrderListView[] {
  return listViews(ctx.db, pageOfOrders(ctx.db, { customerId: input.customerId }, input.limit, input.offset))
}

/** The same page as cached JSON fragments (orders/fragments.ts). Takes a store actor's `Ctx`. */
export function customerOrderFragments({
  ctx,
  input,
  cache,
}: {
  ctx: Ctx
  input: CustomerPage
  cache: Fragments
}): string[] {
  const ids = pageOfOrderIds(ctx.db, { customerId: input.customerId }, input.limit, input.offset)
  return orderFragments(ctx.db.$client, ctx.store.id, ids, cache)
}
