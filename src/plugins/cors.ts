/**
 * CORS for the five public endpoints, so a storefront on
 * another origin can place an order from a browser. Key-authenticated routes get no CORS headers:
 * a secret key does not belong in a browser, and without them a browser refuses to read the answer.
 *
 * Both halves run in the app's onRequest, before the gate: a preflight is answered there (204,
 * counted by no rate limit), and an actual request gets its headers set early so that error
 * answers (400, 404, 429) carry them too — a page can only read an error it is allowed to see.
 */
import type { Config } from '../config'

const PUBLIC: { method: string; match: (path: string) => boolean }[] = [
  { method: 'POST', match: (p) => p === '/api/orders' },
  { method: 'POST', match: (p) => p === '/api/reviews' },
  { method: 'GET', match: (p) => p === '/api/check-slug' },
  { method: 'GET', match: (p) => p === '/api/v1/stores' },
  { method: 'GET', match: (p) => p.startsWith('/api/v1/stores/') && p.indexOf('/', 15) === -1 && p.length > 15 },
]

export const EXPOSE_HEADERS =
  'X-RateLimit-Limit, X-RateLimit-Remaining, RateLimit, RateLimit-Policy, Retry-After, ' +
  'Idempotent-Replayed, X-Request-Id'
export const ALLOW_HEADERS = 'content-type, idempotency-key'
export const MAX_AGE_SEC = 600

/** The method a public path answers, or undefined for any other path. */
export function publicMethod(path: string): string | undefined {
  for (const e of PUBLIC) if (e.match(path)) return e.method
  return undefined
}

/** The Access-Control-Allow-Origin value for this Origin, or undefined when it is not allowed. */
function allowOrigin(config: Config, origin: string | null): string | undefined {
  if (config.corsOrigins.includes('*')) return '*'
  if (origin !== null && config.corsOrigins.includes(origin)) return origin
  return undefined
}

export class Cors {
  constructor(private config: Config) {}

  /** A preflight for a public path: its 204 answer. Undefined for anything else. */
  preflight(request: Request, path: string): Response | undefined {
    if (request.method !== 'OPTIONS') return undefined
    const method = publicMethod(path)
    if (!method) return undefined
    const headers: Record<string, string> = {}
    if (!this.config.corsOrigins.includes('*')) headers.vary = 'Origin'
    const allowed = allowOrigin(this.config, request.headers.get('origin'))
    if (allowed) {
      headers['access-control-allow-origin'] = allowed
      headers['access-control-allow-methods'] = `${method}, OPTIONS`
      headers['access-control-allow-headers'] = ALLOW_HEADERS
      headers['access-control-max-age'] = String(MAX_AGE_SEC)
    }
    return new Response(null, { status: 204, headers })
  }

  /** Sets the CORS headers of an actual response to a public path (errors included). */
  apply(request: Request, path: string, headers: Record<string, string | number>): void {
    if (!publicMethod(path)) return
    const allowed = allowOrigin(this.config, request.headers.get('origin'))
    // The answer depends on Origin only when the origins are listed.
    if (!this.config.corsOrigins.includes('*')) headers.vary = 'Origin'
    if (!allowed) return
    headers['access-control-allow-origin'] = allowed
    headers['access-control-expose-headers'] = EXPOSE_HEADERS
  }
}
