/** The orders module's rows, for code outside it (adapters import nothing from db/schema). */
export type { Order as OrderRow, OrderItem as OrderItemRow } from '../../db/schema'
export { ORDER_STATUSES } from '../../db/schema'
