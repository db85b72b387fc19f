/** The customers pages (Spanish). */
import type { Words } from '../shape'

export const customers: Words['customers'] = {
  colSpent: 'Total gastado',
  colLastOrder: 'Último pedido',
  noCustomers: 'Todavía no hay clientes.',
  noCustomerMatch: 'Ningún cliente coincide.',
  firstOrder: 'Primer pedido',
}
