/**
 * The public edge's steps of the request pipeline, after the security headers and the proxy
 * redirect and before the gate: doubled slashes re-routed, CORS preflights answered (before any
 * rate limit), CORS headers set on the public endpoints' answers, and /mcp's Origin checked
 * (before its key). One call from the app's onRequest; returns a Response when the request ends here.
 */
import type { Config } from '../config'
import { checkMcpOrigin } from '../mcp/guard'
import { Cors } from './cors'
import { collapsedPath, reroute } from './slashes'

export class Edge {
  private cors: Cors

  constructor(
    private config: Config,
    /** The app's own handle, for a re-routed request. */
    private handle: (req: Request) => Promise<Response>,
  ) {
    this.cors = new Cors(config)
  }

  route(
    request: Request,
    url: string,
    pathStart: number,
    path: string,
    headers: Record<string, string | number>,
    ip: () => string,
  ): Response | Promise<Response> | undefined {
    const single = collapsedPath(path)
    if (single !== undefined)
      return reroute(request, url.slice(0, pathStart) + single + url.slice(pathStart + path.length), ip, this.handle)
    const preflight = this.cors.preflight(request, path)
    if (preflight) return preflight
    this.cors.apply(request, path, headers)
    if (path === '/mcp') checkMcpOrigin(this.config, request)
    return undefined
  }
}
