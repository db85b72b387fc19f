/**
 * How a shop page goes out: the rendered bytes with their validator
 * and gzip copy, 304s, the page headers, the 303 after a form post.
 */
/**
 * Only this origin, no inline script (the JSON data blocks are not scripts), no framing. The
 * checkout posts to /api/orders on the same origin (connect-src 'self').
 */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** A rendered page as cached: the bytes, a gzip copy (made on first use) and the validator. */
export interface Rendered {
  status: number
  type: string
  etag: string
  body: Blob
  gzip(): Blob
}

export function rendered(status: number, text: string, type = 'text/html; charset=utf-8'): Rendered {
  const bytes = new TextEncoder().encode(text)
  const etag = `W/"${Bun.hash(bytes).toString(36)}"`
  let gz: Blob | undefined
  return { status, type, etag, body: new Blob([bytes]), gzip: () => (gz ??= new Blob([Bun.gzipSync(bytes)])) }
}

/** If-None-Match against our (weak) validator: weak comparison, as RFC 9110 says for GET. */
export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  const bare = etag.replace(/^W\//, '')
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === bare)
}

export function respond(
  request: Request,
  set: { headers: Record<string, string | number> },
  r: Rendered,
  cacheControl: string,
  extra: Record<string, string> = {},
): Response {
  // Take the headers onRequest set (the request id) and hand Elysia a finished Response.
  const headers = set.headers as Record<string, string>
  set.headers = {}
  headers['content-type'] = r.type
  headers['cache-control'] = cacheControl
  headers.etag = r.etag
  headers.vary = 'accept-encoding'
  headers['x-content-type-options'] = 'nosniff'
  if (r.type.startsWith('text/html')) {
    headers['content-security-policy'] = PAGE_CSP
    headers['referrer-policy'] = 'strict-origin-when-cross-origin'
  }
  Object.assign(headers, extra)
  if (r.status === 200 && matches(request.headers.get('if-none-match'), r.etag))
    return new Response(null, { status: 304, headers })
  const gzip = (request.headers.get('accept-encoding') ?? '').includes('gzip')
  if (gzip) headers['content-encoding'] = 'gzip'
  return new Response(gzip ? r.gzip() : r.body, { status: r.status, headers })
}

export const PAGE_CACHE = 'no-cache'

/** A 303 back to a page (POST/redirect/GET), keeping the headers set so far (request id, rate limit). */
export function seeOther(set: { headers: Record<string, string | number> }, location: string): Response {
  const headers = set.headers as Record<string, string>
  set.headers = {}
  return new Response(null, { status: 303, headers: { ...headers, location, 'cache-control': 'no-store' } })
}
