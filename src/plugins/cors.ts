/**
 * CORS for the five public endpoints (contract "Browsers and the public edge"), so a storefront
 * on another origin can call them from a browser: POST /api/orders, POST /api/reviews,
 * GET /api/check-slug, GET /api/v1/stores, GET /api/v1/stores/:slug. Key-authenticated routes
 * get no CORS headers: a secret key does not belong in a browser.
 *
 * Its onRequest runs before the app's (the gate), so a preflight is answered before any rate
 * limit counts it; headers set on an actual request survive into error responses too.
 */
import { Elysia } from 'elysia'
import type { Config } from '../config'

const EXPOSE = 'X-RateLimit-Limit, X-RateLimit-Remaining, RateLimit, RateLimit-Policy, Retry-After, Idempotent-Replayed, X-Request-Id'

/** The methods a public path allows, or undefined for every other path. */
export function publicMethods(path: string): string | undefined {
  if (path === '/api/orders' || path === '/api/reviews') return 'POST'
  if (path === '/api/check-slug' || path === '/api/v1/stores') return 'GET'
  if (path.startsWith('/api/v1/stores/') && path.indexOf('/', 15) === -1 && path.length > 15) return 'GET'
  return undefined
}

/** The Access-Control-Allow-Origin value for this Origin, or undefined when it is not allowed. */
export function allowOrigin(origin: string, setting: string): string | undefined {
  if (setting === '*') return '*'
  return setting.split(',').includes(origin) ? origin : undefined
}

function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const q = url.indexOf('?', start)
  return q === -1 ? url.slice(start) : url.slice(start, q)
}

export const cors = (config: Pick<Config, 'corsOrigins'>) =>
  new Elysia({ name: 'cors' }).onRequest(({ request, set }) => {
    const origin = request.headers.get('origin')
    if (!origin) return
    const methods = publicMethods(pathOf(request.url))
    if (!methods) return
    const allowed = allowOrigin(origin, config.corsOrigins)
    const headers = set.headers as Record<string, string>
    if (allowed !== '*') headers['vary'] = 'Origin'
    if (request.method === 'OPTIONS') {
      const out: Record<string, string> = allowed
        ? {
            'access-control-allow-origin': allowed,
            'access-control-allow-methods': `${methods}, OPTIONS`,
            'access-control-allow-headers': 'content-type, idempotency-key',
            'access-control-max-age': '600',
          }
        : {}
      if (allowed !== '*') out['vary'] = 'Origin'
      return new Response(null, { status: 204, headers: out })
    }
    if (!allowed) return
    headers['access-control-allow-origin'] = allowed
    headers['access-control-expose-headers'] = EXPOSE
  })
