/**
 * createApp(deps): the request pipeline (request id, proxy redirect, gate), the error mapper,
 * docs, and the routes of src/routes.ts. No listening here: index.ts serves it, tests call
 * app.handle().
 */
import { Elysia, t } from 'elysia'
import { openapi } from '@elysiajs/openapi'
import type { Deps } from './context'
import { AccessTable, declaredRoutes } from './http/access'
import { Gate } from './http/gate'
import { bodyDepth } from './plugins/body-depth'
import { toErrorResult } from './plugins/errors'
import { pipeline } from './plugins/pipeline'
import { mcpRoutes } from './mcp/http'
import { ROUTES } from './routes'

const SCOPES_TEXT =
  'Send `Authorization: Bearer <API_KEY>`. GET needs `<resource>:read`; POST, PUT and DELETE need `<resource>:write`. ' +
  'Checks run in this order: 401 key → 402 suspended store → 429 per-key limit (100/min, every request counts) → 403 scope → 403 plan → 400 validation → 404.'

export function createApp(deps: Deps) {
  const mcp = mcpRoutes((req): Promise<Response> => app.handle(req))
  // Compiled once at startup; a route under /api or /mcp without `access` stops the start here.
  const table = new AccessTable(declaredRoutes([...ROUTES, mcp].flatMap((r) => r.routes)))
  const gate = new Gate(deps, table)

  let app = new Elysia({ name: 'storefront' })
    .use(
      openapi({
        path: '/docs',
        specPath: '/docs/json',
        scalar: { version: '1.34.0' } as never,
        exclude: { paths: ['/docs', '/docs/json'] },
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
    .use(pipeline(deps, gate))
    .onError(({ code, error, set, query, request }) => {
      const result = toErrorResult(code, error, {
        query: query as Record<string, string | undefined>,
        requestId: set.headers['x-request-id'] as string,
        log: deps.log,
        url: request.url,
      })
      set.status = result.status
      set.headers['content-type'] = 'application/json'
      return result.body
    })
    .use(bodyDepth)
    .get('/health', () => ({ status: 'ok' as const }), {
      response: { 200: t.Object({ status: t.Literal('ok') }) },
      detail: { tags: ['Public'], summary: 'Health check for containers' },
    })
  for (const routes of ROUTES) app = app.use(routes) as unknown as typeof app
  app = app.use(mcp) as unknown as typeof app

  return Object.assign(app, { gate })
}

export type App = ReturnType<typeof createApp>
