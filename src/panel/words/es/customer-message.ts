/**
 * What "Message on WhatsApp" writes to the customer for an order's status, with a shipped order's
 * tracking link (Spanish). Said in the store's language, not the person's: the customer reads it.
 */
import type { Words } from '../shape'

export const customerMessage: Words['customerMessage'] = {
  pending: (n, o, t) => `Hola ${n}, recibimos tu pedido ${o} (${t}). Te lo confirmamos en breve.`,
  confirmed: (n, o, t) =>
    `Hola ${n}, tu pedido ${o} (${t}) está confirmado. Lo estamos preparando y te avisamos cuando salga.`,
  shipped: (n, o) => `Hola ${n}, tu pedido ${o} está en camino.`,
  delivered: (n, o) => `Hola ${n}, tu pedido ${o} fue entregado. ¡Gracias por tu compra!`,
  cancelled: (n, o) => `Hola ${n}, tu pedido ${o} fue cancelado. Escríbenos si tienes alguna pregunta.`,
  followTracking: 'Síguelo aquí',
}
