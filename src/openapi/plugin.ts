/**
 * Serves the API's documentation: the OpenAPI document at `<path>/json` (the generator's output,
 * made standard by normalize.ts), the reference page at `<path>` and `<path>/`, and the page's
 * script. Takes @elysiajs/openapi's `documentation` and `exclude` options.
 */
import { Elysia } from 'elysia'
import { toOpenAPISchema, type ElysiaOpenAPIConfig } from '@elysiajs/openapi'
import { accessOf, isRateLimited } from './access'
import { AccessTable, declaredRoutes } from '../http/access'
import { normalizeDocument } from './normalize'
import { docsPage, docsScript, SCRIPT_NAME } from './ui'

export interface ApiDocsOptions {
  path: `/${string}`
  documentation: NonNullable<ElysiaOpenAPIConfig['documentation']>
  exclude?: ElysiaOpenAPIConfig['exclude']
  servers: { url: string; description?: string }[]
}

type Route = { method: string; path: string; hooks?: Record<string, unknown> }

/** An upload route declares its body parser (`parse: 'formdata'` or a multipart `type`). */
function declaresMultipart(route: Route | undefined): boolean {
  const h = route?.hooks ?? {}
  const parsers = [h.parse, h.type].flat().map((p) => (typeof p === 'string' ? p : (p as { fn?: unknown })?.fn))
  return parsers.some((p) => p === 'formdata' || p === 'multipart/form-data')
}

const templateOf = (path: string) => path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1')

export function apiDocs(o: ApiDocsOptions) {
  const specPath = `${o.path}/json`
  const scriptPath = `${o.path}/assets/${SCRIPT_NAME}`
  const app = new Elysia({ name: 'storefront-docs' })
  let cached: { routes: number; body: string } | undefined
  // Every route of the app the plugin is used in (what @elysiajs/openapi itself reads).
  const allRoutes = () => (app as unknown as { getGlobalRoutes(): Route[] }).getGlobalRoutes()

  const build = () => {
    const routes = allRoutes()
    const exclude = { ...o.exclude, paths: [o.path, `${o.path}/`, specPath, scriptPath] }
    const generated = toOpenAPISchema(app, exclude, undefined, undefined, '3.1.2')
    const byKey = new Map(routes.map((r) => [`${r.method.toLowerCase()} ${templateOf(r.path)}`, r]))
    const table = new AccessTable(declaredRoutes(routes.map((r) => ({ ...r, hooks: r.hooks ?? {} }))))
    const { document } = normalizeDocument(
      {
        ...o.documentation,
        openapi: '3.1.2',
        paths: generated.paths,
        components: {
          ...o.documentation.components,
          schemas: { ...generated.components.schemas, ...o.documentation.components?.schemas },
        },
      },
      {
        access: (method, path) => accessOf(table, method, path),
        rateLimited: (method, path) => isRateLimited(table, method, path),
        multipart: (method, path) => declaresMultipart(byKey.get(`${method} ${path}`)),
        servers: o.servers,
      },
    )
    return JSON.stringify(document)
  }

  const page = () =>
    docsPage({
      title: o.documentation.info?.title ?? 'API reference',
      description: o.documentation.info?.description,
      specUrl: specPath,
      scriptUrl: scriptPath,
    })

  return app
    .get(
      specPath,
      () => {
        // Routes are all registered before the first request; recount in case a test adds one.
        const count = allRoutes().length
        if (cached?.routes !== count) cached = { routes: count, body: build() }
        return new Response(cached.body, { headers: { 'content-type': 'application/json; charset=utf-8' } })
      },
      { detail: { hide: true } },
    )
    .get(o.path, page, { detail: { hide: true } })
    .get(`${o.path}/`, page, { detail: { hide: true } })
    .get(scriptPath, ({ request }) => docsScript(request.headers.get('accept-encoding')), { detail: { hide: true } })
}
