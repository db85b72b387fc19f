/**
 * Turns the document @elysiajs/openapi generates into the one clients get
 * (docs/openapi.md). The generator writes OpenAPI 3.0's `nullable` into a 3.1 document, documents
 * TypeBox's query coercions (`t.Integer` is "a string or an integer") in bodies and responses
 * too, leaks Elysia's custom `error` message keyword, inlines every model, and states neither
 * headers, servers nor webhooks. Fixing those here, once, keeps the route files as they are.
 *
 * A pure function of the generated document and what the service knows about its routes.
 */
import { ERROR_CODES } from './error-codes'
import { HEADERS, responseHeaders, webhooksSection } from './components'
import { operationIdFor } from './operation-ids'
import type { Access } from './access'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

export interface NormalizeOptions {
  access(method: string, path: string): Access
  rateLimited(method: string, path: string): boolean
  /** Routes that take an upload: they keep `multipart/form-data`; every other body is JSON only. */
  multipart(method: string, path: string): boolean
  servers: { url: string; description?: string }[]
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'])
/** TypeBox coercion branches: a string that Elysia parses into the sibling branch's type. */
const COERCED_FORMATS: Record<string, string[]> = {
  integer: ['integer', 'number'],
  numeric: ['number', 'integer'],
  boolean: ['boolean'],
}

export function normalizeDocument(generated: Json, o: NormalizeOptions): { document: Json; conflicts: string[] } {
  const doc = structuredClone(generated)
  const schemas: Record<string, Json> = { ...(doc.components?.schemas ?? {}) }
  const conflicts: string[] = []

  const hoist = (s: Json): Json =>
    walkSchema(s, (node) => {
      const title = node.title
      if (typeof title !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(title)) return node
      const existing = schemas[title]
      if (!existing) schemas[title] = node
      else if (JSON.stringify(existing) !== JSON.stringify(node)) {
        // Two shapes under one name: keep this one inline rather than lie about either.
        conflicts.push(title)
        return node
      }
      return { $ref: `#/components/schemas/${title}` }
    })
  const schema = (s: Json) => hoist(fixSchema(s))

  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!METHODS.has(method)) continue
      op.operationId = operationIdFor(method, path)
      op.responses ??= { '200': { description: 'OK' } }
      const access = o.access(method, path)
      op.security = access.kind === 'key' ? [{ bearerAuth: [] }] : []
      for (const p of op.parameters ?? []) if (p.schema) p.schema = schema(p.schema)
      if (op.requestBody?.content) {
        // Elysia parses what the route declares; undeclared, the generator lists form types the
        // service then refuses. An upload route is multipart only, every other route JSON only.
        const content = op.requestBody.content
        const upload = o.multipart(method, path)
        for (const type of Object.keys(content)) {
          const keep = upload
            ? type === 'multipart/form-data'
            : type !== 'multipart/form-data' && type !== 'application/x-www-form-urlencoded'
          if (!keep && Object.keys(content).length > 1) delete content[type]
        }
        for (const media of Object.values<Json>(content)) if (media.schema) media.schema = schema(media.schema)
        op.responses['413'] ??= {
          description: 'The body is larger than the service accepts',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        }
      }
      const rateLimited = o.rateLimited(method, path)
      const idempotent = op.operationId === 'createOrder'
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        for (const media of Object.values<Json>(response.content ?? {}))
          if (media.schema) media.schema = schema(media.schema)
        if (/^Response for status/.test(response.description ?? '')) response.description = describeStatus(status)
        response.headers = { ...responseHeaders(status, { rateLimited, idempotent }), ...response.headers }
      }
    }
  }

  // The closed list, whatever the model says (a `t.UnionEnum` would also bring a misleading default).
  if (schemas.Error?.properties?.code)
    schemas.Error.properties.code = {
      type: 'string',
      enum: [...ERROR_CODES],
      description: 'Machine-readable; one of a closed list',
    }
  doc.components = { ...doc.components, schemas, headers: { ...HEADERS } }
  doc.servers = o.servers
  doc.webhooks = webhooksSection()
  return { document: doc, conflicts: [...new Set(conflicts)] }
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '400': 'Invalid input: `details.field` names the field and `details.reason` says why',
  '401': 'Missing, unknown, revoked or expired API key',
  '402': 'The store is suspended for an unpaid invoice',
  '403': "The key lacks the scope, the record is another store's, or the plan lacks the feature",
  '404': 'Not found',
  '409': 'Conflicts with the current state (the `code` says which)',
  '413': 'The body is larger than the service accepts',
  '429': 'Rate limit exceeded: retry after `Retry-After` seconds',
  '500': 'Unexpected error, logged with the request id',
  '503': 'Temporarily unavailable: retry after `Retry-After` seconds',
}
const describeStatus = (status: string) => STATUS_TEXT[status] ?? `Status ${status}`

