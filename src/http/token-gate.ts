/**
 * Where an assistant's OAuth access token is accepted (docs/decisions/023): on `/mcp` itself, when
 * the token was issued for this origin's `/mcp` (RFC 8707), and on the API requests that /mcp's
 * tools make in-process (marked by the MCP route, `assistantRequests`). A token sent straight to the REST
 * API is no credential there (401): the API stays key-only. Without a credential, /mcp's 401 says
 * where to find the authorization server (RFC 9728 §5.1).
 */
import type { Config } from '../config'
import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import { assistantRequests } from '../lib/client-ip'
import { resolveAccessToken, type TokenHolder } from '../modules/oauth'
import { ownOrigin } from './origin'

export const mcpResource = (config: Config, request: Request) => `${ownOrigin(config, request)}/mcp`

export function findTokenHolder(
  deps: { db: Db; clock: Clock; config: Config },
  request: Request,
  path: string,
  authorization: string | null,
): TokenHolder | undefined {
  if (!authorization?.startsWith('Bearer ')) return undefined
  const onMcp = path === '/mcp'
  // Only the API requests /mcp's tools make in-process (mcp/client.ts) may carry a token into /api/v1.
  if (!onMcp && !assistantRequests.has(request)) return undefined
  // The resource was checked on /mcp; the tools' requests are that same call's.
  const resource = onMcp ? mcpResource(deps.config, request) : undefined
  return resolveAccessToken({ db: deps.db, now: deps.clock.now() }, authorization.slice(7), resource)
}

export function unauthorizedOnMcp(
  config: Config,
  request: Request,
  path: string,
  headers: Record<string, string | number>,
): void {
  if (path !== '/mcp') return
  headers['www-authenticate'] =
    `Bearer resource_metadata="${ownOrigin(config, request)}/.well-known/oauth-protected-resource"`
}
