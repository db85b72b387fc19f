/** The customers pages (Portuguese). */
import type { Words } from '../shape'

export const customers: Words['customers'] = {
  colSpent: 'Total gasto',
  colLastOrder: 'Último pedido',
  noCustomers: 'Ainda não há clientes.',
  noCustomerMatch: 'Nenhum cliente corresponde.',
  firstOrder: 'Primeiro pedido',
}
