/**
 * How a panel page goes out: finished Responses with the pipeline's
 * headers, redirects, JSON, and small helpers the panel's routes share.
 */
import type { Context } from 'elysia'
import type { ValidationError } from '../lib/errors'
import type { Words } from './words'

/**
 * Only this origin, no inline script, no framing; forms post here only; the manifest and service worker from here too.
 */
export const PANEL_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** Elysia's response headers and status for this request: what the pipeline set so far. */
export type ResponseSet = Context['set']

export interface Req {
  request: Request
  set: ResponseSet
  body: unknown
  query: Record<string, string | undefined>
  params: Record<string, string>
}

export const field = (body: unknown, name: string): string | undefined => {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined
  return typeof v === 'string' ? v : undefined
}

/** A finished Response that keeps the headers the pipeline set (request id, HSTS, nosniff). */
export function finish(
  set: Req['set'],
  status: number,
  body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null,
  headers: Record<string, string>,
): Response {
  const out = { ...(set.headers as Record<string, string>), ...headers }
  set.headers = {}
  return new Response(body, { status, headers: out })
}

export function page(set: Req['set'], status: number, text: string, extra: Record<string, string> = {}): Response {
  return finish(set, status, text, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': PANEL_CSP,
    // Link tokens ride in query strings: no page of the panel sends its address to another
    // origin. (`no-referrer` would also make Chromium send `Origin: null` on the panel's own
    // form posts, which the same-origin check must refuse.)
    'referrer-policy': 'same-origin',
    ...extra,
  })
}

export const seeOther = (set: Req['set'], location: string, cookie?: string) =>
  finish(set, 303, null, { location, 'cache-control': 'no-store', ...(cookie ? { 'set-cookie': cookie } : {}) })
export const json = (set: Req['set'], status: number, value: unknown, cookie?: string) =>
  finish(set, status, JSON.stringify(value), {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    ...(cookie ? { 'set-cookie': cookie } : {}),
  })

/** A new password's problem, in the person's words. */
export function passwordMessage(w: Words, e: ValidationError): string {
  const problem = (e.details as { problem?: string } | undefined)?.problem
  if (problem === 'too_short') return w.signin.pwTooShort
  if (problem === 'too_long') return w.signin.pwTooLong
  if (problem === 'common') return w.signin.pwCommon
  if (problem === 'contains_email') return w.signin.pwContainsEmail
  return w.signin.pwRequired
}

export const minutes = (sec: number) => Math.max(1, Math.ceil(sec / 60))

/** "Chrome on Android" from a User-Agent, for "Your devices". */
export function deviceName(ua: string | null, unknown: string): string {
  if (!ua) return unknown
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : undefined
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined
  if (browser && os) return `${browser} · ${os}`
  return browser ?? os ?? ua.slice(0, 40)
}
