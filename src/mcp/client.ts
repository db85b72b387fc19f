/**
 * How the tools reach the API: over HTTPS with the operator's settings (stdio server), or
 * in-process through `app.handle` with the caller's own key or OAuth token (the /mcp route). Either way a tool
 * call is one ordinary API request, so scopes, plan checks and rate limits apply to it as usual.
 */
import { readFileSync } from 'node:fs'
import { assistantRequests, subRequestIps } from '../lib/client-ip'

export interface ApiRequest {
  method: string
  /** Path with its query string, e.g. `/api/v1/products?limit=5`. */
  path: string
  body?: unknown
  headers?: Record<string, string>
}

export interface ApiResponse {
  status: number
  headers: Headers
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: unknown
}

export type ApiClient = (req: ApiRequest) => Promise<ApiResponse>

/** The API could not be reached at all (DNS, refused, TLS, timeout, redirect): not an API error. */
export class ConnectionError extends Error {}

export interface Settings {
  url: string
  apiKey: string
  /** PEM text of STOREFRONT_CA_FILE. */
  ca?: string
  caFile?: string
}

export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(`Storefront MCP server: invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Reads and checks STOREFRONT_URL, STOREFRONT_API_KEY and STOREFRONT_CA_FILE once, at start. */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const problems: string[] = []
  const rawUrl = env.STOREFRONT_URL?.trim()
  let url = ''
  if (!rawUrl) problems.push('STOREFRONT_URL is not set (the API origin, e.g. https://localhost:3443)')
  else {
    try {
      const u = new URL(rawUrl)
      if (!/^https?:$/.test(u.protocol))
        problems.push(`STOREFRONT_URL=${JSON.stringify(rawUrl)}: expected an https:// origin`)
      // The key travels in every request: plain http only to this machine.
      else if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
        problems.push(
          `STOREFRONT_URL=${JSON.stringify(rawUrl)}: plain http would send the API key in clear; ` +
            'use https:// (http:// is accepted for localhost only)',
        )
      }
      url = rawUrl.replace(/\/+$/, '')
    } catch {
      problems.push(`STOREFRONT_URL=${JSON.stringify(rawUrl)}: not a URL (expected e.g. https://localhost:3443)`)
    }
  }
  const apiKey = env.STOREFRONT_API_KEY?.trim() ?? ''
  if (!apiKey)
    problems.push(
      'STOREFRONT_API_KEY is not set (create one with `bun run admin key:create --store <store> --scopes all`)',
    )
  else if (/\s/.test(apiKey)) problems.push('STOREFRONT_API_KEY contains whitespace')
  const caFile = env.STOREFRONT_CA_FILE?.trim() || undefined
  let ca: string | undefined
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8')
      if (!ca.includes('-----BEGIN CERTIFICATE-----'))
        problems.push(`STOREFRONT_CA_FILE=${caFile}: not a PEM certificate`)
    } catch (err) {
      problems.push(
        `STOREFRONT_CA_FILE=${caFile}: cannot be read ` +
          `(${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      )
    }
  }
  if (problems.length) throw new SettingsError(problems)
  return { url, apiKey, ca, caFile }
}

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text()
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_UNTRUSTED',
])

/** Says what failed in words an operator can act on. */
export function describeFetchError(err: unknown, origin: string, settings: Pick<Settings, 'caFile'>): string {
  const e = err as { code?: string; message?: string; name?: string }
  const code = e.code ?? ''
  const base = `could not connect to ${origin}`
  if (TLS_CODES.has(code)) {
    return settings.caFile
      ? `${base}: certificate not trusted by STOREFRONT_CA_FILE=${settings.caFile} (${code})`
      : `${base}: certificate not trusted (${code}) — set STOREFRONT_CA_FILE to the server's certificate, ` +
          'e.g. data/tls/cert.pem'
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || /altname|hostname/i.test(e.message ?? '')) {
    return `${base}: the certificate does not name this host (${code || e.message})`
  }
  if (code === 'CERT_HAS_EXPIRED') return `${base}: the server certificate has expired`
  if (code === 'ECONNREFUSED' || code === 'ConnectionRefused')
    return `${base}: connection refused — is the service running?`
  if (code === 'ENOTFOUND') return `${base}: host not found`
  if (e.name === 'TimeoutError' || code === 'ETIMEDOUT') return `${base}: timed out`
  return `${base}: ${e.message ?? String(err)}${code ? ` (${code})` : ''}`
}

/** The stdio server's client: HTTPS to STOREFRONT_URL, verifying the certificate (with the CA file when given). */
export function httpClient(settings: Settings, opts: { timeoutMs?: number } = {}): ApiClient {
  const origin = new URL(settings.url).origin
  return async (req) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${settings.apiKey}`,
      accept: 'application/json',
      ...req.headers,
    }
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    let res: Response
    try {
      res = await fetch(settings.url + req.path, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        // A 301 from the plain-HTTP port would turn a POST into a GET if followed.
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        ...(settings.ca ? { tls: { ca: settings.ca } } : {}),
      })
    } catch (err) {
      throw new ConnectionError(describeFetchError(err, origin, settings))
    }
    if (res.status >= 300 && res.status < 400) {
      throw new ConnectionError(
        `${origin} answered ${res.status} redirecting to ${res.headers.get('location') ?? '?'} — set ` +
          'STOREFRONT_URL to the https origin',
      )
    }
    return { status: res.status, headers: res.headers, body: await readBody(res) }
  }
}

/**
 * The /mcp route's client: each call goes through the whole app (gate, validation, handlers)
 * with the caller's Authorization header and client IP (and the outer request's forwarding
 * headers, which the app reads only with TRUST_PROXY).
 */
export function inProcessClient(handle: (req: Request) => Promise<Response>, outer: Request, ip: string): ApiClient {
  const origin = new URL(outer.url).origin
  const carried: Record<string, string> = {}
  for (const name of ['authorization', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']) {
    const v = outer.headers.get(name)
    if (v !== null) carried[name] = v
  }
  return async (req) => {
    const headers: Record<string, string> = { ...carried, accept: 'application/json', ...req.headers }
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    const inner = new Request(origin + req.path, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    })
    // Public tools (create_order, check_slug) count against the caller's own per-IP limits.
    subRequestIps.set(inner, ip)
    // An order they place is the assistant's; an assistant's OAuth token is accepted on the API
    // only for these calls (http/token-gate.ts).
    assistantRequests.add(inner)
    const res = await handle(inner)
    return { status: res.status, headers: res.headers, body: await readBody(res) }
  }
}
