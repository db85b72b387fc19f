/** Notifications on this device, the installed panel and its offline page (Spanish). */
import type { Words } from '../shape'

export const push: Words['push'] = {
  notifications: 'Notificaciones en este dispositivo',
  notificationsIntro:
    'Recibe una notificación por cada pedido nuevo en este teléfono o computadora, incluso con el panel cerrado.',
  needsScript: 'Activar las notificaciones necesita JavaScript y un navegador que las admita.',
  needsTrust:
    'Este navegador no puede activar notificaciones aquí: necesita el panel en una dirección segura de confianza ' +
    '(ver la guía del teléfono).',
  denied: 'Las notificaciones están bloqueadas para este sitio en la configuración del navegador.',
  turnOn: 'Activar',
  turnOff: 'Desactivar',
  turnedOn: 'Las notificaciones están activadas en este dispositivo.',
  turnedOff: 'Las notificaciones están desactivadas en este dispositivo.',
  sendTest: 'Enviar una notificación de prueba',
  testSent: 'Una notificación de prueba está en camino.',
  noDevicesForTest: 'Primero activa las notificaciones en un dispositivo.',
  yourDevices: 'Dispositivos que reciben notificaciones',
  noDevices: 'Ningún dispositivo recibe notificaciones todavía.',
  since: 'desde',
  turnOffDevice: (name) => `Desactivar las notificaciones en ${name}`,
  deviceOff: 'Ese dispositivo no recibirá más notificaciones.',
  tellMeAbout: 'Avisarme de',
  prefNewOrders: 'Pedidos nuevos',
  prefReviews: 'Reseñas pendientes de aprobación',
  prefWebhookDisabled: 'Un webhook desactivado',
  prefsSaved: 'Se guardó de qué quieres enterarte.',
  failed: 'No funcionó. Inténtalo de nuevo.',
  endpointInvalid: 'El navegador envió una suscripción que el servicio no puede usar.',
  endpointRefused: 'El servicio de notificaciones de este navegador no está en una dirección pública segura.',
  keysInvalid: 'El navegador envió claves que el servicio no puede usar.',
  offlineTitle: 'Sin conexión',
  offlineText: 'El panel necesita conexión. Esta página volverá a funcionar cuando el teléfono esté en línea.',
  retry: 'Reintentar',
}
