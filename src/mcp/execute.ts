/**
 * The one executor: flat tool input → API request → MCP tool result. A 2xx becomes
 * `structuredContent` (the API's JSON) plus the same JSON as text; an API error becomes
 * `isError: true` carrying the API's status, `code`, message and `details` (and `retryAfter` on
 * 429); a connection failure becomes `isError: true` saying what failed.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ConnectionError, type ApiClient, type ApiRequest } from './client'
import type { ToolDef } from './tools'

type Input = Record<string, unknown>

const json = (v: unknown) => JSON.stringify(v, null, 2)

function toolError(structured: Record<string, unknown>, summary: string): CallToolResult {
  return {
    isError: true,
    structuredContent: structured,
    content: [{ type: 'text', text: `${summary}\n${json(structured)}` }],
  }
}

/** A local refusal, shaped like the API's own 400 so a model handles both alike. */
function invalid(field: string, reason: string, error: string): CallToolResult {
  return toolError(
    { status: 400, error, code: 'VALIDATION_ERROR', details: { field, reason } },
    `400 VALIDATION_ERROR: ${error}`,
  )
}

const scalar = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)

/** Builds the HTTP request a tool stands for, or the local validation failure. */
export function buildRequest(def: ToolDef, input: Input): { req: ApiRequest } | { refused: CallToolResult } {
  let path = def.path
  for (const p of def.params) {
    const v = input[p]
    if (v === undefined || v === null || v === '') return { refused: invalid(p, 'required', `'${p}' is required`) }
    if (typeof v !== 'string') return { refused: invalid(p, 'invalid_type', `'${p}' must be a string`) }
    // Encoded, so an id can never reach another path.
    path = path.replace(`:${p}`, encodeURIComponent(v))
  }
  const qs = new URLSearchParams()
  for (const k of def.query) {
    const v = input[k]
    if (v !== undefined && v !== null) qs.set(k, scalar(v))
  }
  const query = qs.toString()
  let body: Record<string, unknown> | undefined
  if (def.method === 'POST' || def.method === 'PUT') {
    body = {}
    for (const k of def.body) if (input[k] !== undefined) body[k] = input[k]
  }
  const headers: Record<string, string> = {}
  for (const [k, header] of Object.entries(def.headers)) {
    const v = input[k]
    if (v !== undefined && v !== null) headers[header] = scalar(v)
  }
  return { req: { method: def.method, path: query ? `${path}?${query}` : path, body, headers } }
}

function apiError(status: number, headers: Headers, body: unknown): CallToolResult {
  const b: Record<string, unknown> =
    body && typeof body === 'object' && !Array.isArray(body)
      ? { ...(body as Record<string, unknown>) }
      : { error: typeof body === 'string' && body ? body : `HTTP ${status}` }
  const structured: Record<string, unknown> = { status, ...b }
  // 402 and PLAN_REQUIRED bodies put the readable text in `message`.
  const message = typeof b.message === 'string' ? b.message : String(b.error ?? `HTTP ${status}`)
  const code = typeof b.code === 'string' ? b.code : status === 402 ? 'PAYMENT_REQUIRED' : undefined
  if (code && structured.code === undefined) structured.code = code
  let summary = `${status}${code ? ` ${code}` : ''}: ${message}`
  if (status === 429) {
    const retryAfter = Number(headers.get('retry-after'))
    if (Number.isFinite(retryAfter) && headers.get('retry-after') !== null) {
      structured.retryAfter = retryAfter
      summary += ` Retry after ${retryAfter} seconds.`
    }
  }
  return toolError(structured, summary)
}

/** Runs one tool call against the API. Never throws for API or network failures. */
export async function executeTool(def: ToolDef, rawInput: unknown, call: ApiClient): Promise<CallToolResult> {
  if (rawInput !== undefined && (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput))) {
    return invalid('arguments', 'invalid_type', 'Tool arguments must be an object')
  }
  const input: Input = { ...((rawInput as Input | undefined) ?? {}) }
  try {
    if (def.defaultStoreId && (input.storeId === undefined || input.storeId === null || input.storeId === '')) {
      // The public order endpoint names its store; a key knows its own.
      const store = await call({ method: 'GET', path: '/api/v1/store' })
      if (store.status !== 200) {
        const result = apiError(store.status, store.headers, store.body)
        ;(result.content[0] as { text: string }).text =
          `storeId was not given and the key's store could not be read (needs ` +
          `store:read).\n${(result.content[0] as { text: string }).text}`
        return result
      }
      input.storeId = (store.body as { data: { id: string } }).data.id
    }
    const built = buildRequest(def, input)
    if ('refused' in built) return built.refused
    const res = await call(built.req)
    if (res.status >= 200 && res.status < 300) {
      const structured =
        res.body && typeof res.body === 'object' && !Array.isArray(res.body)
          ? (res.body as Record<string, unknown>)
          : { result: res.body }
      return { structuredContent: structured, content: [{ type: 'text', text: json(structured) }] }
    }
    return apiError(res.status, res.headers, res.body)
  } catch (err) {
    if (err instanceof ConnectionError) return toolError({ error: err.message, code: 'CONNECTION_FAILED' }, err.message)
    throw err
  }
}
