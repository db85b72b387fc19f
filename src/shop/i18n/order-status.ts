/** The customer's order status page's words, in the store's language (es | en | pt). */
import type { OrderStatus } from '../../modules/orders'
import { ORDER_LINE_WORDS } from './order-lines'

const en = {
  title: (number: string) => `Order ${number}`,
  intro: 'Here is where your order stands. This page updates when the shop moves it.',
  status: {
    pending: 'Received',
    confirmed: 'Confirmed',
    shipped: 'On its way',
    delivered: 'Delivered',
    cancelled: 'Cancelled',
  } as Record<OrderStatus, string>,
  now: 'Status',
  timeline: 'History',
  ...ORDER_LINE_WORDS.en,
  follow: 'Follow your order',
  refresh: 'Refresh',
  tracking: 'Tracking',
  trackingNumber: 'Tracking number',
  trackingLink: 'Follow the parcel',
  notFoundTitle: 'Order not found',
  notFoundText: 'This link does not lead to an order. Check that you copied the whole link.',
}
export type OrderStatusWords = typeof en

const es: OrderStatusWords = {
  title: (number) => `Pedido ${number}`,
  intro: 'Así va tu pedido. Esta página se actualiza cuando la tienda lo mueve.',
  status: {
    pending: 'Recibido',
    confirmed: 'Confirmado',
    shipped: 'En camino',
    delivered: 'Entregado',
    cancelled: 'Cancelado',
  },
  now: 'Estado',
  timeline: 'Historial',
  ...ORDER_LINE_WORDS.es,
  follow: 'Sigue tu pedido',
  refresh: 'Actualizar',
  tracking: 'Seguimiento',
  trackingNumber: 'Número de seguimiento',
  trackingLink: 'Sigue el paquete',
  notFoundTitle: 'Pedido no encontrado',
  notFoundText: 'Este enlace no lleva a ningún pedido. Revisa que copiaste el enlace completo.',
}

const pt: OrderStatusWords = {
  title: (number) => `Pedido ${number}`,
  intro: 'Veja como está o seu pedido. Esta página é atualizada quando a loja o movimenta.',
  status: {
    pending: 'Recebido',
    confirmed: 'Confirmado',
    shipped: 'A caminho',
    delivered: 'Entregue',
    cancelled: 'Cancelado',
  },
  now: 'Status',
  timeline: 'Histórico',
  ...ORDER_LINE_WORDS.pt,
  follow: 'Acompanhe seu pedido',
  refresh: 'Atualizar',
  tracking: 'Rastreio',
  trackingNumber: 'Código de rastreio',
  trackingLink: 'Acompanhe o pacote',
  notFoundTitle: 'Pedido não encontrado',
  notFoundText: 'Este link não leva a nenhum pedido. Confira se copiou o link inteiro.',
}

const WORDS: Record<string, OrderStatusWords> = { en, es, pt }
export const orderStatusWords = (language: string): OrderStatusWords => WORDS[language] ?? en
