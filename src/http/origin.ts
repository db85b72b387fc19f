/** This service's own origin: PUBLIC_URL's, else the scheme and Host the request reached it at. */
import type { Config } from '../config'

export function ownOrigin(config: Config, request: Request): string {
  if (config.publicUrl) return new URL(config.publicUrl).origin
  const host = request.headers.get('host') ?? new URL(request.url).host
  const https = config.trustProxy
    ? request.headers.get('x-forwarded-proto') === 'https'
    : request.url.startsWith('https:')
  return `${https ? 'https' : 'http'}://${host}`.toLowerCase()
}
