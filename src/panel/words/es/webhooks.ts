/** The webhooks pages and their delivery log (Spanish). */
import type { Words } from '../shape'

export const webhooks: Words['webhooks'] = {
  addWebhook: 'Agregar webhook',
  url: 'URL',
  urlHint: 'Una dirección https pública.',
  events: 'Eventos',
  eventsRequired: 'Elige al menos un evento.',
  editWebhookOf: (url) => `Editar el webhook ${url}`,
  editWebhookTitle: (url) => `Editar el webhook a ${url}`,
  signingSecret: 'Secreto de firma',
  rotateText: (hours) =>
    `Un secreto nuevo firma desde ahora; el anterior sigue firmando a su lado durante ${hours} horas, para que tu ` +
    `receptor cambie sin perder mensajes.`,
  rotateSecret: 'Rotar el secreto',
  secretRotated: 'Tu nuevo secreto de firma',
  sendTest: 'Enviar evento de prueba',
  sendTestHint:
    'Envía un evento webhook.test solo a este destino, firmado como todos; aparece en el registro de abajo.',
  testSent: 'Un evento de prueba va en camino.',
  deliveries: 'Registro de entregas',
  viewLogOf: (url) => `Registro de entregas de ${url}`,
  webhookCreated: 'Webhook agregado',
  secretOnce: 'Su secreto de firma se muestra una sola vez: cópialo ahora.',
  secretShownOnce:
    'Este secreto se mostró una vez y no se vuelve a mostrar. Si no lo copiaste, rótalo y copia el nuevo.',
  disable: 'Desactivar',
  enable: 'Activar',
  disabled: 'Desactivado',
  deliveriesOf: (url) => `Envíos a ${url}`,
  deleteWebhook: 'Eliminar webhook',
  deleteWebhookTitle: (url) => `¿Eliminar el webhook a ${url}?`,
  deleteWebhookText: 'También se elimina su registro de envíos.',
  noWebhooks: 'Todavía no hay webhooks.',
  noDeliveries: 'Todavía no hay envíos.',
  event: 'Evento',
  attempts: 'Intentos',
  response: 'Respuesta',
  nextAttempt: 'Próximo intento',
  refreshLog: 'Actualizar el registro',
  error: 'Error',
  retry: 'Reintentar',
  retryDelivery: (id) => `Reintentar el envío ${id}`,
  retried: 'El envío se hará de nuevo ahora.',
  limitReached: (n) => `Una tienda puede tener como máximo ${n} webhooks.`,
  deliveryStatus: { pending: 'Pendiente', sending: 'Enviando', succeeded: 'Entregado', failed: 'Fallido' },
}
