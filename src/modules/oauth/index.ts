/** The authorization server for assistants connecting to /mcp (docs/decisions/023): its verbs and types. */
export { registerClient, type RegisteredClient } from './clients'
export {
  checkAuthorizeRequest,
  approveAuthorization,
  redirectWith,
  type AuthorizeFault,
  type AuthorizeRequest,
} from './authorize'
export { exchangeCode, refreshTokens, type TokenAnswer } from './exchange'
export { resolveAccessToken, type TokenHolder } from './access'
export { appsOfPerson, appsOfStore, disconnectApp, revokeToken, appActorNames, type ConnectedApp } from './grants'
export { capByRole, REGISTRATIONS_PER_HOUR } from './rules'
export { OAuthError } from './errors'
export { isAccessToken } from './secrets'
export { pruneOauth } from './prune'
