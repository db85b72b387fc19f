/**
 * Inventory on the order path (contract "Inventory"). `stock` is null for an untracked item
 * (never refused, never counted) and a non-negative count otherwise. Both functions run inside
 * the transaction that writes the order or its status, on that transaction's connection, so a
 * refused order leaves no units taken and a cancellation can't commit without its units back.
 */
import type { Database } from 'bun:sqlite'
import type { Fx } from '../../kernel/write'
import { Conflict } from '../../lib/errors'

/** What checkout knows about a line when it takes stock: `stock` as read in the same transaction. */
export interface StockLine {
  productId: string
  variantId: string | null
  quantity: number
  stock: number | null
  position: number
}

export class OutOfStock extends Conflict {
  constructor(field: string, available: number) {
    super('OUT_OF_STOCK', `${field} asks for more units than are left (${available})`, { field, available })
  }
}

// Guarded decrements: the WHERE clause is the check, so stock can't pass below 0 whoever else
// is writing (another process on the same file included); no read-then-write.
const TAKE = {
  variants: 'UPDATE variants SET stock = stock - ?1 WHERE id = ?2 AND stock >= ?1',
  products: 'UPDATE products SET stock = stock - ?1 WHERE id = ?2 AND stock >= ?1',
} as const
const LEFT = {
  variants: 'SELECT stock FROM variants WHERE id = ?',
  products: 'SELECT stock FROM products WHERE id = ?',
} as const

/**
 * Takes the units of every tracked line; throws 409 OUT_OF_STOCK naming the first line of an
 * item that is short. Lines naming the same item add up. The caller's savepoint undoes the
 * units already taken for earlier lines when a later one is short.
 */
export function takeStock(db: Database, fx: Fx, lines: readonly StockLine[]): void {
  // Names the products whose stock it changes (fx), so only their cached views drop (kernel/write.ts).
  fx.productsChanged(lines.filter((l) => l.stock !== null).map((l) => l.productId))
  const wanted = new Map<string, { table: keyof typeof TAKE; id: string; quantity: number; position: number }>()
  for (const l of lines) {
    if (l.stock === null) continue
    const table = l.variantId ? 'variants' : 'products'
    const id = l.variantId ?? l.productId
    const key = `${table}:${id}`
    const w = wanted.get(key)
    if (w) w.quantity += l.quantity
    else wanted.set(key, { table, id, quantity: l.quantity, position: l.position })
  }
  for (const w of wanted.values()) {
    if (db.query(TAKE[w.table]).run(w.quantity, w.id).changes === 1) continue
    const left = db.query<{ stock: number | null }, [string]>(LEFT[w.table]).get(w.id)?.stock ?? 0
    throw new OutOfStock(`items[${w.position}].${w.table === 'variants' ? 'variantId' : 'productId'}`, left)
  }
}

/**
 * Puts back the units an order took (its items with `stock_taken`), for a cancellation. An
 * item that is no longer tracked stays untracked.
 */
export function restoreStock(db: Database, fx: Fx, orderId: string): void {
  const touched = db.query<{ id: string }, [string]>('SELECT DISTINCT product_id AS id FROM order_items WHERE order_id = ? AND stock_taken = 1').all(orderId)
  fx.productsChanged(touched.map((r) => r.id))
  db.query(
    `UPDATE variants SET stock = stock + (SELECT sum(quantity) FROM order_items i WHERE i.order_id = ?1 AND i.variant_id = variants.id AND i.stock_taken = 1)
      WHERE id IN (SELECT variant_id FROM order_items WHERE order_id = ?1 AND stock_taken = 1 AND variant_id IS NOT NULL) AND stock IS NOT NULL`,
  ).run(orderId)
  db.query(
    `UPDATE products SET stock = stock + (SELECT sum(quantity) FROM order_items i WHERE i.order_id = ?1 AND i.product_id = products.id AND i.variant_id IS NULL AND i.stock_taken = 1)
      WHERE id IN (SELECT product_id FROM order_items WHERE order_id = ?1 AND stock_taken = 1 AND variant_id IS NULL) AND stock IS NOT NULL`,
  ).run(orderId)
}
