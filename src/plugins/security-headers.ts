/**
 * Headers on every response: `nosniff` always; HSTS
 * when the client reached the service over https (itself, or a proxy that says so under
 * TRUST_PROXY). Set in onRequest so error answers carry them too. `Cache-Control: no-store` on
 * key-authenticated routes is set by the gate, which knows the route's declared access.
 */
import type { Config } from '../config'

export const HSTS = 'max-age=31536000'

export function setSecurityHeaders(config: Config, request: Request, headers: Record<string, string | number>): void {
  headers['x-content-type-options'] = 'nosniff'
  const https = config.trustProxy
    ? request.headers.get('x-forwarded-proto') === 'https'
    : request.url.startsWith('https:')
  if (https) headers['strict-transport-security'] = HSTS
}
