/**
 * Two checks for the hosted /mcp endpoint:
 *
 * - Origin (the MCP specification's DNS-rebinding guidance): a browser page of another site must
 *   not drive the endpoint. A request without `Origin` (every non-browser client) passes; one
 *   whose Origin is the service's own origin (PUBLIC_URL, else the Host it was reached at) or is
 *   listed in MCP_ALLOWED_ORIGINS passes; any other → 403 FORBIDDEN, before the key is read.
 *   Behind a rebinding attack the Host is the attacker's name too, so only PUBLIC_URL makes the
 *   own-origin comparison strict (docs/hardening.md).
 * - A JSON-RPC batch counts each of its messages against the key's per-minute limit: a batch of
 *   100 `tools/list` calls is 100 requests, not one.
 */
import type { Config } from '../config'
import type { RateLimiter } from '../db/rate-limiter'
import type { Ctx } from '../kernel/context'
import { Forbidden, RateLimited } from '../lib/errors'
import { setRateHeaders } from '../http/gate'
import { ownOrigin } from '../http/origin'

export { ownOrigin }

/** Throws 403 when the request comes from a page of another site. */
export function checkMcpOrigin(config: Config, request: Request): void {
  const origin = request.headers.get('origin')
  if (origin === null) return
  const o = origin.toLowerCase()
  if (o === ownOrigin(config, request) || config.mcpAllowedOrigins.some((a) => a.toLowerCase() === o)) return
  throw new Forbidden(
    `Requests from the origin ${JSON.stringify(origin)} are not allowed on /mcp (see MCP_ALLOWED_ORIGINS)`,
    { origin },
  )
}

/**
 * The gate counted the POST once; a batch of n messages counts n - 1 more. Over the limit →
 * 429 for the whole batch (nothing of it runs), with the rate-limit headers updated.
 */
export function countBatch(
  deps: { config: Config; limiter: Pick<RateLimiter, 'hit'> },
  ctx: Ctx | undefined,
  body: unknown,
  headers: Record<string, string | number>,
): void {
  const actor = ctx?.actor
  if (!Array.isArray(body) || body.length < 2 || (actor?.kind !== 'key' && actor?.kind !== 'app')) return
  const counter = actor.kind === 'key' ? `key:${actor.keyId}` : `app:${actor.grantId}`
  let w
  for (let i = 1; i < body.length; i++) w = deps.limiter.hit(counter, deps.config.rateLimitKey, 60)
  setRateHeaders(headers, w!, 'key')
  if (!w!.allowed) throw new RateLimited(w!.resetSec)
}
