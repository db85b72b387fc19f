/**
 * createApp(deps): the request pipeline (request id, security headers, the edge, proxy redirect,
 * gate), the error mapper, docs, the routes of src/http/api-routes.ts, the storefront pages and media.
 * No listening here: index.ts serves it, tests call app.handle().
 */
import { Elysia, t } from 'elysia'
import { apiDocs } from './openapi/plugin'
import type { Deps } from './deps'
import { AccessTable, declaredRoutes } from './http/access'
import { Gate } from './http/gate'
import { RequestLog } from './http/request-log'
import { LogOnce } from './lib/log-once'
import { bodyDepth } from './plugins/body-depth'
import { objectBody, type RouteInfo } from './plugins/object-body'
import { Edge } from './plugins/edge'
import { toErrorResult } from './plugins/errors'
import { pipeline } from './plugins/pipeline'
import { mcpRoutes } from './mcp/http'
import { apiRoutes, preRouted } from './http/api-routes'
import { shopRoutes } from './shop/routes'
import { mediaRoutes } from './modules/products/images/media'
import { FirstRun } from './modules/people'
import { PanelGate } from './panel/gate'
import { panelRoutes } from './panel/routes'
import { orderStatusRoutes } from './shop/order-status'
import { oauthRoutes } from './modules/oauth/routes'

const ReplicaHealth = t.Object(
  {
    state: t.UnionEnum(['off', 'running', 'restarting']),
    lagSeconds: t.Union([t.Number(), t.Null()], {
      description:
        'Seconds of commits the replica may be missing (0: none); null when off or before its first shipment',
    }),
  },
  { description: 'Litestream replication (REPLICA_URL)' },
)

const SCOPES_TEXT =
  'Send `Authorization: Bearer <API_KEY>`. GET needs `<resource>:read`; POST, ' +
  'PUT and DELETE need `<resource>:write`. ' +
  'Checks run in this order: 401 key → 402 suspended store → 429 per-key limit (100/min, ' +
  "every request counts) → 403 scope → 403 another store's record → 403 plan → 400 validation → 404."

export function createApp(deps: Deps) {
  const mcp = mcpRoutes(deps, (req): Promise<Response> => app.handle(req))
  const api = apiRoutes(deps)
  // The seller panel (/admin): sessions, not keys; its first-run link lives in this process only.
  const firstRun = new FirstRun()
  const panel = panelRoutes(deps, { firstRun })
  // Compiled once at startup; a route under /api, /mcp or /admin without `access` stops the start here.
  const table = new AccessTable(declaredRoutes([...api, mcp, panel].flatMap((r) => r.routes)))
  const gate = new Gate(deps, table, new PanelGate(deps))
  const edge = new Edge(deps.config, (req): Promise<Response> => app.handle(req))
  const requests = new RequestLog(deps.log, deps.config.trustProxy)
  const errorLog = new LogOnce(deps.log, deps.clock)

  const base = new Elysia({ name: 'storefront' })
    .wrap(requests.wrap as never)
    .use(
      apiDocs({
        path: '/docs',
        servers: [{ url: deps.config.publicUrl ?? '/', description: 'This service' }],
        documentation: {
          info: { title: 'Storefront API', version: '1.0.0', description: SCOPES_TEXT },
          components: {
            securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key (sfk_…)' } },
          },
          tags: [
            { name: 'Catalog', description: 'Products, variants and categories' },
            { name: 'Orders', description: 'Orders and customers' },
            { name: 'Store', description: 'Store settings, discounts, shipping, reviews, stats' },
            { name: 'Webhooks', description: 'Standard Webhooks endpoints and delivery log' },
            { name: 'Public', description: 'No API key; limited per client IP' },
          ],
        },
      }),
    )
    .use(pipeline(deps, gate, edge, requests, preRouted(deps)))
    .onError(({ code, error, set, query, request }) => {
      const result = toErrorResult(code, error, {
        query: query as Record<string, string | undefined>,
        requestId: set.headers['x-request-id'] as string,
        log: deps.log,
        errors: errorLog,
        url: request.url,
        writeHealth: deps.writeHealth,
      })
      set.status = result.status
      if (result.headers) Object.assign(set.headers, result.headers)
      set.headers['content-type'] = 'application/json'
      return result.body
    })
    .use(bodyDepth)
    .use(objectBody((): readonly RouteInfo[] => app.routes))
    .get(
      '/health',
      ({ set }) => {
        // Replication is reported, never a 503: the shop serves without it (replica/status.ts).
        const replica = deps.replica.status()
        // 503 while writes fail for storage reasons (db/write-health.ts): reads still work.
        const degraded = deps.writeHealth.degraded
        if (!degraded) return { status: 'ok' as const, replica }
        set.status = 503
        return { status: 'degraded' as const, reason: degraded.reason, replica }
      },
      {
        response: {
          200: t.Object({ status: t.Literal('ok'), replica: ReplicaHealth }),
          503: t.Object({
            status: t.Literal('degraded'),
            reason: t.UnionEnum(['disk_full', 'io_error']),
            replica: ReplicaHealth,
          }),
        },
        detail: {
          tags: ['Public'],
          summary: "Health check for containers (503 degraded while writes fail), with the replica's state and lag",
        },
      },
    )
  // Elysia's `use` mounts on the instance itself: the API's modules need not widen its type one by one.
  for (const routes of api) base.use(routes)
  const app = base
    .use(mcp)
    .use(oauthRoutes(deps))
    .use(mediaRoutes(deps))
    .use(orderStatusRoutes(deps))
    .use(shopRoutes(deps))
    .use(panel)

  return Object.assign(app, { gate, firstRun })
}

export type App = ReturnType<typeof createApp>
