/** The webhooks pages and their delivery log (Portuguese). */
import type { Words } from '../shape'

export const webhooks: Words['webhooks'] = {
  addWebhook: 'Adicionar webhook',
  url: 'URL',
  urlHint: 'Um endereço https público.',
  events: 'Eventos',
  eventsRequired: 'Escolha pelo menos um evento.',
  editWebhookOf: (url) => `Editar o webhook ${url}`,
  editWebhookTitle: (url) => `Editar o webhook para ${url}`,
  signingSecret: 'Segredo de assinatura',
  rotateText: (hours) =>
    `Um segredo novo assina a partir de agora; o anterior continua assinando ao lado dele por ${hours} horas, ` +
    `para o seu receptor trocar sem perder mensagens.`,
  rotateSecret: 'Trocar o segredo',
  secretRotated: 'Seu novo segredo de assinatura',
  sendTest: 'Enviar evento de teste',
  sendTestHint:
    'Envia um evento webhook.test só para este destino, assinado como todos; ele aparece no registro abaixo.',
  testSent: 'Um evento de teste está a caminho.',
  deliveries: 'Registro de entregas',
  viewLogOf: (url) => `Registro de entregas de ${url}`,
  webhookCreated: 'Webhook adicionado',
  secretOnce: 'O segredo de assinatura aparece uma única vez: copie agora.',
  secretShownOnce:
    'Este segredo apareceu uma vez e não aparece de novo. Se não foi copiado, gere outro e copie o novo.',
  disable: 'Desativar',
  enable: 'Ativar',
  disabled: 'Desativado',
  deliveriesOf: (url) => `Entregas para ${url}`,
  deleteWebhook: 'Excluir webhook',
  deleteWebhookTitle: (url) => `Excluir o webhook para ${url}?`,
  deleteWebhookText: 'O registro de entregas também é excluído.',
  noWebhooks: 'Ainda não há webhooks.',
  noDeliveries: 'Ainda não há entregas.',
  event: 'Evento',
  attempts: 'Tentativas',
  response: 'Resposta',
  nextAttempt: 'Próxima tentativa',
  refreshLog: 'Atualizar o registro',
  error: 'Error',
  retry: 'Tentar de novo',
  retryDelivery: (id) => `Tentar de novo a entrega ${id}`,
  retried: 'A entrega será feita de novo agora.',
  limitReached: (n) => `Uma loja pode ter no máximo ${n} webhooks.`,
  deliveryStatus: { pending: 'Pendente', sending: 'Enviando', succeeded: 'Entregue', failed: 'Falhou' },
}
