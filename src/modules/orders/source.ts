/**
 * Where a `POST /api/orders` came from, for the dashboard's conversion (storefront orders ÷
 * storefront visits; docs/panel.md). The store's own pages post from this origin, and only a
 * browser sets `Sec-Fetch-Site` (a page cannot forge it): `same-origin` is the storefront. The
 * /mcp route's in-process tool calls are marked by the MCP client; anything else is a client of
 * the API (another site, an app, a script).
 */
import type { OrderSource } from '../../db/schema'
import { assistantRequests } from '../../lib/client-ip'

export function orderSourceOf(request: Request): OrderSource {
  if (request.headers.get('sec-fetch-site') === 'same-origin') return 'storefront'
  return assistantRequests.has(request) ? 'mcp' : 'api'
}
