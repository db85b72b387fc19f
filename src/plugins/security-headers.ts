/**
 * Headers on every response (contract "Browsers and the public edge"): `nosniff` always; HSTS
 * when the client reached the service over https (itself, or a proxy that says so under
 * TRUST_PROXY); `Cache-Control: no-store` on key-authenticated routes, so no shared cache or
 * browser keeps a shop's orders or customers. Set in onRequest so error answers carry them too.
 */
import type { Config } from '../config'
import { policyFor } from './policy'

export const HSTS = 'max-age=31536000'

export function setSecurityHeaders(config: Config, request: Request, path: string, headers: Record<string, string | number>): void {
  headers['x-content-type-options'] = 'nosniff'
  const https = config.trustProxy ? request.headers.get('x-forwarded-proto') === 'https' : request.url.startsWith('https:')
  if (https) headers['strict-transport-security'] = HSTS
  if (policyFor(request.method, path).kind === 'key') headers['cache-control'] = 'no-store'
}
