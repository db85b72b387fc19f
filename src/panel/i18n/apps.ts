/** The words of the consent page and of "Connected apps" (Account and Team pages), es | en | pt. */
import type { PanelLanguage } from '../i18n'

const en = {
  consentTitle: (client: string) => `Connect ${client}?`,
  consentIntro: (client: string, host: string) =>
    `${client} wants to work in your store as you. After you allow it, it is sent back to ${host}.`,
  consentStore: 'Store',
  consentScopes: 'It will be able to:',
  consentNoScopes: 'Your role in this store allows it nothing it asked for.',
  consentCapped: 'Never more than your role in the chosen store allows, now or later.',
  consentNotice: 'Only allow apps you trust. You can disconnect it at any time on your Account page.',
  allow: 'Allow',
  deny: 'Deny',
  badRequestTitle: 'This connection request cannot be used',
  badRequest: {
    unknown_client: 'The app that sent you here is not registered with this store.',
    bad_redirect_uri: 'The app asked to return to an address it did not register.',
    unsupported_response_type: 'The app asked for something other than a sign-in code.',
    pkce_required: 'The app did not protect its request with a code challenge (PKCE S256).',
    invalid_scope: 'The app asked for permissions that do not exist here.',
    invalid_target: 'The app asked for access to something other than this store’s assistant endpoint.',
  },
  badRequestHint: 'Go back to the app and connect it again.',
  connectedApps: 'Connected apps',
  connectedAppsIntro: 'Assistants you allowed to work in a store as you.',
  storeAppsIntro: 'Every assistant a person of this store connected.',
  noApps: 'No connected apps.',
  app: 'App',
  personCol: 'Person',
  permissions: 'Permissions',
  lastUsed: 'Last used',
  neverUsed: 'Not yet',
  disconnect: 'Disconnect',
  disconnectApp: (client: string) => `Disconnect ${client}`,
}

export type AppsWords = typeof en

const es: AppsWords = {
  consentTitle: (client) => `¿Conectar ${client}?`,
  consentIntro: (client, host) =>
    `${client} quiere trabajar en tu tienda en tu nombre. Si lo permites, volverá a ${host}.`,
  consentStore: 'Tienda',
  consentScopes: 'Podrá:',
  consentNoScopes: 'Tu rol en esta tienda no le permite nada de lo que pidió.',
  consentCapped: 'Nunca más de lo que permite tu rol en la tienda elegida, ahora o después.',
  consentNotice: 'Permite solo apps de confianza. Puedes desconectarla cuando quieras en tu página de Cuenta.',
  allow: 'Permitir',
  deny: 'Rechazar',
  badRequestTitle: 'Esta solicitud de conexión no se puede usar',
  badRequest: {
    unknown_client: 'La app que te trajo aquí no está registrada en esta tienda.',
    bad_redirect_uri: 'La app pidió volver a una dirección que no registró.',
    unsupported_response_type: 'La app pidió algo distinto de un código de acceso.',
    pkce_required: 'La app no protegió su solicitud con un desafío de código (PKCE S256).',
    invalid_scope: 'La app pidió permisos que no existen aquí.',
    invalid_target: 'La app pidió acceso a algo distinto del punto de conexión para asistentes de esta tienda.',
  },
  badRequestHint: 'Vuelve a la app y conéctala de nuevo.',
  connectedApps: 'Apps conectadas',
  connectedAppsIntro: 'Asistentes a los que permitiste trabajar en una tienda en tu nombre.',
  storeAppsIntro: 'Todos los asistentes que conectó alguien de esta tienda.',
  noApps: 'No hay apps conectadas.',
  app: 'App',
  personCol: 'Persona',
  permissions: 'Permisos',
  lastUsed: 'Último uso',
  neverUsed: 'Todavía no',
  disconnect: 'Desconectar',
  disconnectApp: (client) => `Desconectar ${client}`,
}

const pt: AppsWords = {
  consentTitle: (client) => `Conectar ${client}?`,
  consentIntro: (client, host) =>
    `${client} quer trabalhar na sua loja em seu nome. Se você permitir, ele volta para ${host}.`,
  consentStore: 'Loja',
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
  personCol: 'Pessoa',
  permissions: 'Permissões',
  lastUsed: 'Último uso',
  neverUsed: 'Ainda não',
  disconnect: 'Desconectar',
  disconnectApp: (client) => `Desconectar ${client}`,
}

const WORDS: Record<PanelLanguage, AppsWords> = { en, es, pt }
export const appsWords = (lang: PanelLanguage): AppsWords => WORDS[lang]
