/**
 * The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636) and the person's answer.
 * A request that breaks a rule — unknown client, a redirect URI the client did not register, no
 * S256 challenge, another resource — is refused to the person's face (a 400 page): nothing is
 * sent to a redirect URI that was not proven to be the client's. "Allow" makes the grant and a
 * code in one transaction; the code lives 60 s and is used once (exchange.ts).
 */
import type { Db } from '../../db/client'
import { immediate } from '../../db/client'
import { oauthCodes, oauthGrants } from '../../db/schema'
import type { Clock } from '../../lib/time'
import type { PublicCtx } from '../../kernel/context'
import type { Role } from '../people'
import { findClient } from './clients'
import { CHALLENGE_RE, CODE_PREFIX, hashSecret, newSecret } from './secrets'
import { capByRole, CODE_TTL_MS, redirectUriMatches, requestedScopes } from './rules'

/** Why a request is refused: each has its sentence on the 400 page. */
export type AuthorizeFault =
  | 'unknown_client'
  | 'bad_redirect_uri'
  | 'unsupported_response_type'
  | 'pkce_required'
  | 'invalid_scope'
  | 'invalid_target'

export interface AuthorizeRequest {
  clientId: string
  clientName: string
  redirectUri: string
  state: string | undefined
  challenge: string
  /** Known scopes asked for (every scope when none was named), before the role's cap. */
  scopes: string[]
  resource: string
}

type Params = Record<string, string | undefined>

/**
 * Checks an authorization request's parameters; `resource` is this service's `<origin>/mcp`. The
 * public's context: no store is chosen yet, and the client is looked up by its id.
 */
export function checkAuthorizeRequest({
  ctx,
  input,
}: {
  ctx: PublicCtx
  input: { params: Params; resource: string }
}): { request: AuthorizeRequest } | { fault: AuthorizeFault } {
  const { params, resource } = input
  const client = findClient(ctx.db, params.client_id)
  if (!client) return { fault: 'unknown_client' }
  // Without redirect_uri only a client with exactly one registered URI is unambiguous (RFC 6749 §3.1.2.3).
  const redirectUri = params.redirect_uri ?? (client.uris.length === 1 ? client.uris[0] : undefined)
  if (!redirectUri || !client.uris.some((u) => redirectUriMatches(redirectUri, u))) return { fault: 'bad_redirect_uri' }
  if (params.response_type !== 'code') return { fault: 'unsupported_response_type' }
  if (params.code_challenge_method !== 'S256' || !CHALLENGE_RE.test(params.code_challenge ?? ''))
    return { fault: 'pkce_required' }
  const { scopes, unknown } = requestedScopes(params.scope)
  if (unknown.length) return { fault: 'invalid_scope' }
  // RFC 8707: the one protected resource here is /mcp; a token for anything else is not ours to give.
  if (params.resource !== undefined && params.resource.replace(/\/$/, '') !== resource)
    return { fault: 'invalid_target' }
  return {
    request: {
      clientId: client.id,
      clientName: client.name,
      redirectUri,
      state: params.state,
      challenge: params.code_challenge!,
      scopes,
      resource,
    },
  }
}

/** The redirect that answers the client: `code` and `state`, or an error (RFC 6749 §4.1.2). */
export function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const u = new URL(redirectUri)
  for (const [k, v] of Object.entries(values)) if (v !== undefined) u.searchParams.set(k, v)
  return u.toString()
}

/** "Allow": the grant (scopes capped by the person's role in the chosen store) and its one-use code. */
export function approveAuthorization({
  ctx,
  input,
}: {
  ctx: { db: Db; clock: Clock }
  input: { request: AuthorizeRequest; userId: string; storeId: string; role: Role }
}): { code: string; scopes: string[] } {
  const { request, userId, storeId, role } = input
  const scopes = capByRole(request.scopes, role)
  const code = newSecret(CODE_PREFIX)
  const now = ctx.clock.now()
  immediate(ctx.db, (tx) => {
    const grant = tx
      .insert(oauthGrants)
      .values({
        clientId: request.clientId,
        userId,
        storeId,
        scopes: scopes.join(' '),
        resource: request.resource,
        createdAt: now,
      })
      .returning({ id: oauthGrants.id })
      .get()
    tx.insert(oauthCodes)
      .values({
        hash: hashSecret(code),
        grantId: grant.id,
        redirectUri: request.redirectUri,
        challenge: request.challenge,
        expiresAt: now + CODE_TTL_MS,
      })
      .run()
  })
  return { code, scopes }
}
