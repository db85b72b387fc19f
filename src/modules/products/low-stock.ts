/**
 * The low-stock mark, and the event a stock edit emits when it takes a tracked item to the mark:
 * `stock.low` is no webhook event (the catalogue leaves it out); it only tells the push queue,
 * which announces it to the people who chose low stock. An order's taking is announced from the
 * order's own event instead (it names the items it took).
 */

/** A tracked item with this many units or fewer is low on stock (the list's mark, the dashboard's list). */
export const LOW_STOCK = 5

declare module '../../kernel/events' {
  interface EventMap {
    'stock.low': { productId: string; variantId: string | null }
  }
}

/** From above the mark to it or below: told once per crossing (starting to track at a low count is no crossing). */
export const crossesLowStock = (before: number | null, after: number | null | undefined): boolean =>
  before !== null && before > LOW_STOCK && after !== null && after !== undefined && after <= LOW_STOCK
