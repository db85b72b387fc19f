/**
 * The checkout's SQL, as raw bun:sqlite statements on the transaction's connection: building
 * and compiling the ~12 Drizzle queries of one order cost more than the whole HTTP stack, while
 * bun:sqlite caches each compiled text per connection (docs/decisions/001).
 * Row types come from the schema; column lists of the inserts come from the table definitions.
 */
import type { Database, SQLQueryBindings } from 'bun:sqlite'
import { getTableColumns, type Table } from 'drizzle-orm'
import {
  type idempotencyKeys,
  orderItems,
  orders,
  type Discount,
  type Order,
  type OrderItem,
  type Product,
  type ShippingOption,
  type Variant,
} from '../../../db/schema'
import { perCount, placeholders } from '../../../db/sql'

/** A row as raw SQL returns it: booleans are 0/1. */
type Raw<T> = { [K in keyof T]: T[K] extends boolean ? number : T[K] }

export type VariantRow = Raw<
  Pick<Variant, 'id' | 'name' | 'price' | 'isActive' | 'productId' | 'stock'> & {
    productName: Product['name']
    storeId: Product['storeId']
    productActive: Product['isActive']
    deletedAt: Product['deletedAt']
  }
>
export type ProductRow = Raw<
  Pick<Product, 'id' | 'name' | 'price' | 'storeId' | 'isActive' | 'deletedAt' | 'stock'> & { hasVariants: boolean }
>
export type ShippingRow = Raw<Pick<ShippingOption, 'id' | 'storeId' | 'name' | 'price' | 'isActive'>>
export type DiscountRow = Raw<
  Pick<
    Discount,
    'id' | 'code' | 'type' | 'value' | 'minOrderAmount' | 'maxUses' | 'usedCount' | 'expiresAt' | 'isActive'
  >
>

// Orders have 1–100 lines: the lookups' and the items insert's texts are built once per count (db/sql.ts perCount).
const variantLookup = perCount(
  (n) => `SELECT v.id, v.name, v.price, v.is_active AS isActive, p.id AS productId, p.name AS productName,
  p.store_id AS storeId,
                 p.is_active AS productActive, p.deleted_at AS deletedAt, v.stock
            FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id IN (${placeholders(n)})`,
)
const productLookup = perCount(
  (n) => `SELECT id, name, price, store_id AS storeId, is_active AS isActive, deleted_at AS deletedAt, stock,
                 EXISTS (SELECT 1 FROM variants WHERE product_id = products.id AND is_active = 1) AS hasVariants
            FROM products WHERE id IN (${placeholders(n)})`,
)

/**
 * Every column of `table`, in definition order: the SQL names, and a function that lists a
 * row's values in that order. The function is compiled once from the column keys (plain
 * property reads, `[r.id, r.storeId, …]`): reading the keys in a loop cost the checkout a few
 * µs per order.
 */
function columnsOf<T extends Table>(table: T) {
  const cols = Object.entries(getTableColumns(table))
  const values = new Function('r', `return [${cols.map(([k]) => `r[${JSON.stringify(k)}]`).join(', ')}]`) as (
    row: T['$inferSelect'],
  ) => unknown[]
  return { names: cols.map(([, c]) => c.name), values }
}
const ORDER = columnsOf(orders)
const ITEM = columnsOf(orderItems)
const INSERT_ORDER = `INSERT INTO orders (${ORDER.names.join(', ')}) VALUES (${placeholders(ORDER.names.length)})`
const ITEM_ROW = `(${placeholders(ITEM.names.length)})`
const insertItemsSql = perCount(
  (n) =>
    `INSERT INTO order_items (${ITEM.names.join(', ')}) VALUES ${Array.from({ length: n }, () => ITEM_ROW).join(', ')}`,
)

export const variantsByIds = (db: Database, ids: string[]): VariantRow[] =>
  ids.length ? db.query<VariantRow, string[]>(variantLookup(ids.length)).all(...ids) : []

export const productsByIds = (db: Database, ids: string[]): ProductRow[] =>
  ids.length ? db.query<ProductRow, string[]>(productLookup(ids.length)).all(...ids) : []

export const shippingById = (db: Database, id: string): ShippingRow | null =>
  db
    .query<ShippingRow, [string]>(
      'SELECT id, store_id AS storeId, name, price, is_active AS isActive FROM shipping_options WHERE id = ?',
    )
    .get(id)

export const discountByCode = (db: Database, storeId: string, codeKey: string): DiscountRow | null =>
  db
    .query<DiscountRow, [string, string]>(
      `SELECT id, code, type, value, min_order_amount AS minOrderAmount, max_uses AS maxUses, used_count AS usedCount,
              expires_at AS expiresAt, is_active AS isActive
         FROM discounts WHERE store_id = ? AND code_key = ?`,
    )
    .get(storeId, codeKey)

