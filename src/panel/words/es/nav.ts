/** Each page's name: its link in the menu, its title and its heading (Spanish). */
import type { Words } from '../shape'

export const nav: Words['nav'] = {
  dashboard: 'Inicio',
  orders: 'Pedidos',
  products: 'Productos',
  categories: 'Categorías',
  discounts: 'Descuentos',
  shipping: 'Envíos',
  reviews: 'Reseñas',
  customers: 'Clientes',
  settings: 'Ajustes',
  team: 'Equipo',
  keys: 'Claves de API',
  webhooks: 'Webhooks',
  activity: 'Actividad',
  account: 'Cuenta',
}
