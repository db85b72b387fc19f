/** The customers pages (English). */
export const customers = {
  colSpent: 'Total spent',
  colLastOrder: 'Last order',
  noCustomers: 'No customers yet.',
  noCustomerMatch: 'No customers match.',
  firstOrder: 'First order',
}
