/** The Settings page and its WhatsApp message preview (Spanish). */
import type { Words } from '../shape'

export const settings: Words['settings'] = {
  storeName: 'Nombre de la tienda',
  timezone: 'Zona horaria',
  whatsappNumber: 'Número de WhatsApp',
  whatsappTemplate: 'Plantilla del mensaje de WhatsApp',
  templateHint:
    'Marcadores: {tienda}, {nombre}, {pedido}, {productos}, {envio}, {descuento}, {total}, {direccion}, ' +
    '{status_url} (también valen los nombres en inglés y portugués). Déjala vacía para usar la predeterminada.',
  preview: 'Vista previa',
  previewTitle: 'Vista previa del mensaje (pedido de ejemplo)',
  sampleCustomer: 'Ana Silva',
  sampleLine1: 'Café en grano 1 kg',
  sampleLine2: 'Taza',
  sampleShipping: 'Mensajería',
  sampleAddress: 'Calle del Jardín 12, Bogotá',
  storeLanguage: 'Idioma de la tienda',
  currency: 'Moneda',
  currencyHint: 'Código ISO 4217, p. ej. ARS.',
  published: 'Publicada',
  maintenance: 'Modo mantenimiento',
  pendingTtl: 'Cancelar pedidos pendientes después de (horas)',
  pendingTtlHint: '0 = nunca.',
  timezoneHint:
    'Donde está la tienda, p. ej. America/Bogota: el panel, la página del pedido del cliente y las cifras diarias ' +
    'usan su hora.',
  timezoneInvalid: 'Escribe el nombre de una zona horaria, como America/Bogota o Europe/Madrid.',
  showStockCount: 'Mostrar el stock en la tienda',
  viewShop: 'Ver la tienda',
}
