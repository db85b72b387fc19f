/**
 * What every request goes through before routing: a request id (the client's X-Request-Id when
 * well-formed; http/request-log.ts), the security headers, the
 * redirect to https behind a proxy, the public edge (plugins/edge.ts: doubled slashes, CORS,
 * /mcp's Origin), and the gate (http/gate.ts), whose decision it keeps on the request's own
 * context (plugins/request-state.ts): the access macro resolves a key route's `ctx` from it.
 * Nothing per request is kept elsewhere. A key GET whose whole answer is cached under its path
 * and query (`routeKey`, db/cache.ts) is answered right after the gate, before routing: Elysia's
 * per-route work (headers copied, cookies and query parsed, the query validated and decoded,
 * the response mapped) was most of a cached read's cost (docs/decisions/008). The reads of
 * http/pre-routed.ts (lists, a customer, a product by id, the public store read) are answered
 * there too when they can be (docs/decisions/016).
 */
import { Elysia } from 'elysia'
import type { Config } from '../config'
import type { CachedBody, StoreCache } from '../db/cache'
import type { PreRouted, ValidQueries } from '../http/pre-routed'
import type { Gate } from '../http/gate'
import type { RequestLog } from '../http/request-log'
import { clientIp, ipBucket } from '../lib/client-ip'
import type { Edge } from './edge'
import { setSecurityHeaders } from './security-headers'
import { keepState } from './request-state'
import { sendJson } from '../modules/shared'

/**
 * An answer made before routing (a cached body, a pre-routed read): the route's own `sendJson`
 * (the headers the pipeline and gate set, the route's content type), with the route's pattern on
 * the request's log line.
 */
function answerEarly(
  c: { set: { headers: Record<string, string | number> } },
  route: string,
  contentType: string,
  body: CachedBody,
): Response {
  ;(c as { route?: string }).route = route
  return sendJson(c.set, body, contentType)
}

export function pipeline(
  deps: { config: Config; cache: StoreCache; queries: ValidQueries },
  gate: Gate,
  edge: Edge,
  requests: RequestLog,
  preRouted: PreRouted,
) {
  const isFixed = (path: string) => gate.table.fixedRoute('GET', path) !== undefined
  return new Elysia({ name: 'pipeline' }).onRequest((c) => {
    const { request, set, server } = c
    // The request's log line (http/request-log.ts) reads the matched `route` from `c` later.
    const entry = requests.begin(request)
    entry.c = c as { route?: string }
    set.headers['x-request-id'] = entry.id
    const url = request.url
    const pathStart = url.indexOf('/', url.indexOf('//') + 2)
    const q = url.indexOf('?', pathStart)
    const path = q === -1 ? url.slice(pathStart) : url.slice(pathStart, q)
    entry.path = path
    const headers = set.headers as Record<string, string>
    setSecurityHeaders(deps.config, request, headers)
    if (deps.config.trustProxy && path !== '/health' && request.headers.get('x-forwarded-proto') !== 'https') {
      // PUBLIC_URL is required with TRUST_PROXY (config.ts); the Host fallback serves tests only.
      const origin = deps.config.publicUrl ?? `https://${request.headers.get('host') ?? 'localhost'}`
      return new Response(null, { status: 301, headers: { location: origin + url.slice(pathStart) } })
    }
    const ended = edge.route(request, url, pathStart, path, headers, () =>
      clientIp(request, server, deps.config.trustProxy),
    )
    if (ended) return ended
    // The client's rate-limit bucket, looked up at most once per request (the gate and a route may both ask).
    let bucket: string | undefined
    const clientBucket = () => (bucket ??= ipBucket(clientIp(request, server, deps.config.trustProxy)))
    const gated = gate.check(request, path, clientBucket, headers, entry)
    // A panel request the gate ends (sign in first, 403, 402) leaves as a page.
    if (gated instanceof Response) return gated
    if (gated === undefined && request.method === 'GET') {
      const pre = preRouted.answer(undefined, path, url, {
        cache: deps.cache,
        queries: deps.queries,
        clientBucket,
        isFixed,
      })
      if (pre) return answerEarly(c, pre.read.route, pre.read.contentType, pre.body)
    }
    if (gated !== undefined && request.method === 'GET' && !('panel' in gated)) {
      const hit = deps.cache.getResponse(gated.store.id, url.slice(pathStart))
      const route = hit && gate.table.fixedRoute('GET', path)
      if (route) return answerEarly(c, route, 'application/json', hit)
      // A read that can be answered without the router's per-route work (http/pre-routed.ts).
      const pre = preRouted.answer(gated, path, url, {
        cache: deps.cache,
        queries: deps.queries,
        clientBucket,
        isFixed,
      })
      if (pre) return answerEarly(c, pre.read.route, pre.read.contentType, pre.body)
    }
    keepState(c, { gated, clientBucket })
  })
}
