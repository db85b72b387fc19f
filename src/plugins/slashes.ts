/**
 * A path with doubled slashes (`//api/v1/products`, as clients with a trailing-slash base URL
 * send) is served as the single-slash path: the request is handled again in-process under the
 * collapsed URL, with the same method, headers, body and client IP.
 */
import { subRequestIps } from '../lib/client-ip'

/** The collapsed path, or undefined when the path has no doubled slash. */
export const collapsedPath = (path: string): string | undefined =>
  path.includes('//') ? path.replace(/\/{2,}/g, '/') : undefined

export function reroute(
  request: Request,
  url: string,
  ip: () => string,
  handle: (req: Request) => Promise<Response>,
): Promise<Response> {
  const next = new Request(url, request)
  subRequestIps.set(next, ip())
  return handle(next)
}
