/**
 * The seller's orders inbox (issue 20): a page of orders newest first, filtered by status and
 * searched by order number, phone (any format, matched as E.164 through the customer's
 * (store, phone) index) or name, each row with the "new" marker of the person reading (seen.ts);
 * the commit-ordered event log the live inbox follows (`order_events`, kept by triggers,
 * drizzle/0014) and an order's status history with who moved it (the activity line written in
 * the same transaction, same store and time).
 */
import type { Database } from 'bun:sqlite'
import type { Ctx } from '../../kernel/context'
import type { OrderStatus } from '../../db/schema'
import { toE164 } from '../../lib/phone'
import { countOrders } from './sql'
import { IS_NEW, isNewParams, viewerOf, type Viewer } from './seen'

export interface InboxRow {
  id: string
  orderNumber: string
  status: OrderStatus
  customerName: string
  customerPhone: string
  /** Minor units of `currency`. */
  total: number
  currency: string
  createdAt: number
  isNew: boolean
}

export interface InboxQuery {
  status?: OrderStatus
  q?: string
  limit: number
  offset: number
}

const ROW = `o.id, o.order_number AS orderNumber, o.status, o.customer_name AS customerName, o.customer_phone AS customerPhone, o.total, o.currency, o.created_at AS createdAt, ${IS_NEW}`

