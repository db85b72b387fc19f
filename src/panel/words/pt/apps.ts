/** The consent page of an app connecting as the person, and "Connected apps" (Portuguese). */
import type { Words } from '../shape'

export const apps: Words['apps'] = {
  consentTitle: (client) => `Conectar ${client}?`,
  consentIntro: (client, host) =>
    `${client} quer trabalhar na sua loja em seu nome. Se você permitir, ele volta para ${host}.`,
  consentScopes: 'Ele poderá:',
  consentNoScopes: 'Sua função nesta loja não permite nada do que ele pediu.',
  consentCapped: 'Nunca mais do que sua função na loja escolhida permite, agora ou depois.',
  consentNotice: 'Permita apenas apps de confiança. Você pode desconectá-lo a qualquer momento na página Conta.',
  allow: 'Permitir',
  deny: 'Recusar',
  badRequestTitle: 'Este pedido de conexão não pode ser usado',
  badRequest: {
    unknown_client: 'O app que trouxe você aqui não está registrado nesta loja.',
    bad_redirect_uri: 'O app pediu para voltar a um endereço que não registrou.',
    unsupported_response_type: 'O app pediu algo diferente de um código de acesso.',
    pkce_required: 'O app não protegeu o pedido com um desafio de código (PKCE S256).',
    invalid_scope: 'O app pediu permissões que não existem aqui.',
    invalid_target: 'O app pediu acesso a algo diferente do ponto de conexão para assistentes desta loja.',
  },
  badRequestHint: 'Volte ao app e conecte-o de novo.',
  connectedApps: 'Apps conectados',
  connectedAppsIntro: 'Assistentes que você permitiu trabalhar em uma loja em seu nome.',
  storeAppsIntro: 'Todos os assistentes que alguém desta loja conectou.',
  noApps: 'Nenhum app conectado.',
  app: 'App',
  permissions: 'Permissões',
  neverUsed: 'Ainda não',
  disconnect: 'Desconectar',
  disconnectApp: (client) => `Desconectar ${client}`,
}
