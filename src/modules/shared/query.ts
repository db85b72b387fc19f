import { gte, type SQL, type Column } from 'drizzle-orm'
import { ValidationError } from '../../lib/errors'
import { parseIso } from '../../lib/time'
import type { CachedBody } from '../../db/cache'

export function page(q: { limit?: number; offset?: number }) {
  return { limit: q.limit ?? 50, offset: q.offset ?? 0 }
}

/** ISO string → epoch ms, or 400 naming the field. */
export function isoParam(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined
  const ms = parseIso(value)
  if (ms === undefined)
    throw new ValidationError(field, 'invalid_format', `'${field}' must be an ISO 8601 date or date-time`)
  return ms
}

/** createdSince / updatedSince filters. */
export function sinceFilters(
  q: { createdSince?: string; updatedSince?: string },
  cols: { createdAt: Column; updatedAt: Column },
): SQL[] {
  const out: SQL[] = []
  const c = isoParam(q.createdSince, 'createdSince')
  const u = isoParam(q.updatedSince, 'updatedSince')
  if (c !== undefined) out.push(gte(cols.createdAt, c))
  if (u !== undefined) out.push(gte(cols.updatedAt, u))
  return out
}

/** `%term%` for `lower(col) LIKE ? ESCAPE '\\'`: lower-cased, with LIKE's wildcards escaped. */
export const containsPattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** `isActive` query: true (default where given), false, or all. */
export function activeFilter(value: string | undefined, fallback: 'true' | 'all'): boolean | undefined {
  const v = value ?? fallback
  return v === 'all' ? undefined : v === 'true'
}

/**
 * A pre-serialized JSON reply for cached bodies (no re-validation, no re-serialization), best
 * given as a Blob (a Response shares a Blob's bytes). The Response takes the headers the gate
 * already set (request id, rate limits), and `set.headers` is emptied so Elysia hands it out
 * as-is instead of re-wrapping it to merge them (docs/decisions/005). `contentType`: a route
 * that used to answer with an object keeps the header Elysia gave it (`…;charset=utf-8`).
 */
export function sendJson(
  set: { headers: Record<string, string | number> },
  body: CachedBody,
  contentType = 'application/json',
): Response {
  const headers = set.headers as Record<string, string>
  headers['content-type'] = contentType
  set.headers = {}
  return new Response(body, { headers })
}
