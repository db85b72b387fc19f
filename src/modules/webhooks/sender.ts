/**
 * One webhook POST, stateless: no database, no queue, no retry decision. It connects to the
 * address the SSRF check passed (`address`), never to the name again: fetch resolves names with
 * its own resolver and cache, so a second resolution would let a name that answers a public
 * address at check time and loopback a moment later (DNS rebinding) reach the host. The URL
 * fetched carries the IP; the original `Host` header and, for https, the TLS `serverName` (SNI,
 * and the name the certificate is verified against) keep the request what the receiver expects.
 */
import { isIP } from 'node:net'
import { parseRetryAfter } from './retry-policy'

export interface SendRequest {
  /** The endpoint's URL as registered. */
  url: URL
  /**
   * The addresses the SSRF check passed, in the resolver's order: the connection goes to the
   * first that accepts one (a name like `localhost` may answer `::1` first while the receiver
   * listens on 127.0.0.1 only).
   */
  addresses: string[]
  headers: Record<string, string>
  body: string | Uint8Array
  timeoutMs: number
  /** Aborts the send (shutdown). */
  signal: AbortSignal
  /** Extra CA certificates to trust (PEM): tests with a self-signed receiver. */
  ca?: string
}

export type SendResult =
  | { kind: 'ok'; code: number; latencyMs: number }
  | {
      kind: 'fail'
      code: number | null
      latencyMs: number | null
      error: string
      retryAfterMs?: number
      gone?: boolean
      timedOut?: boolean
    }

const SNIPPET_BYTES = 256

/** The URL with its host replaced by `address` (IPv6 in brackets); port, path and query kept. */
export function pinnedUrl(url: URL, address: string): string {
  const pinned = new URL(url.href)
  pinned.hostname = isIP(address) === 6 ? `[${address}]` : address
  return pinned.href
}

/** Errors that mean no connection was made: the next address may still answer. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL'])

export async function send(req: SendRequest, now: () => number): Promise<SendResult> {
  let result: SendResult = { kind: 'fail', code: null, latencyMs: null, error: 'no address to connect to' }
  for (const address of req.addresses) {
    const { result: r, connected } = await sendTo(req, address, now)
    result = r
    if (connected) break
  }
  return result
}

async function sendTo(
  req: SendRequest,
  address: string,
  now: () => number,
): Promise<{ result: SendResult; connected: boolean }> {
  const started = performance.now()
  const signal = AbortSignal.any([AbortSignal.timeout(req.timeoutMs), req.signal])
  const name = req.url.hostname.replace(/^\[|\]$/g, '')
  const tls =
    req.url.protocol === 'https:'
      ? { ...(isIP(name) ? {} : { serverName: name }), ...(req.ca ? { ca: req.ca } : {}) }
      : undefined
  try {
    const res = await fetch(pinnedUrl(req.url, address), {
      method: 'POST',
      headers: { ...req.headers, host: req.url.host },
      body: req.body,
      redirect: 'manual',
      signal,
      ...(tls ? { tls } : {}),
    } as RequestInit)
    const latencyMs = Math.round(performance.now() - started)
    const snippet = await readSnippet(res)
    if (res.status >= 200 && res.status < 300)
      return { result: { kind: 'ok', code: res.status, latencyMs }, connected: true }
    let error = `HTTP ${res.status}`
    if (res.status >= 300 && res.status < 400)
      error += `: redirect${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''} not followed`
    else if (snippet) error += `: ${snippet}`
    const retryAfterMs =
      res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers.get('retry-after'), now()) : undefined
    return {
      result: { kind: 'fail', code: res.status, latencyMs, error, retryAfterMs, gone: res.status === 410 },
      connected: true,
    }
  } catch (err) {
    const latencyMs = Math.round(performance.now() - started)
    const e = err as { name?: string; code?: string }
    if (e.name === 'TimeoutError')
      return {
        result: { kind: 'fail', code: null, latencyMs, error: `timeout after ${req.timeoutMs} ms`, timedOut: true },
        connected: true,
      }
    if (req.signal.aborted)
      return {
        result: { kind: 'fail', code: null, latencyMs, error: 'aborted: service shutting down' },
        connected: true,
      }
    return {
      result: { kind: 'fail', code: null, latencyMs, error: describeError(err) },
      connected: !NOT_CONNECTED.has(e.code ?? ''),
    }
  }
}

/**
 * `CODE: message`, once: Bun's fetch errors already start their message with the code
 * (`ECONNREFUSED: Unable to connect…`), which a plain prefix doubled.
 */
export function describeError(err: unknown): string {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { name?: string; message?: string; code?: string }
  const code = e.code ?? e.name ?? 'Error'
  const message = e.message ?? String(err)
  if (!message) return code
  return message.startsWith(code) ? message : `${code}: ${message}`
}

/** The start of an error body for lastError; the rest is discarded so the connection is reusable. */
async function readSnippet(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    while (size < SNIPPET_BYTES) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.length
    }
  } finally {
    if (size >= SNIPPET_BYTES) await reader.cancel().catch(() => {})
  }
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8').replace(/\s+/g, ' ').trim()
}
