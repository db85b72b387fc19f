/**
 * Dynamic client registration (RFC 7591) for public clients only: no secret is issued, the
 * token endpoint authenticates nobody (`none`), and PKCE binds a code to whoever started the
 * flow. Redirect URIs must be https, or http on a loopback address. The per-IP limit is the
 * route's (it owns the rate limiter).
 */
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { oauthClients, type OauthClient } from '../../db/schema'
import type { Clock } from '../../lib/time'
import { OAuthError } from './errors'
import { redirectUriProblem } from './rules'

export interface RegisteredClient {
  client_id: string
  client_id_issued_at: number
  client_name: string
  redirect_uris: string[]
  grant_types: string[]
  response_types: string[]
  token_endpoint_auth_method: 'none'
}

const MAX_REDIRECT_URIS = 10
const GRANT_TYPES = ['authorization_code', 'refresh_token']

const invalid = (description: string) => new OAuthError('invalid_client_metadata', description)

function listOf(body: Record<string, unknown>, name: string, allowed: string[]): string[] | undefined {
  const v = body[name]
  if (v === undefined) return undefined
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw invalid(`${name} must be an array of strings`)
  const bad = (v as string[]).filter((x) => !allowed.includes(x))
  if (bad.length) throw invalid(`${name} may hold only ${allowed.join(', ')} (not ${bad.join(', ')})`)
  return v as string[]
}

export function registerClient({ ctx, input }: { ctx: { db: Db; clock: Clock }; input: unknown }): RegisteredClient {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw invalid('the body must be a JSON object')
  const body = input as Record<string, unknown>
  const uris = body.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0)
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris must list at least one redirect URI')
  if (uris.length > MAX_REDIRECT_URIS)
    throw new OAuthError('invalid_redirect_uri', `at most ${MAX_REDIRECT_URIS} redirect URIs`)
  for (const u of uris) {
    const problem = redirectUriProblem(u)
    if (problem) throw new OAuthError('invalid_redirect_uri', problem)
  }
  const method = body.token_endpoint_auth_method
  if (method !== undefined && method !== 'none')
    throw invalid('only public clients register here: token_endpoint_auth_method must be "none"')
  listOf(body, 'grant_types', GRANT_TYPES)
  listOf(body, 'response_types', ['code'])
  const rawName = body.client_name
  if (rawName !== undefined && typeof rawName !== 'string') throw invalid('client_name must be a string')
  // The name is the client's own claim: shown escaped, never trusted; control characters dropped.
  const name =
    (rawName ?? '')
      .replace(/\p{Cc}/gu, '')
      .trim()
      .slice(0, 100) || new URL(uris[0] as string).host
  const now = ctx.clock.now()
  const row = ctx.db
    .insert(oauthClients)
    .values({ name, redirectUris: JSON.stringify(uris), createdAt: now })
    .returning()
    .get()
  return {
    client_id: row.id,
    client_id_issued_at: Math.floor(now / 1000),
    client_name: name,
    redirect_uris: uris as string[],
    grant_types: GRANT_TYPES,
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  }
}

export function findClient(db: Db, id: unknown): (OauthClient & { uris: string[] }) | undefined {
  if (typeof id !== 'string' || id.length === 0 || id.length > 64) return undefined
  const row = db.select().from(oauthClients).where(eq(oauthClients.id, id)).get()
  return row ? { ...row, uris: JSON.parse(row.redirectUris) as string[] } : undefined
}
