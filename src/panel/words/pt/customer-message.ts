/**
 * What "Message on WhatsApp" writes to the customer for an order's status, with a shipped order's
 * tracking link (Portuguese). Said in the store's language, not the person's: the customer reads it.
 */
import type { Words } from '../shape'

export const customerMessage: Words['customerMessage'] = {
  pending: (n, o, t) => `Olá ${n}, recebemos seu pedido ${o} (${t}). Vamos confirmá-lo em breve.`,
  confirmed: (n, o, t) =>
    `Olá ${n}, seu pedido ${o} (${t}) está confirmado. Estamos preparando e avisaremos quando for enviado.`,
  shipped: (n, o) => `Olá ${n}, seu pedido ${o} está a caminho.`,
  delivered: (n, o) => `Olá ${n}, seu pedido ${o} foi entregue. Obrigado pela compra!`,
  cancelled: (n, o) => `Olá ${n}, seu pedido ${o} foi cancelado. Fale conosco se tiver alguma dúvida.`,
  followTracking: 'Acompanhe aqui',
}
