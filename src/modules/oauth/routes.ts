/**
 * The authorization server's machine endpoints (docs/decisions/023): the two metadata documents
 * (RFC 9728, RFC 8414), dynamic registration (RFC 7591), the token endpoint (RFC 6749 §3.2) and
 * revocation (RFC 7009). The person's side — sign-in and consent at /oauth/authorize — is a panel
 * page (panel/oauth-routes.ts). Answers are JSON, never cached; errors are OAuth's own bodies.
 */
import { Elysia } from 'elysia'
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import type { RateLimiter } from '../../db/rate-limiter'
import { ownOrigin } from '../../http/origin'
import { clientIp, ipBucket } from '../../lib/client-ip'
import { SCOPES } from '../../lib/scopes'
import type { Clock } from '../../lib/time'
import { registerClient } from './clients'
import { OAuthError } from './errors'
import { exchangeCode, refreshTokens } from './exchange'
import { revokeToken } from './grants'
import { REGISTRATIONS_PER_HOUR } from './rules'

export interface OauthRoutesPort {
  db: Db
  clock: Clock
  config: Config
  limiter: Pick<RateLimiter, 'hit'>
}

type Set = { headers: Record<string, string | number> }

function answer(set: Set, status: number, value: unknown, extra: Record<string, string> = {}): Response {
  const headers = { ...(set.headers as Record<string, string>), ...extra }
  set.headers = {}
  return new Response(JSON.stringify(value), {
    status,
    headers: {
      ...headers,
      'content-type': 'application/json',
      'cache-control': 'no-store',
      // Public documents and public-client endpoints: a browser-based assistant may read them.
      'access-control-allow-origin': '*',
    },
  })
}

const failed = (set: Set, e: unknown): Response => {
  if (!(e instanceof OAuthError)) throw e
  return answer(set, e.status, e.toBody())
}

/** Form fields (or a JSON object) as strings; anything else is absent. */
function params(body: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  if (body && typeof body === 'object' && !Array.isArray(body))
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v
  return out
}

const hidden = { detail: { hide: true } }

/**
 * A browser-based assistant's preflight: its discovery sends `MCP-Protocol-Version`, its
 * registration JSON. Nothing here reads cookies, so any origin may ask.
 */
const preflight = ({ set }: { set: Set }) => {
  const headers = { ...(set.headers as Record<string, string>) }
  set.headers = {}
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
      'access-control-max-age': '86400',
    },
  })
}
const PUBLIC_PATHS = [
  '/.well-known/oauth-protected-resource',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
]

export function oauthRoutes(port: OauthRoutesPort) {
  const origin = (request: Request) => ownOrigin(port.config, request)
  const resourceMetadata = ({ request, set }: { request: Request; set: Set }) => {
    const o = origin(request)
    return answer(set, 200, {
      resource: `${o}/mcp`,
      authorization_servers: [o],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Storefront MCP',
      resource_documentation: `${o}/docs`,
    })
  }
  let app = new Elysia({ name: 'oauth' })
  for (const path of PUBLIC_PATHS) app = app.options(path, preflight, hidden) as unknown as typeof app
  return (
    app
      // RFC 9728 §3.1: the resource's path may follow the well-known name; MCP clients try that first.
      .get('/.well-known/oauth-protected-resource', resourceMetadata, hidden)
      .get('/.well-known/oauth-protected-resource/mcp', resourceMetadata, hidden)
      .get(
        '/.well-known/oauth-authorization-server',
        ({ request, set }) => {
          const o = origin(request)
          return answer(set, 200, {
            issuer: o,
            authorization_endpoint: `${o}/oauth/authorize`,
            token_endpoint: `${o}/oauth/token`,
            registration_endpoint: `${o}/oauth/register`,
            revocation_endpoint: `${o}/oauth/revoke`,
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
            code_challenge_methods_supported: ['S256'],
            token_endpoint_auth_methods_supported: ['none'],
            revocation_endpoint_auth_methods_supported: ['none'],
            scopes_supported: SCOPES,
          })
        },
        hidden,
      )
      .post(
        '/oauth/register',
        ({ request, body, set, server }) => {
          const ip = ipBucket(clientIp(request, server, port.config.trustProxy))
          const w = port.limiter.hit(`ip:oauth-register:${ip}`, REGISTRATIONS_PER_HOUR, 3600)
          if (!w.allowed)
            return answer(
              set,
              429,
              { error: 'too_many_requests', error_description: 'too many registrations from this address; try later' },
              { 'retry-after': String(w.resetSec) },
            )
          try {
            return answer(set, 201, registerClient({ ctx: port, input: body }))
          } catch (e) {
            return failed(set, e)
          }
        },
        hidden,
      )
      .post(
        '/oauth/token',
        ({ body, set }) => {
          const input = params(body)
          try {
            if (input.grant_type === 'authorization_code') return answer(set, 200, exchangeCode({ ctx: port, input }))
            if (input.grant_type === 'refresh_token') return answer(set, 200, refreshTokens({ ctx: port, input }))
            throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token')
          } catch (e) {
            return failed(set, e)
          }
        },
        hidden,
      )
      .post(
        '/oauth/revoke',
        ({ body, set }) => {
          const input = params(body)
          revokeToken({ ctx: port, input: { token: input.token, clientId: input.client_id } })
          // RFC 7009 §2.2: 200 whether or not the token was known.
          return answer(set, 200, {})
        },
        hidden,
      )
  )
}
