/**
 * The words of the seller's quick moves (es | en | pt), spread into the orders catalogue
 * (orders.ts): the inbox's "Confirm and message", the order page's "Tell … on WhatsApp",
 * shipping's tracking fields and the packing slip's buttons.
 */
const en = {
  confirmAndMessage: 'Confirm and message',
  tellOnWhatsApp: (name: string) => `Tell ${name} on WhatsApp`,
  shipDetails: 'Shipping details (optional)',
  trackingNumber: 'Tracking number',
  trackingUrl: 'Tracking link',
  trackingUrlHint: 'A link starting with https://',
  tracking: 'Tracking',
  trackingNumberTooLong: 'Use at most 100 characters for the tracking number.',
  trackingUrlInvalid: 'Enter a link that starts with https://, or leave it empty.',
  printSlip: 'Print',
  backToOrder: 'Back to the order',
  statusFilters: 'Show orders',
}
export type OrderDayWords = typeof en

const es: OrderDayWords = {
  confirmAndMessage: 'Confirmar y escribir',
  tellOnWhatsApp: (name) => `Avisar a ${name} por WhatsApp`,
  shipDetails: 'Datos del envío (opcional)',
  trackingNumber: 'Número de seguimiento',
  trackingUrl: 'Enlace de seguimiento',
  trackingUrlHint: 'Un enlace que empiece por https://',
  tracking: 'Seguimiento',
  trackingNumberTooLong: 'El número de seguimiento admite como máximo 100 caracteres.',
  trackingUrlInvalid: 'Escribe un enlace que empiece por https://, o déjalo vacío.',
  printSlip: 'Imprimir',
  backToOrder: 'Volver al pedido',
  statusFilters: 'Mostrar pedidos',
}

const pt: OrderDayWords = {
  confirmAndMessage: 'Confirmar e avisar',
  tellOnWhatsApp: (name) => `Avisar ${name} no WhatsApp`,
  shipDetails: 'Dados do envio (opcional)',
  trackingNumber: 'Código de rastreio',
  trackingUrl: 'Link de rastreio',
  trackingUrlHint: 'Um link que comece com https://',
  tracking: 'Rastreio',
  trackingNumberTooLong: 'O código de rastreio aceita no máximo 100 caracteres.',
  trackingUrlInvalid: 'Digite um link que comece com https://, ou deixe vazio.',
  printSlip: 'Imprimir',
  backToOrder: 'Voltar ao pedido',
  statusFilters: 'Mostrar pedidos',
}

export const ORDER_DAY_WORDS = { en, es, pt }
