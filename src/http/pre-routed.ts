/**
 * Key GETs answered right after the gate, before routing (docs/decisions/016): Elysia's
 * per-route work — headers copied into an object, cookies parsed, the query parsed, validated and
 * decoded, the macro's resolve — costs ~20 µs a request, as much as a bare server's whole answer
 * (008). A read listed here is answered by the pipeline with the same service call its route
 * makes, when it can tell the router would answer 200 with that body:
 *
 * - its query string is one its route has validated and answered before (`ValidQueries`: the
 *   route remembers the decoded query after a 200, so nothing is answered here that the route's
 *   validation would refuse), or it takes no query and the request has none;
 * - its answer declines (undefined) or throws: then the request goes on to the router, which
 *   answers as always (a 404 or 403 is built there, not here).
 *
 * The gate has already passed the request (key, store, rate limit, scope, plan; a public read's
 * per-IP limit); a route whose `owns` check the gate leaves to the handler (a GET without a
 * query) makes that check in its answer, as the handler does. A parameter needs no checking
 * here: an answer finds its record by it or declines, and every stored id or slug was
 * validated when it was written.
 */
import { routeKey, type CachedBody, type StoreCache } from '../db/cache'
import type { Ctx } from '../kernel/context'

export interface PreRoutedRead {
  /** The route's pattern as declared, parameter last if any (`/api/v1/customers/:id`): the log line's `route`. */
  route: string
  /** As the route's own answer has it. */
  contentType: string
  /** The route takes a query (then only remembered query strings are answered here). */
  query: boolean
  /** A public route (no key, so no `ctx`); otherwise a key route. */
  public?: true
  /** The body the route would send, or undefined to leave the request to the router. */
  answer(x: {
    ctx: Ctx | undefined
    id: string | undefined
    query: unknown
    cache: StoreCache
    routeKey: string
    clientBucket: () => string
  }): CachedBody | undefined
}

/** The query string of a URL, without its `?` ('' when none). */
export function queryString(url: string): string {
  const q = url.indexOf('?')
  return q === -1 ? '' : url.slice(q + 1)
}

const MAX_PER_ROUTE = 1_000

/**
 * Query strings a route has validated and answered 200, with the query Elysia decoded from them
 * (defaults applied, numbers coerced), per route. Bounded: a route that sees more distinct
 * strings than MAX_PER_ROUTE starts over (they are just answered by the router meanwhile).
 */
export class ValidQueries {
  private byRoute = new Map<string, Map<string, unknown>>()

  remember(route: string, url: string, query: unknown): void {
    let m = this.byRoute.get(route)
    if (!m) this.byRoute.set(route, (m = new Map()))
    if (m.size >= MAX_PER_ROUTE) m.clear()
    m.set(queryString(url), query)
  }

  get(route: string, qs: string): unknown {
    return this.byRoute.get(route)?.get(qs)
  }
}

/** The pre-routed reads by pattern, matched against a request's path. */
export class PreRouted {
  private byRoute = new Map<string, PreRoutedRead>()

  constructor(reads: readonly PreRoutedRead[]) {
    // A parameter (last) is keyed as `/:`, whatever its name.
    for (const r of reads) this.byRoute.set(r.route.replace(/\/:[^/]+$/, '/:'), r)
  }

  /**
   * The read a GET of `path` is, with its parameter; undefined when none. A pattern's parameter
   * is its last segment, so `/api/v1/customers/x` is tried as `/api/v1/customers/:id` — unless
   * `path` is a route of its own (`isFixed`: a parameterless route beside the pattern).
   */
  match(path: string, isFixed: (path: string) => boolean): { read: PreRoutedRead; id: string | undefined } | undefined {
    const fixed = this.byRoute.get(path)
    if (fixed) return { read: fixed, id: undefined }
    const slash = path.lastIndexOf('/')
    const id = path.slice(slash + 1)
    if (!id) return undefined
    const read = this.byRoute.get(`${path.slice(0, slash)}/:`)
    return read && !isFixed(path) ? { read, id } : undefined
  }

  /** The answer's body for a GET the gate passed (`ctx`: a key request's), or undefined to route it. */
  answer(
    ctx: Ctx | undefined,
    path: string,
    url: string,
    x: { cache: StoreCache; queries: ValidQueries; clientBucket: () => string; isFixed: (path: string) => boolean },
  ): { body: CachedBody; read: PreRoutedRead } | undefined {
    const { cache, queries, clientBucket } = x
    const m = this.match(path, x.isFixed)
    if (!m || (m.read.public === true) !== (ctx === undefined)) return undefined
    const qs = queryString(url)
    let query: unknown
    if (m.read.query) {
      query = queries.get(m.read.route, qs)
      if (query === undefined) return undefined
    } else if (qs !== '' || url.endsWith('?')) return undefined
    try {
      const body = m.read.answer({ ctx, id: m.id, query, cache, routeKey: routeKey(url), clientBucket })
      return body === undefined ? undefined : { body, read: m.read }
    } catch {
      return undefined // the router answers it, errors included
    }
  }
}
