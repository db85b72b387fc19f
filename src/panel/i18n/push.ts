/**
 * The words of "Notifications on this device" (the Account page), the installed panel and its
 * offline page, es | en | pt, beside the shell's catalogue.
 */
import type { PanelLanguage } from '../i18n'

const en = {
  notifications: 'Notifications on this device',
  notificationsIntro: 'Get a notification for each new order on this phone or computer, even with the panel closed.',
  needsScript: 'Turning notifications on needs JavaScript and a browser that supports them.',
  needsTrust:
    'This browser can’t turn notifications on here: it needs the panel on a secure address it trusts (see the phone guide).',
  denied: 'Notifications are blocked for this site in the browser’s settings.',
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  turnedOn: 'Notifications are on for this device.',
  turnedOff: 'Notifications are off for this device.',
  sendTest: 'Send a test notification',
  testSent: 'A test notification is on its way to your devices.',
  noDevicesForTest: 'Turn notifications on for a device first.',
  yourDevices: 'Devices that get notifications',
  noDevices: 'No device gets notifications yet.',
  since: 'since',
  turnOffDevice: (name: string) => `Turn off notifications on ${name}`,
  deviceOff: 'That device will get no more notifications.',
  tellMeAbout: 'Tell me about',
  prefNewOrders: 'New orders',
  prefReviews: 'Reviews waiting for approval',
  prefLowStock: 'Low stock',
  prefWebhookDisabled: 'A webhook endpoint disabled',
  savePrefs: 'Save',
  prefsSaved: 'Saved what you want to be told about.',
  failed: 'That did not work. Try again.',
  endpointInvalid: 'The browser sent a subscription the service can’t use.',
  endpointRefused: 'This browser’s push service is not on a public secure address.',
  keysInvalid: 'The browser sent keys the service can’t use.',
  panelName: 'Seller panel',
  offlineTitle: 'You are offline',
  offlineText: 'The panel needs a connection. This page will work again when the phone is back online.',
  retry: 'Try again',
}

export type PushWords = typeof en

const es: PushWords = {
  notifications: 'Notificaciones en este dispositivo',
  notificationsIntro:
    'Recibe una notificación por cada pedido nuevo en este teléfono o computadora, incluso con el panel cerrado.',
  needsScript: 'Activar las notificaciones necesita JavaScript y un navegador que las admita.',
  needsTrust:
    'Este navegador no puede activar notificaciones aquí: necesita el panel en una dirección segura de confianza (ver la guía del teléfono).',
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
  prefLowStock: 'Poco stock',
  prefWebhookDisabled: 'Un webhook desactivado',
  savePrefs: 'Guardar',
  prefsSaved: 'Se guardó de qué quieres enterarte.',
  failed: 'No funcionó. Inténtalo de nuevo.',
  endpointInvalid: 'El navegador envió una suscripción que el servicio no puede usar.',
  endpointRefused: 'El servicio de notificaciones de este navegador no está en una dirección pública segura.',
  keysInvalid: 'El navegador envió claves que el servicio no puede usar.',
  panelName: 'Panel del vendedor',
  offlineTitle: 'Sin conexión',
  offlineText: 'El panel necesita conexión. Esta página volverá a funcionar cuando el teléfono esté en línea.',
  retry: 'Reintentar',
}

const pt: PushWords = {
  notifications: 'Notificações neste dispositivo',
  notificationsIntro:
    'Receba uma notificação para cada novo pedido neste celular ou computador, mesmo com o painel fechado.',
  needsScript: 'Ativar as notificações precisa de JavaScript e de um navegador que as suporte.',
  needsTrust:
    'Este navegador não pode ativar notificações aqui: ele precisa do painel num endereço seguro e confiável (veja o guia do celular).',
  denied: 'As notificações estão bloqueadas para este site nas configurações do navegador.',
  turnOn: 'Ativar',
  turnOff: 'Desativar',
  turnedOn: 'As notificações estão ativadas neste dispositivo.',
  turnedOff: 'As notificações estão desativadas neste dispositivo.',
  sendTest: 'Enviar uma notificação de teste',
  testSent: 'Uma notificação de teste está a caminho.',
  noDevicesForTest: 'Ative as notificações num dispositivo primeiro.',
  yourDevices: 'Dispositivos que recebem notificações',
  noDevices: 'Nenhum dispositivo recebe notificações ainda.',
  since: 'desde',
  turnOffDevice: (name) => `Desativar as notificações em ${name}`,
  deviceOff: 'Esse dispositivo não receberá mais notificações.',
  tellMeAbout: 'Avisar-me sobre',
  prefNewOrders: 'Novos pedidos',
  prefReviews: 'Avaliações aguardando aprovação',
  prefLowStock: 'Estoque baixo',
  prefWebhookDisabled: 'Um webhook desativado',
  savePrefs: 'Salvar',
  prefsSaved: 'Salvamos o que você quer saber.',
  failed: 'Não funcionou. Tente de novo.',
  endpointInvalid: 'O navegador enviou uma inscrição que o serviço não pode usar.',
  endpointRefused: 'O serviço de notificações deste navegador não está num endereço público seguro.',
  keysInvalid: 'O navegador enviou chaves que o serviço não pode usar.',
  panelName: 'Painel do vendedor',
  offlineTitle: 'Sem conexão',
  offlineText: 'O painel precisa de conexão. Esta página voltará a funcionar quando o celular estiver online.',
  retry: 'Tentar de novo',
}

const WORDS: Record<PanelLanguage, PushWords> = { en, es, pt }
export const pushWords = (lang: PanelLanguage): PushWords => WORDS[lang]
