/**
 * How an assistant tool is described: one API route, its flat input as JSON Schema built from the
 * route's own request schemas, its scope and plan read from the route's declared access.
 */
import { t, type TSchema } from 'elysia'
import { Id } from '../modules/shared'
import { OrderCreate } from '../modules/orders'
import type { Scope } from '../lib/scopes'
import type { PaidFeature } from '../modules/plans'
import { API_ACCESS } from '../http/api-routes'

type TObject = TSchema & { properties: Record<string, TSchema> }

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface JsonSchemaObject {
  type: 'object'
  properties: Record<string, object>
  required?: string[]
  [k: string]: unknown
}

export interface ToolAnnotations {
  title: string
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: false
}

export interface ToolDef {
  name: string
  description: string
  /** The key scope the call needs, as its route declares it; null for the public endpoints. */
  scope: Scope | null
  /** A paid-plan feature the call needs, as its route declares it. */
  feature?: PaidFeature
  method: HttpMethod
  /** API path; `:id` is filled from the input's `id`. */
  path: string
  /** Input keys sent as path parameters, query parameters, JSON body fields and headers. */
  params: string[]
  query: string[]
  body: string[]
  headers: Record<string, string>
  /** create_order: `storeId` defaults to the key's own store. */
  defaultStoreId?: boolean
  inputSchema: JsonSchemaObject
  annotations: ToolAnnotations
}

// ---------------------------------------------------------------------------------------------
// Request schemas: the API's own (one source), adapted only where a tool input differs.

/** The public checkout body, with `storeId` optional: the tool fills in the key's own store. */
export const OrderCreateInput = t.Object({
  ...OrderCreate.properties,
  storeId: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 64,
      description: "Defaults to the API key's store (looked up with store:read)",
    }),
  ),
})
export const IdempotencyKey = t.Object({
  idempotencyKey: t.Optional(
    t.String({
      minLength: 1,
      maxLength: 255,
      description: 'Sent as Idempotency-Key: a retry with the same key returns the first order instead of a new one',
    }),
  ),
})

const IdOnly = t.Object({ id: Id })

// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>

/** Elysia's `t.Integer` also accepts a numeric string (query coercion): a tool input is JSON, so that branch goes. */
const isCoercionBranch = (s: Json) =>
  s.type === 'string' && (s.format === 'integer' || s.format === 'numeric' || s.format === 'boolean')

function normalize(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalize)
  if (!node || typeof node !== 'object') return node
  const out: Json = {}
  for (const [k, v] of Object.entries(node as Json)) {
    // `error` is Elysia's message text and `nullable` OpenAPI 3.0's; neither is JSON Schema.
    if ((k === 'error' && typeof v === 'string') || k === 'nullable') continue
    out[k] = normalize(v)
  }
  if (Array.isArray(out.anyOf)) {
    const branches = (out.anyOf as Json[]).filter((b) => !isCoercionBranch(b))
    const { anyOf: _, ...rest } = out
    if (branches.length === 1) return { ...rest, ...branches[0] }
    if (branches.every((b) => b.type === 'string' && typeof b.const === 'string'))
      return { ...rest, type: 'string', enum: branches.map((b) => b.const) }
    return { ...rest, anyOf: branches }
  }
  return out
}

/** TypeBox → plain JSON Schema (TypeBox's symbols drop out in the JSON round trip). */
export function toJsonSchema(schema: TSchema): Json {
  return normalize(JSON.parse(JSON.stringify(schema))) as Json
}

function objectSchema(parts: (TObject | undefined)[]): JsonSchemaObject {
  const properties: Record<string, object> = {}
  const required: string[] = []
  for (const part of parts) {
    if (!part) continue
    const json = toJsonSchema(part) as { properties?: Record<string, unknown>; required?: string[] }
    Object.assign(properties, json.properties ?? {})
    for (const r of json.required ?? []) if (!required.includes(r)) required.push(r)
  }
  // A default on a required input (t.UnionEnum sets one) would only mislead.
  for (const r of required) delete (properties[r] as Json | undefined)?.default
  return { type: 'object', properties, ...(required.length ? { required } : {}) }
}

const keys = (o?: TObject) => (o ? Object.keys(o.properties) : [])

interface Spec {
  name: string
  summary: string
  method: HttpMethod
  path: string
  query?: TObject
  body?: TObject
  headers?: { schema: TObject; map: Record<string, string> }
  defaultStoreId?: boolean
  title: string
}

/** The access the tool's route declares: tools never restate a scope or a plan. */
function declared(method: string, path: string): { scope: Scope | null; feature?: PaidFeature } {
  const route = API_ACCESS.find((r) => r.method === method && r.path === path)
  if (!route) throw new Error(`MCP tool for ${method} ${path}: no such route`)
  if ('public' in route.access) return { scope: null }
  if (!('scope' in route.access)) throw new Error(`MCP tool for ${method} ${path}: the route declares no scope`)
  return { scope: route.access.scope, feature: route.access.feature }
}

export function tool(s: Spec): ToolDef {
  const params = s.path.includes(':id') ? ['id'] : []
  const { scope, feature } = declared(s.method, s.path)
  const scopeText = scope ? `Requires scope ${scope}` : 'Public endpoint (no scope; limited per client IP)'
  const planText = feature ? '; needs a Pro or Lifetime plan (free plan → PLAN_REQUIRED)' : ''
  const readOnly = s.method === 'GET'
  return {
    name: s.name,
    description: `${s.summary} ${scopeText}${planText}. Calls ${s.method} ${s.path}.`,
    scope,
    feature,
    method: s.method,
    path: s.path,
    params,
    query: keys(s.query),
    body: keys(s.body),
    headers: s.headers?.map ?? {},
    defaultStoreId: s.defaultStoreId,
    inputSchema: objectSchema([params.length ? IdOnly : undefined, s.query, s.body, s.headers?.schema]),
    annotations: {
      title: s.title,
      readOnlyHint: readOnly,
      destructiveHint: s.method === 'DELETE',
      // HTTP semantics: repeating a GET, PUT or DELETE changes nothing more; a POST creates again.
      idempotentHint: s.method !== 'POST',
      openWorldHint: false,
    },
  }
}

export const LIST = 'Returns { data: [...], total, limit, offset }; page with limit (1–100, default 50) and offset.'