/**
 * An order of this customer with this dedup hash created after `since`. The hash includes the
 * phone, so such an order is one of the customer's (store, phone), found through the customer's
 * orders by time (`orders_customer_created_idx`): a dedup index of its own cost every order a
 * page of the WAL at a random place (decision 010).
 */
export const recentDuplicate = (db: Database, customerId: string, hash: string, since: number): boolean =>
  db
    .query('SELECT 1 FROM orders WHERE customer_id = ? AND created_at > ? AND dedup_hash = ? LIMIT 1')
    .get(customerId, since, hash) !== null

/** Guarded increment: usedCount can never pass maxUses, whoever else is checking out. False when exhausted. */
export const useDiscount = (db: Database, id: string): boolean =>
  db
    .query(
      'UPDATE discounts SET used_count = used_count + 1 WHERE id = ? AND (max_uses IS NULL OR used_count < max_uses)',
    )
    .run(id).changes > 0

/** The store's next order number. RETURNING through .all(): a raw .get() would leave the statement un-reset. */
export const nextOrderSeq = (db: Database, storeId: string): number =>
  db
    .query<{ seq: number }, [string]>(
      'UPDATE stores SET order_seq = order_seq + 1 WHERE id = ? RETURNING order_seq AS seq',
    )
    .all(storeId)[0]!.seq

// The customer's order figures (orders_count, total_spent, first/last order) follow its
// orders by trigger (drizzle/0009), like order_counts. A later order never overwrites the
// name or address (anyone who knows a phone number could otherwise rewrite a customer; each
// order keeps its own): the record keeps the first and an address only fills a blank one.
// updated_at still moves: the order figures changed, and updatedSince syncs them.

/** A customer's first order: its record. */
export function insertCustomer(
  db: Database,
  c: { id: string; storeId: string; name: string; phone: string; address: string | null; now: number },
): void {
  db.query(
    'INSERT INTO customers (id, store_id, name, phone, address, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(c.id, c.storeId, c.name, c.phone, c.address, c.now, c.now)
}

/** A returning customer's order: an address fills a blank one, and the record is updated now. */
export function touchCustomer(db: Database, id: string, address: string | null, now: number): void {
  db.query('UPDATE customers SET address = coalesce(address, ?), updated_at = ? WHERE id = ?').run(address, now, id)
}

export function insertOrder(db: Database, order: Order): void {
  db.query(INSERT_ORDER).run(...(ORDER.values(order) as SQLQueryBindings[]))
}

export function insertItems(db: Database, items: OrderItem[]): void {
  db.query(insertItemsSql(items.length)).run(...(items.flatMap(ITEM.values) as SQLQueryBindings[]))
}

type IdempotencyRow = typeof idempotencyKeys.$inferSelect

/** The stored answer for (store, key) recorded after `since`. */
export const replayOf = (
  db: Database,
  storeId: string,
  key: string,
  since: number,
): Pick<IdempotencyRow, 'requestHash' | 'responseStatus' | 'responseBody'> | null =>
  db
    .query<Pick<IdempotencyRow, 'requestHash' | 'responseStatus' | 'responseBody'>, [string, string, number]>(
      'SELECT request_hash AS requestHash, response_status AS responseStatus, ' +
        'response_body AS responseBody FROM idempotency_keys WHERE store_id = ? AND key = ? ' +
        'AND created_at > ?',
    )
    .get(storeId, key, since)

/** Records a 201 for its key; an expired row the prune job hasn't removed yet is simply replaced. */
export function saveReplay(db: Database, r: IdempotencyRow): void {
  db.query(
    `INSERT INTO idempotency_keys (store_id, key, request_hash, response_status, response_body, created_at)
    VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (store_id, key) DO UPDATE SET request_hash = excluded.request_hash,
     response_status = excluded.response_status,
       response_body = excluded.response_body, created_at = excluded.created_at`,
  ).run(r.storeId, r.key, r.requestHash, r.responseStatus, r.responseBody, r.createdAt)
}

/**
 * From here to `indexNamesAfter`, the name index's trigger leaves new orders alone (drizzle/0024:
 * while `order_names_batch` has its row). Returns the newest order's rowid so far: the batch's
 * orders are the ones after it (orders' rowids are handed out past the largest).
 */
export function deferNames(db: Database): number {
  const after = db.query<{ r: number }, []>('SELECT coalesce(max(rowid), 0) AS r FROM orders').get()!.r
  db.query('INSERT INTO order_names_batch (open) VALUES (1)').run()
  return after
}

/** The names of the orders after `after` into the index, in one statement, and the trigger back on. */
export function indexNamesAfter(db: Database, after: number): void {
  db.query(
    'INSERT INTO order_names (rowid, name, store_id) SELECT rowid, customer_name, store_id FROM orders WHERE rowid > ?',
  ).run(after)
  db.query('DELETE FROM order_names_batch').run()
}
