/** The consent page of an app connecting as the person, and "Connected apps" (Spanish). */
import type { Words } from '../shape'

export const apps: Words['apps'] = {
  consentTitle: (client) => `¿Conectar ${client}?`,
  consentIntro: (client, host) =>
    `${client} quiere trabajar en tu tienda en tu nombre. Si lo permites, volverá a ${host}.`,
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
  permissions: 'Permisos',
  neverUsed: 'Todavía no',
  disconnect: 'Desconectar',
  disconnectApp: (client) => `Desconectar ${client}`,
}
