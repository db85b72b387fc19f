/** Each page's name: its link in the menu, its title and its heading (Portuguese). */
import type { Words } from '../shape'

export const nav: Words['nav'] = {
  dashboard: 'Início',
  orders: 'Pedidos',
  products: 'Produtos',
  categories: 'Categorias',
  discounts: 'Descontos',
  shipping: 'Entregas',
  reviews: 'Avaliações',
  customers: 'Clientes',
  settings: 'Configurações',
  team: 'Equipe',
  keys: 'Chaves de API',
  webhooks: 'Webhooks',
  activity: 'Atividade',
  account: 'Conta',
}
