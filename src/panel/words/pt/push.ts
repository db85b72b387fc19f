/** Notifications on this device, the installed panel and its offline page (Portuguese). */
import type { Words } from '../shape'

export const push: Words['push'] = {
  notifications: 'Notificações neste dispositivo',
  notificationsIntro:
    'Receba uma notificação para cada novo pedido neste celular ou computador, mesmo com o painel fechado.',
  needsScript: 'Ativar as notificações precisa de JavaScript e de um navegador que as suporte.',
  needsTrust:
    'Este navegador não pode ativar notificações aqui: ele precisa do painel num endereço seguro e confiável ' +
    '(veja o guia do celular).',
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
  prefWebhookDisabled: 'Um webhook desativado',
  prefsSaved: 'Salvamos o que você quer saber.',
  failed: 'Não funcionou. Tente de novo.',
  endpointInvalid: 'O navegador enviou uma inscrição que o serviço não pode usar.',
  endpointRefused: 'O serviço de notificações deste navegador não está num endereço público seguro.',
  keysInvalid: 'O navegador enviou chaves que o serviço não pode usar.',
  offlineTitle: 'Sem conexão',
  offlineText: 'O painel precisa de conexão. Esta página voltará a funcionar quando o celular estiver online.',
  retry: 'Tentar de novo',
}
