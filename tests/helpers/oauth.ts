/**
 * An assistant's side of the OAuth flow, over app.handle: PKCE, registration, the consent page
 * answered by a signed-in PanelClient, the token endpoint, and MCP calls with the token.
 */
import { createHash, randomBytes } from 'node:crypto'
import type { TestApp, Json } from './app'
import type { PanelClient } from './panel'
import { registerClient } from '../../src/modules/oauth'

export const REDIRECT = 'http://127.0.0.1:8976/callback'

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export async function register(
  t: Pick<TestApp, 'api'>,
  body: Record<string, unknown> = { client_name: 'Claude', redirect_uris: [REDIRECT] },
): Promise<[Response, Json]> {
  return t.api.post('/oauth/register', body)
}

/**
 * A registered client, made through the registration verb: its HTTP side (and its limit of 20 an
 * hour per address, which would cap a test file at 20 clients) is tested on its own.
 */
export async function registeredClient(t: Pick<TestApp, 'deps'>, name = 'Claude'): Promise<string> {
  return registerClient({ ctx: t.deps, input: { client_name: name, redirect_uris: [REDIRECT] } }).client_id
}

/** The query of an authorization request; `omit` leaves parameters out. */
export function authorizeQuery(
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
  omit: string[] = [],
): string {
  const q: Record<string, string> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: 'http://localhost/mcp',
    ...extra,
  }
  for (const k of omit) delete q[k]
  return new URLSearchParams(q).toString()
}

/** The hidden fields of the consent form on the client's last page. */
export function consentFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {}
  const formAt = text.indexOf('action="/oauth/authorize"')
  for (const m of text.slice(formAt).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields[m[1]!] = m[2]!
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
  delete fields._csrf
  return fields
}

/** Opens the consent page as `b` and answers it; returns the redirect's URL. */
export async function answerConsent(
  b: PanelClient,
  query: string,
  opts: { decision?: 'allow' | 'deny'; store?: string } = {},
): Promise<URL> {
  const page = await b.get(`/oauth/authorize?${query}`)
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${page.location ?? page.text.slice(0, 300)}`)
  const fields = consentFields(page.text)
  if (opts.store) fields.store = opts.store
  else if (!fields.store)
    fields.store = /name="store" type="radio" value="([^"]+)"[^>]* checked>/.exec(page.text)?.[1] ?? ''
  const answered = await b.submit('/oauth/authorize', { ...fields, decision: opts.decision ?? 'allow' })
  if (answered.status !== 303 || !answered.location) throw new Error(`consent answer: ${answered.status}`)
  return new URL(answered.location)
}

export async function token(t: Pick<TestApp, 'api'>, fields: Record<string, string>): Promise<[Response, Json]> {
  return t.api.call('POST', '/oauth/token', undefined, {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
}

export interface Connected {
  clientId: string
  verifier: string
  code: string
  access: string
  refresh: string
  scope: string
}

/** Registration, consent as `b`, and the code's exchange: an assistant connected as `b`'s person. */
export async function connect(
  t: Pick<TestApp, 'api' | 'deps'>,
  b: PanelClient,
  opts: { scope?: string; store?: string; name?: string } = {},
): Promise<Connected> {
  const clientId = await registeredClient(t, opts.name)
  const { verifier, challenge } = pkce()
  const back = await answerConsent(b, authorizeQuery(clientId, challenge, opts.scope ? { scope: opts.scope } : {}), {
    store: opts.store,
  })
  const code = back.searchParams.get('code')!
  const [res, body] = await token(t, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: 'http://localhost/mcp',
  })
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`)
  return { clientId, verifier, code, access: body.access_token, refresh: body.refresh_token, scope: body.scope }
}

/** One MCP `tools/call` (or any method) on /mcp with a bearer credential. */
export async function mcpRpc(
  t: Pick<TestApp, 'app'>,
  bearer: string | undefined,
  method: string,
  params: Record<string, unknown> = {},
): Promise<[Response, Json]> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  }
  if (bearer) headers.authorization = `Bearer ${bearer}`
  const res = await t.app.handle(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }),
  )
  const text = await res.text()
  return [res, text ? JSON.parse(text) : null]
}

export const callTool = (t: Pick<TestApp, 'app'>, bearer: string, name: string, args: Record<string, unknown> = {}) =>
  mcpRpc(t, bearer, 'tools/call', { name, arguments: args })
