/**
 * The seller's orders inbox: a page of orders newest first, filtered by status and
 * searched by order number, phone (any format, matched as E.164 through the customer's
 * (store, phone) index) or name, each row with the "new" marker of the person reading (seen.ts);
 * the commit-ordered event log the live inbox follows (`order_events`, kept by triggers,
 * drizzle/0014) and an order's status history with who moved it (the activity line written in
 * the same transaction, same store and time).
 */
import type { Ctx } from '../../kernel/context'
import type { OrderStatus } from '../../db/schema'
import type { CountryCode } from 'libphonenumber-js'
import { countryOf, toE164 } from '../../lib/phone'
import {
  countOrders,
  customerIdByPhone,
  historyOf,
  inboxRowsById,
  inboxRowsWhere,
  orderRowidsNamed,
  type HistoryLine,
  type InboxRow,
  type InboxWhere,
  listItemsOf,
} from './sql'
import { isNewParams, viewerOf, type Viewer } from './seen'

export type { HistoryLine, InboxItem, InboxRow, OrderEventRow } from './sql'

export interface InboxQuery {
  status?: OrderStatus
  q?: string
  limit: number
  offset: number
}

/**
 * What a search text means: an order number, a phone (E.164; written the local way, it is read
 * as a number of `country`, the store's) or part of a name.
 */
export function searchOf(
  raw: string | undefined,
  country?: CountryCode,
): { number?: string; phone?: string; name?: string } | undefined {
  const q = (raw ?? '').trim().slice(0, 100)
  if (!q) return undefined
  const num = /^(?:ord)?[-\s#]*(\d{1,9})$/i.exec(q)
  const digits = q.replace(/\D/g, '')
  if (num && digits.length <= 6) return { number: `ORD-${num[1]!.padStart(6, '0')}` }
  if (/^[+\d\s().-]+$/.test(q) && digits.length >= 7) {
    const phone = (country && !q.startsWith('+') ? toE164(q, country) : undefined) ?? toE164(q) ?? toE164(`+${digits}`)
    if (phone) return { phone }
  }
  if (num) return { number: `ORD-${num[1]!.padStart(6, '0')}` }
  // As typed: LIKE folds ASCII case itself (and lower() would not fold Í), the trigram index folds case and accents.
  return { name: q }
}

const likeOf = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Above this many matches a name is common: walking the newest orders finds a page of them sooner. */
const NAME_CAP = 300

/**
 * The rowids of the store's orders whose name contains `name`, from the trigram index
 * (drizzle/0017); undefined when the index can't answer (under 3 characters) or the name is
 * common (more than NAME_CAP matches), where the LIKE walk newest-first stops early instead.
 */
function namedOrders(ctx: Ctx, name: string): number[] | undefined {
  if ([...name].length < 3) return undefined
  const rows = orderRowidsNamed(ctx.db.$client, ctx.store.id, `"${name.replace(/"/g, '""')}"`, NAME_CAP + 1)
  return rows.length > NAME_CAP ? undefined : rows
}

/**
 * One page of the inbox. Without a search, `total` is the store's (or status's) count from the
 * counters; a search reads one row past the page instead of counting every match, and `total`
 * is what is known: the rows up to this page, plus one when another page follows.
 * A phone finds its customer first (the (store, phone) index), then walks that customer's orders
 * newest first (orders_customer_created_idx) — not the store's whole history.
 */
export function inboxPage({ ctx, input: query }: { ctx: Ctx; input: InboxQuery }): {
  rows: InboxRow[]
  total: number
  more: boolean
} {
  const search = searchOf(query.q, countryOf(ctx.store.whatsappNumber))
  const where: InboxWhere = { storeId: ctx.store.id, status: query.status, orderNumber: search?.number }
  if (search?.phone) {
    where.customerId = customerIdByPhone(ctx.db.$client, ctx.store.id, search.phone)
    if (!where.customerId) return { rows: [], total: 0, more: false }
  }
  if (search?.name) {
    const rowids = namedOrders(ctx, search.name)
    if (rowids) where.rowids = rowids
    else where.nameLike = likeOf(search.name)
  }
  const limit = search ? query.limit + 1 : query.limit
  const rows = withItems(ctx, inboxRowsWhere(ctx.db.$client, where, isNewParams(viewerOf(ctx)), limit, query.offset))
  if (!search) {
    const total = countOrders(ctx.db, ctx.store.id, query.status)
    return { rows, total, more: query.offset + rows.length < total }
  }
  const more = rows.length > query.limit
  if (more) rows.pop()
  return { rows, total: query.offset + rows.length + (more ? 1 : 0), more }
}

/** The inbox rows of these orders of the ctx's store, with `viewer`'s "new" marks (none without one). */
export function inboxRows({
  ctx,
  input: { ids, viewer },
}: {
  ctx: Ctx
  input: { ids: readonly string[]; viewer?: Viewer }
}): InboxRow[] {
  if (ids.length === 0) return []
  return withItems(ctx, inboxRowsById(ctx.db.$client, ctx.store.id, ids, isNewParams(viewer)))
}

/** The rows with their lines, read for the whole page in one statement. */
function withItems(ctx: Ctx, rows: InboxRow[]): InboxRow[] {
  const items = listItemsOf(
    ctx.db.$client,
    rows.map((r) => r.id),
  )
  for (const r of rows)
    r.items = (items.get(r.id) ?? []).map(({ quantity, productName, variantName }) => ({
      quantity,
      productName,
      variantName,
    }))
  return rows
}

/** The order's status history, oldest first, with who made each move (sql/inbox.ts historyOf). */
export function orderHistory({ ctx, input: { orderId } }: { ctx: Ctx; input: { orderId: string } }): HistoryLine[] {
  return historyOf(ctx.db.$client, ctx.store.id, orderId)
}