/** What a search text means: an order number, a phone (E.164) or part of a name. */
export function searchOf(raw: string | undefined): { number?: string; phone?: string; name?: string } | undefined {
  const q = (raw ?? '').trim().slice(0, 100)
  if (!q) return undefined
  const num = /^(?:ord)?[-\s#]*(\d{1,9})$/i.exec(q)
  const digits = q.replace(/\D/g, '')
  if (num && digits.length <= 6) return { number: `ORD-${num[1]!.padStart(6, '0')}` }
  if (/^[+\d\s().-]+$/.test(q) && digits.length >= 7) {
    const phone = toE164(q) ?? toE164(`+${digits}`)
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
function namedOrders(client: Database, storeId: string, name: string): number[] | undefined {
  if ([...name].length < 3) return undefined
  const rows = client
    .query<{ r: number }, [string, string, number]>('SELECT rowid AS r FROM order_names WHERE order_names MATCH ? AND store_id = ? LIMIT ?')
    .all(`"${name.replace(/"/g, '""')}"`, storeId, NAME_CAP + 1)
  return rows.length > NAME_CAP ? undefined : rows.map((x) => x.r)
}

/**
 * One page of the inbox. Without a search, `total` is the store's (or status's) count from the
 * counters; a search reads one row past the page instead of counting every match, and `total`
 * is what is known: the rows up to this page, plus one when another page follows.
 * A phone finds its customer first (the (store, phone) index), then walks that customer's orders
 * newest first (orders_customer_created_idx) — not the store's whole history.
 */
export function inboxPage({ ctx, input: query }: { ctx: Ctx; input: InboxQuery }): { rows: InboxRow[]; total: number; more: boolean } {
  const client = ctx.db.$client
  const search = searchOf(query.q)
  const where: string[] = []
  const params: (string | number)[] = []
  if (search?.phone) {
    const customer = client.query<{ id: string }, [string, string]>('SELECT id FROM customers WHERE store_id = ? AND phone = ?').get(ctx.store.id, search.phone)
    if (!customer) return { rows: [], total: 0, more: false }
    // `+` keeps the planner on the customer's index rather than the store's.
    where.push('o.customer_id = ?', '+o.store_id = ?'), params.push(customer.id, ctx.store.id)
    if (query.status) where.push('+o.status = ?'), params.push(query.status)
  } else {
    where.push('o.store_id = ?'), params.push(ctx.store.id)
    if (query.status) where.push('o.status = ?'), params.push(query.status)
  }
  if (search?.number) where.push('o.order_number = ?'), params.push(search.number)
  if (search?.name) {
    const ids = namedOrders(client, ctx.store.id, search.name)
    if (ids) {
      // At most NAME_CAP rows by rowid; `+` keeps the planner off the store's created_at index.
      where[0] = '+o.store_id = ?'
      where.push('o.rowid IN (SELECT value FROM json_each(?))'), params.push(JSON.stringify(ids))
    } else where.push("o.customer_name LIKE ? ESCAPE '\\'"), params.push(likeOf(search.name))
  }
  const limit = search ? query.limit + 1 : query.limit
  const rows = client
    .query<InboxRow & { isNew: number | boolean }, (string | number)[]>(
      `SELECT ${ROW} FROM orders o WHERE ${where.join(' AND ')} ORDER BY o.created_at DESC, o.rowid DESC LIMIT ? OFFSET ?`,
    )
    .all(...isNewParams(viewerOf(ctx)), ...params, limit, query.offset)
    .map((r) => ({ ...r, isNew: !!r.isNew }))
  if (!search) {
    const total = countOrders(ctx.db, ctx.store.id, query.status)
    return { rows, total, more: query.offset + rows.length < total }
  }
  const more = rows.length > query.limit
  if (more) rows.pop()
  return { rows, total: query.offset + rows.length + (more ? 1 : 0), more }
}

/** The inbox rows of these orders of the ctx's store, with `viewer`'s "new" marks (none without one). */
export function inboxRows({ ctx, input: { ids, viewer } }: { ctx: Ctx; input: { ids: readonly string[]; viewer?: Viewer } }): InboxRow[] {
  if (ids.length === 0) return []
  return ctx.db.$client
    .query<InboxRow & { isNew: number | boolean }, [number, string, string, string]>(
      // `+` keeps the planner on the ids' primary key: without it SQLite walks the store's orders (store_id index) and filters.
      `SELECT ${ROW} FROM orders o WHERE +o.store_id = ? AND o.id IN (SELECT value FROM json_each(?))`,
    )
    .all(...isNewParams(viewer), ctx.store.id, JSON.stringify(ids))
    .map((r) => ({ ...r, isNew: !!r.isNew }))
}

export interface OrderEventRow {
  id: number
  storeId: string
  orderId: string
  status: OrderStatus
  previous: OrderStatus | null
}

const EVENT = 'id, store_id AS storeId, order_id AS orderId, status, previous'

/** Events of every store after `after`, in commit order (the live inbox's one cursor). */
export const orderEventsAfter = (client: Database, after: number, limit = 1000): OrderEventRow[] =>
  client.query<OrderEventRow, [number, number]>(`SELECT ${EVENT} FROM order_events WHERE id > ? ORDER BY id LIMIT ?`).all(after, limit)

/** One store's events after `after` (a stream resuming from its Last-Event-ID). */
export const storeOrderEventsAfter = (client: Database, storeId: string, after: number, limit = 500): OrderEventRow[] =>
  client.query<OrderEventRow, [string, number, number]>(`SELECT ${EVENT} FROM order_events WHERE store_id = ? AND id > ? ORDER BY id LIMIT ?`).all(storeId, after, limit)

/** The newest event id (0 when none). */
export const lastOrderEventId = (client: Database): number => client.query<{ n: number | null }, []>('SELECT max(id) AS n FROM order_events').get()!.n ?? 0

export interface HistoryLine {
  status: OrderStatus
  previous: OrderStatus | null
  at: number
  /** `user:<id>`, `key:<prefix>`, `cli`, `system`; null: the customer (creation) or not recorded. */
  actor: string | null
  /** The person's name or e-mail when the actor is a user of the panel. */
  person: string | null
}

/**
 * The order's status history, oldest first, with who made each move: the first activity line
 * naming the order written in the move's transaction (write() records it there, a moment after
 * the move's own clock reading, hence the window).
 */
export function orderHistory({ ctx, input: { orderId } }: { ctx: Ctx; input: { orderId: string } }): HistoryLine[] {
  return ctx.db.$client
    .query<HistoryLine, [string, string]>(
      `SELECT e.status, e.previous, e.at, a.actor, coalesce(nullif(u.name, ''), u.email) AS person
         FROM order_events e
         LEFT JOIN activity a ON a.seq = (SELECT seq FROM activity WHERE store_id = e.store_id AND at BETWEEN e.at AND e.at + 1000 AND record_id = e.order_id ORDER BY at, seq LIMIT 1)
         LEFT JOIN users u ON a.actor = 'user:' || u.id
        WHERE e.order_id = ? AND e.store_id = ? ORDER BY e.id`,
    )
    .all(orderId, ctx.store.id)
}