/** Applies `visit` to every subschema, children first, replacing each with what it returns. */
function walkSchema(s: Json, visit: (node: Json) => Json): Json {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return s
  for (const key of ['properties', 'patternProperties', '$defs']) {
    if (s[key] && typeof s[key] === 'object')
      for (const name of Object.keys(s[key])) s[key][name] = walkSchema(s[key][name], visit)
  }
  for (const key of ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']) {
    if (s[key] && typeof s[key] === 'object') s[key] = walkSchema(s[key], visit)
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    if (Array.isArray(s[key])) s[key] = s[key].map((x: Json) => walkSchema(x, visit))
  return visit(s)
}

/** The OpenAPI 3.1 (JSON Schema 2020-12) spelling of one generated schema. */
export function fixSchema(s: Json): Json {
  return walkSchema(s, (node) => {
    delete node.error // Elysia's custom validation message: not a JSON Schema keyword
    node = collapseCoercion(node)
    if (
      (node.type === 'number' || (Array.isArray(node.type) && node.type.includes('number'))) &&
      node.multipleOf === 1
    ) {
      node.type = Array.isArray(node.type) ? node.type.map((x: string) => (x === 'number' ? 'integer' : x)) : 'integer'
      delete node.multipleOf
    }
    return nullOr(nullable(node))
  })
}

/** `anyOf: [{ type: integer, … }, { type: null }]` → `type: [integer, null]`: what generators read best. */
function nullOr(node: Json): Json {
  const branches: Json[] | undefined = node.anyOf
  if (!Array.isArray(branches) || branches.length !== 2) return node
  const value = branches.find((b) => b?.type !== 'null')
  if (
    !branches.some((b) => b?.type === 'null' && Object.keys(b).length === 1) ||
    typeof value?.type !== 'string' ||
    value.type === 'object' ||
    value.title
  )
    return node
  const { anyOf: _, ...outer } = node
  const merged: Json = { ...value, ...outer, type: [value.type, 'null'] }
  if (Array.isArray(merged.enum) && !merged.enum.includes(null)) merged.enum = [...merged.enum, null]
  if ('const' in merged) return node
  return merged
}

/**
 * `t.Integer()` is generated as `anyOf: [{ type: string, format: integer }, { type: integer }]`
 * (the string is how a query carries it). A client sends and receives the integer: keep that.
 */
function collapseCoercion(node: Json): Json {
  const branches: Json[] | undefined = node.anyOf
  if (!Array.isArray(branches)) return node
  const kept = branches.filter(
    (b) =>
      !(
        b?.type === 'string' &&
        COERCED_FORMATS[b.format]?.some((type) => branches.some((other) => other !== b && other?.type === type))
      ),
  )
  if (kept.length === branches.length) return node
  const { anyOf: _, ...outer } = node
  if (kept.length === 1) return { ...kept[0], ...outer }
  return { ...outer, anyOf: kept }
}

/** `nullable: true` (OpenAPI 3.0) → a `null` type (3.1). */
function nullable(node: Json): Json {
  if (!('nullable' in node)) return node
  const { nullable: isNullable, ...rest } = node
  if (!isNullable) return rest
  if (typeof rest.type === 'string') rest.type = [rest.type, 'null']
  else if (Array.isArray(rest.type)) {
    if (!rest.type.includes('null')) rest.type = [...rest.type, 'null']
  } else if (Array.isArray(rest.anyOf)) {
    if (!rest.anyOf.some((b: Json) => b?.type === 'null')) rest.anyOf = [...rest.anyOf, { type: 'null' }]
    return rest
  } else {
    const { description, title, default: dflt, ...inner } = rest
    return {
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(dflt !== undefined ? { default: dflt } : {}),
      anyOf: [inner, { type: 'null' }],
    }
  }
  if (Array.isArray(rest.enum) && !rest.enum.includes(null)) rest.enum = [...rest.enum, null]
  return rest
}
