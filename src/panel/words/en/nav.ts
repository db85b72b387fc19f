/** Each page's name: its link in the menu, its title and its heading (English). */
export const nav = {
  dashboard: 'Dashboard',
  orders: 'Orders',
  products: 'Products',
  categories: 'Categories',
  discounts: 'Discounts',
  shipping: 'Shipping',
  reviews: 'Reviews',
  customers: 'Customers',
  settings: 'Settings',
  team: 'Team',
  keys: 'API keys',
  webhooks: 'Webhooks',
  activity: 'Activity',
  account: 'Account',
}
