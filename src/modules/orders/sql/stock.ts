/**
 * Inventory's SQL (stock.ts), on the order transaction's connection. Takes are guarded
 * decrements: the WHERE clause is the check, so stock can't pass below 0 whoever else is writing
 * (another process on the same file included); no read-then-write.
 */
import type { Database } from 'bun:sqlite'

export type StockTable = 'variants' | 'products'

const TAKE = {
  variants: 'UPDATE variants SET stock = stock - ?1 WHERE id = ?2 AND stock >= ?1',
  products: 'UPDATE products SET stock = stock - ?1 WHERE id = ?2 AND stock >= ?1',
} as const
const LEFT = {
  variants: 'SELECT stock FROM variants WHERE id = ?',
  products: 'SELECT stock FROM products WHERE id = ?',
} as const

/** Takes `quantity` units of a tracked item; false when fewer are left. */
export const takeUnits = (db: Database, table: StockTable, id: string, quantity: number): boolean =>
  db.query(TAKE[table]).run(quantity, id).changes === 1

/** The units left of an item (0 when it is gone). */
export const unitsLeft = (db: Database, table: StockTable, id: string): number =>
  db.query<{ stock: number | null }, [string]>(LEFT[table]).get(id)?.stock ?? 0

/** The products whose units the order took. */
export const productsWithTakenStock = (db: Database, orderId: string): string[] =>
  db
    .query<{ id: string }, [string]>(
      'SELECT DISTINCT product_id AS id FROM order_items WHERE order_id = ? AND stock_taken = 1',
    )
    .all(orderId)
    .map((r) => r.id)

/** Puts back every unit the order took; an item no longer tracked stays untracked. */
export function putBackUnits(db: Database, orderId: string): void {
  db.query(
    `UPDATE variants SET stock = stock + (SELECT sum(quantity) FROM order_items i WHERE i.order_id = ?1
    AND i.variant_id = variants.id AND i.stock_taken = 1)
      WHERE id IN (SELECT variant_id FROM order_items WHERE order_id = ?1 AND stock_taken = 1
      AND variant_id IS NOT NULL) AND stock IS NOT NULL`,
  ).run(orderId)
  db.query(
    `UPDATE products SET stock = stock + (SELECT sum(quantity) FROM order_items i WHERE i.order_id = ?1
    AND i.product_id = products.id AND i.variant_id IS NULL AND i.stock_taken = 1)
      WHERE id IN (SELECT product_id FROM order_items WHERE order_id = ?1 AND stock_taken = 1 AND variant_id IS NULL)
      AND stock IS NOT NULL`,
  ).run(orderId)
}
