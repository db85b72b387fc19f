/**
 * What "Message on WhatsApp" and "Tell … on WhatsApp" write to the customer for an order's
 * current status: in the store's language (es | en | pt), not the person's, since the customer
 * reads it. A shipped order's message carries its tracking number and link when it has them.
 */
import type { OrderStatus } from '../../modules/orders'
import type { PanelLanguage } from '../i18n'

type Message = (name: string, number: string, total: string) => string
/** The WhatsApp message for an order's current status, in the store's language (es | en | pt). */
const MESSAGES: Record<PanelLanguage, Record<OrderStatus, Message>> = {
  en: {
    pending: (n, o, t) => `Hi ${n}, we received your order ${o} (${t}). We will confirm it shortly.`,
    confirmed: (n, o, t) =>
      `Hi ${n}, your order ${o} (${t}) is confirmed. We are preparing it and will tell you when it ships.`,
    shipped: (n, o) => `Hi ${n}, your order ${o} is on its way.`,
    delivered: (n, o) => `Hi ${n}, your order ${o} was delivered. Thank you for your purchase!`,
    cancelled: (n, o) => `Hi ${n}, your order ${o} was cancelled. Write to us if you have any questions.`,
  },
  es: {
    pending: (n, o, t) => `Hola ${n}, recibimos tu pedido ${o} (${t}). Te lo confirmamos en breve.`,
    confirmed: (n, o, t) =>
      `Hola ${n}, tu pedido ${o} (${t}) está confirmado. Lo estamos preparando y te avisamos cuando salga.`,
    shipped: (n, o) => `Hola ${n}, tu pedido ${o} está en camino.`,
    delivered: (n, o) => `Hola ${n}, tu pedido ${o} fue entregado. ¡Gracias por tu compra!`,
    cancelled: (n, o) => `Hola ${n}, tu pedido ${o} fue cancelado. Escríbenos si tienes alguna pregunta.`,
  },
  pt: {
    pending: (n, o, t) => `Olá ${n}, recebemos seu pedido ${o} (${t}). Vamos confirmá-lo em breve.`,
    confirmed: (n, o, t) =>
      `Olá ${n}, seu pedido ${o} (${t}) está confirmado. Estamos preparando e avisaremos quando for enviado.`,
    shipped: (n, o) => `Olá ${n}, seu pedido ${o} está a caminho.`,
    delivered: (n, o) => `Olá ${n}, seu pedido ${o} foi entregue. Obrigado pela compra!`,
    cancelled: (n, o) => `Olá ${n}, seu pedido ${o} foi cancelado. Fale conosco se tiver alguma dúvida.`,
  },
}

const TRACKING: Record<PanelLanguage, { number: string; link: string }> = {
  en: { number: 'Tracking number', link: 'Follow it here' },
  es: { number: 'Número de seguimiento', link: 'Síguelo aquí' },
  pt: { number: 'Código de rastreio', link: 'Acompanhe aqui' },
}

export function customerMessage(
  storeLanguage: string,
  status: OrderStatus,
  name: string,
  number: string,
  total: string,
  tracking: { number: string | null; url: string | null } = { number: null, url: null },
): string {
  const lang: PanelLanguage = storeLanguage === 'es' || storeLanguage === 'pt' ? storeLanguage : 'en'
  const text = MESSAGES[lang][status](name, number, total)
  if (status !== 'shipped' && status !== 'delivered') return text
  const t = TRACKING[lang]
  const lines = [
    tracking.number ? `${t.number}: ${tracking.number}` : '',
    tracking.url ? `${t.link}: ${tracking.url}` : '',
  ].filter(Boolean)
  return lines.length ? `${text}\n${lines.join('\n')}` : text
}
