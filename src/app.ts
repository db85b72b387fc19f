/**
 * createApp(deps): the gate, the error mapper, docs, public routes and the /api/v1 modules.
 * No listening here: index.ts serves it, tests call app.handle().
 */
import { Elysia, t } from 'elysia'
import { apiDocs } from './openapi/plugin'
import type { Deps } from './context'
import { Gate } from './plugins/gate'
import { bodyDepth } from './plugins/body-depth'
import { objectBody, type RouteInfo } from './plugins/object-body'
import { Edge } from './plugins/edge'
import { setSecurityHeaders } from './plugins/security-headers'
import { toErrorResult } from './plugins/errors'
import { clientIp, ipBucket } from './lib/client-ip'
import { productRoutes } from './modules/products/routes'
import { webhookRoutes } from './modules/webhooks/routes'
import { categoryRoutes } from './modules/categories/routes'
import { publicReviewRoutes, reviewRoutes } from './modules/reviews/routes'
import { statsRoutes } from './modules/stats/routes'
import { billingRoutes } from './modules/billing/routes'
import { storeRoutes } from './modules/store/routes'
import { discountRoutes } from './modules/discounts/routes'
import { shippingRoutes } from './modules/shipping/routes'
import { storefrontRoutes } from './modules/storefront/routes'
import { mcpRoutes } from './mcp/http'
import { orderRoutes } from './modules/orders/routes'
import { publicOrderRoutes } from './modules/orders/public-routes'
import { customerRoutes } from './modules/customers/routes'
import { shopRoutes } from './shop/routes'
import { imageRoutes } from './modules/images/routes'
import { mediaRoutes } from './modules/images/media'

const SCOPES_TEXT =
  'Send `Authorization: Bearer <API_KEY>`. GET needs `<resource>:read`; POST, PUT and DELETE need `<resource>:write`. ' +
  'Checks run in this order: 401 key → 402 suspended store → 429 per-key limit (100/min, every request counts) → 403 scope → 403 another store\'s record → 403 plan → 400 validation → 404.'

export function createApp(deps: Deps) {
  const gate = new Gate(deps)
  const edge = new Edge(deps.config, (req): Promise<Response> => app.handle(req))
  let counter = 0

  const app = new Elysia({ name: 'storefront' })
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
    .onRequest(({ request, set, server }) => {
      const requestId = (++counter).toString(36) + Date.now().toString(36)
      set.headers['x-request-id'] = requestId
      const url = request.url
      const pathStart = url.indexOf('/', url.indexOf('//') + 2)
      const q = url.indexOf('?', pathStart)
      const path = q === -1 ? url.slice(pathStart) : url.slice(pathStart, q)
      setSecurityHeaders(deps.config, request, path, set.headers as Record<string, string>)
      if (deps.config.trustProxy && path !== '/health' && request.headers.get('x-forwarded-proto') !== 'https') {
        const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host') ?? 'localhost'
        const origin = deps.config.publicUrl ?? `https://${host}`
        return new Response(null, { status: 301, headers: { location: origin + url.slice(pathStart) } })
      }
      const ended = edge.route(request, url, pathStart, path, set.headers as Record<string, string>, () => clientIp(request, server, deps.config.trustProxy))
      if (ended) return ended
      gate.check(request, path, () => ipBucket(clientIp(request, server, deps.config.trustProxy)), set.headers as Record<string, string>)
    })
    .onError(({ code, error, set, query, request }) => {
      const result = toErrorResult(code, error, {
        query: query as Record<string, string | undefined>,
        requestId: set.headers['x-request-id'] as string,
        log: deps.log,
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
        // 503 while writes fail for storage reasons (db/write-health.ts): reads still work.
        const degraded = deps.writeHealth.degraded
        if (!degraded) return { status: 'ok' as const }
        set.status = 503
        return { status: 'degraded' as const, reason: degraded.reason }
      },
      {
        response: { 200: t.Object({ status: t.Literal('ok') }), 503: t.Object({ status: t.Literal('degraded'), reason: t.UnionEnum(['disk_full', 'io_error']) }) },
        detail: { tags: ['Public'], summary: 'Health check for containers (503 degraded while writes fail)' },
      },
    )
    .use(productRoutes(deps))
    .use(imageRoutes(deps))
    .use(mediaRoutes(deps))
    .use(categoryRoutes(deps))
    .use(webhookRoutes(deps))
    .use(publicReviewRoutes(deps))
    .use(reviewRoutes(deps))
    .use(statsRoutes(deps))
    .use(billingRoutes(deps))
    .use(storeRoutes(deps))
    .use(discountRoutes(deps))
    .use(shippingRoutes(deps))
    .use(storefrontRoutes(deps))
    .use(publicOrderRoutes(deps))
    .use(orderRoutes(deps))
    .use(customerRoutes(deps))
    .use(shopRoutes(deps))
    .use(mcpRoutes(deps, (req): Promise<Response> => app.handle(req)))

  return Object.assign(app, { gate })
}

export type App = ReturnType<typeof createApp>
