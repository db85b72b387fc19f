/**
 * Inventory on the order path. `stock` is null for an untracked item
 * (never refused, never counted) and a non-negative count otherwise. Both functions run inside
 * the transaction that writes the order or its status, on that transaction's connection, so a
 * refused order leaves no units taken and a cancellation can't commit without its units back.
 */
import type { Database } from 'bun:sqlite'
import type { Fx } from '../../kernel/write'
import { Conflict } from '../../lib/errors'
import { productsWithTakenStock, putBackUnits, takeUnits, unitsLeft, type StockTable } from './sql/stock'

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

/**
 * Takes the units of every tracked line; throws 409 OUT_OF_STOCK naming the first line of an
 * item that is short. Lines naming the same item add up. The caller's savepoint undoes the
 * units already taken for earlier lines when a later one is short.
 */
export function takeStock(db: Database, fx: Fx, lines: readonly StockLine[]): void {
  // Names the products whose stock it changes (fx), so only their cached views drop (kernel/write.ts).
  fx.productsChanged(lines.filter((l) => l.stock !== null).map((l) => l.productId))
  const wanted = new Map<string, { table: StockTable; id: string; quantity: number; position: number }>()
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
    if (takeUnits(db, w.table, w.id, w.quantity)) continue
    throw new OutOfStock(
      `items[${w.position}].${w.table === 'variants' ? 'variantId' : 'productId'}`,
      unitsLeft(db, w.table, w.id),
    )
  }
}

/**
 * Puts back the units an order took (its items with `stock_taken`), for a cancellation. An
 * item that is no longer tracked stays untracked.
 */
export function restoreStock(db: Database, fx: Fx, orderId: string): void {
  fx.productsChanged(productsWithTakenStock(db, orderId))
  putBackUnits(db, orderId)
}
