/**
 * One JSON line per request at `info`:
 * `{ time, level, msg: "request", id, method, route, path, status, ms, storeId, keyPrefix, ip }`.
 *
 * What a line never holds: bodies, headers (keys, secrets), the query string (`q` searches
 * customers by name or phone, `check-slug?slug=` and cursors are the client's text), phone
 * numbers or addresses. `path` is the path alone, cut at 256 characters; a declared route's
 * parameters are ids and public slugs. `keyPrefix` is the 12-character prefix the API already
 * shows in key listings, and only for a key that exists (an unknown key's first characters may
 * be a real key mistyped).
 *
 * How: an Elysia `wrap` around the whole handler (it sees the final Response, including those
 * the pipeline answers before routing and the error mapper's) starts the clock and logs; the
 * pipeline's onRequest (plugins/pipeline.ts) fills in the request id, the path and the Elysia
 * context (for its matched `route`), and the gate the store and key. In-process sub-requests
 * (an /mcp tool call, a doubled-slash re-route) are part of the request that made them: they
 * get no line of their own. With `LOG_LEVEL=warn` nothing is timed or built.
 */
import type { Logger } from '../lib/log'
import { peerIp, subRequestIps } from '../lib/client-ip'

/** A well-formed incoming X-Request-Id is kept (so a proxy's id follows the request); anything else is replaced. */
export const REQUEST_ID_RE = /^[A-Za-z0-9._-]{1,64}$/
const MAX_PATH = 256

interface IpServer {
  requestIP(req: Request): { address: string } | null
}

/** What the pipeline and the gate learn about a request, for its line. */
export interface RequestEntry {
  id: string
  start: number
  path?: string
  /** The request's Elysia context: `route` is the matched route's pattern once routed. */
  c?: { route?: string; server?: IpServer | null }
  /** Set by the gate once a valid key is found (http/gate.ts). */
  storeId?: string | null
  keyPrefix?: string | null
}

export class RequestLog {
  /**
   * The entry the wrap just made, handed to the pipeline's onRequest, which runs synchronously
   * inside the wrapped call (before any await): no lookup keyed by the Request per request.
   */
  private current: { request: Request; entry: RequestEntry } | undefined
  private counter = 0
  private readonly on: boolean

  constructor(
    private log: Logger,
    private trustProxy: boolean,
  ) {
    this.on = log.enabled?.('info') ?? true
  }

  /**
   * The request's entry, its id chosen: the client's X-Request-Id when well-formed, else a new
   * one. A request the wrap does not log (a sub-request, logging off) gets a loose entry.
   */
  begin(request: Request): RequestEntry {
    const handed = this.current
    this.current = undefined
    const entry = handed !== undefined && handed.request === request ? handed.entry : { id: '', start: 0 }
    const given = request.headers.get('x-request-id')
    entry.id =
      given !== null && REQUEST_ID_RE.test(given) ? given : (++this.counter).toString(36) + Date.now().toString(36)
    return entry
  }

  /** For Elysia's `wrap`: times the whole handler and logs its final Response. */
  readonly wrap = (fn: (request: Request) => unknown) => (request: Request) => {
    if (!this.on || subRequestIps.has(request)) return fn(request)
    const entry: RequestEntry = { id: '', start: performance.now() }
    this.current = { request, entry }
    const res = fn(request)
    this.current = undefined
    if (res instanceof Promise) return res.then((r: Response) => this.end(request, entry, r))
    return this.end(request, entry, res as Response)
  }

  private end(request: Request, entry: RequestEntry, res: Response): Response {
    const ms = Math.round((performance.now() - entry.start) * 100) / 100
    if (!entry.id) {
      // The pipeline never saw it (a response Elysia built before any hook ran): the id is
      // added here. Otherwise the pipeline's set.headers carry it, early answers included.
      entry.id = this.begin(request).id
      try {
        res.headers.set('x-request-id', entry.id)
      } catch {
        /* an immutable Response: the line still carries the id */
      }
    }
    let path = entry.path
    if (path === undefined) {
      const url = request.url
      const start = url.indexOf('/', url.indexOf('//') + 2)
      const q = url.indexOf('?', start)
      path = q === -1 ? url.slice(start) : url.slice(start, q)
    }
    this.log.info('request', {
      id: entry.id,
      method: request.method,
      route: entry.c?.route ?? null,
      path: path.length > MAX_PATH ? path.slice(0, MAX_PATH) : path,
      status: res.status,
      ms,
      storeId: entry.storeId ?? null,
      keyPrefix: entry.keyPrefix ?? null,
      // The wrap logs no sub-request, so the address is the peer's (or the proxy's header).
      ip: peerIp(request, entry.c?.server, this.trustProxy),
    })
    return res
  }
}
