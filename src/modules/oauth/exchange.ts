/**
 * The token endpoint's two grants (RFC 6749 §4.1.3 and §6, OAuth 2.1 refresh rotation), each
 * check-then-write in one BEGIN IMMEDIATE transaction:
 *
 * - `authorization_code`: the code exists, is unused, under 60 s old, and its client,
 *   redirect_uri and PKCE verifier match. A second use of a code revokes the grant it issued
 *   (RFC 6749 §10.5): whoever replays it gets nothing, and neither does whoever used it first.
 * - `refresh_token`: the token is unused, unexpired and the client's; using it spends it and
 *   issues a new pair. A spent refresh token presented again revokes its whole grant (the family).
 *
 * A refusal that must revoke does so in its own committed transaction, then throws.
 */
import { and, eq, isNull } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { immediate } from '../../db/client'
import { oauthCodes, oauthGrants, oauthTokens } from '../../db/schema'
import type { Clock } from '../../lib/time'
import { OAuthError } from './errors'
import { ACCESS_PREFIX, hashSecret, newSecret, REFRESH_PREFIX, verifierMatches } from './secrets'
import { ACCESS_TTL_MS, REFRESH_TTL_MS } from './rules'

export interface TokenAnswer {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
}

type Params = Record<string, string | undefined>
type OauthCtx = { db: Db; clock: Clock }

const invalidGrant = (description: string) => new OAuthError('invalid_grant', description)

/** Issues an access token and a refresh token for the grant, in the caller's transaction. */
function issuePair(tx: Tx, grantId: string, scopes: string, now: number): TokenAnswer {
  const access = newSecret(ACCESS_PREFIX)
  const refresh = newSecret(REFRESH_PREFIX)
  tx.insert(oauthTokens)
    .values([
      { hash: hashSecret(access), grantId, kind: 'access', expiresAt: now + ACCESS_TTL_MS, createdAt: now },
      { hash: hashSecret(refresh), grantId, kind: 'refresh', expiresAt: now + REFRESH_TTL_MS, createdAt: now },
    ])
    .run()
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TTL_MS / 1000,
    refresh_token: refresh,
    scope: scopes,
  }
}

export function revokeGrantIn(tx: Tx | Db, grantId: string, now: number): void {
  tx.update(oauthGrants)
    .set({ revokedAt: now })
    .where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)))
    .run()
}

/** RFC 8707: a `resource` named at the token endpoint must be the grant's. */
function resourceProblem(params: Params, resource: string): OAuthError | undefined {
  if (params.resource !== undefined && params.resource.replace(/\/$/, '') !== resource)
    return new OAuthError('invalid_target', `tokens here are only for ${resource}`)
  return undefined
}

export function exchangeCode({ ctx, input }: { ctx: OauthCtx; input: Params }): TokenAnswer {
  const { code, client_id: clientId, redirect_uri: redirectUri, code_verifier: verifier } = input
  if (!code || !clientId) throw new OAuthError('invalid_request', 'code and client_id are required')
  const now = ctx.clock.now()
  let replayed: string | undefined
  const result = immediate(ctx.db, (tx): TokenAnswer | OAuthError | undefined => {
    const row = tx
      .select({ code: oauthCodes, grant: oauthGrants })
      .from(oauthCodes)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthCodes.grantId))
      .where(eq(oauthCodes.hash, hashSecret(code)))
      .get()
    if (!row) return invalidGrant('unknown authorization code')
    if (row.code.usedAt !== null) {
      replayed = row.grant.id
      return undefined
    }
    // Spent whatever happens next (the refusals below are returned, so this commits): a code
    // gets one try, so a wrong verifier can't be retried.
    tx.update(oauthCodes).set({ usedAt: now }).where(eq(oauthCodes.hash, row.code.hash)).run()
    if (row.code.expiresAt <= now) return invalidGrant('the authorization code has expired')
    if (row.grant.clientId !== clientId) return invalidGrant('the code was issued to another client')
    if (redirectUri !== row.code.redirectUri) return invalidGrant('redirect_uri differs from the authorization request')
    if (!verifierMatches(verifier, row.code.challenge)) return invalidGrant('code_verifier does not match')
    const target = resourceProblem(input, row.grant.resource)
    if (target) return target
    if (row.grant.revokedAt !== null) return invalidGrant('the grant was revoked')
    return issuePair(tx, row.grant.id, row.grant.scopes, now)
  })
  if (replayed !== undefined) {
    revokeGrantIn(ctx.db, replayed, now)
    throw invalidGrant('the authorization code was already used; what it issued is revoked')
  }
  if (result instanceof OAuthError) throw result
  return result!
}

export function refreshTokens({ ctx, input }: { ctx: OauthCtx; input: Params }): TokenAnswer {
  const { refresh_token: token, client_id: clientId } = input
  if (!token || !clientId) throw new OAuthError('invalid_request', 'refresh_token and client_id are required')
  const now = ctx.clock.now()
  let reused: string | undefined
  const answer = immediate(ctx.db, (tx) => {
    const row = tx
      .select({ token: oauthTokens, grant: oauthGrants })
      .from(oauthTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
      .where(and(eq(oauthTokens.hash, hashSecret(token)), eq(oauthTokens.kind, 'refresh')))
      .get()
    if (!row || row.grant.clientId !== clientId) throw invalidGrant('unknown refresh token')
    if (row.grant.revokedAt !== null) throw invalidGrant('the grant was revoked')
    if (row.token.usedAt !== null) {
      reused = row.grant.id
      return undefined
    }
    if (row.token.expiresAt <= now) throw invalidGrant('the refresh token has expired')
    const target = resourceProblem(input, row.grant.resource)
    if (target) throw target
    let scopes = row.grant.scopes
    if (input.scope !== undefined) {
      // A refresh may narrow the scopes, never widen them (RFC 6749 §6).
      const asked = input.scope.split(' ').filter(Boolean)
      const granted = scopes.split(' ')
      if (asked.some((s) => !granted.includes(s))) throw new OAuthError('invalid_scope', 'more scopes than granted')
      scopes = asked.join(' ')
      tx.update(oauthGrants).set({ scopes }).where(eq(oauthGrants.id, row.grant.id)).run()
    }
    tx.update(oauthTokens).set({ usedAt: now }).where(eq(oauthTokens.id, row.token.id)).run()
    return issuePair(tx, row.grant.id, scopes, now)
  })
  if (reused !== undefined) {
    revokeGrantIn(ctx.db, reused, now)
    throw invalidGrant('the refresh token was already used; its grant is revoked')
  }
  return answer!
}
