/**
 * Two shape checks Elysia's validation gets wrong, run after parsing and before validation:
 *
 * - A route whose body schema is an object refuses any other JSON value (array, string, number,
 *   boolean, null, or no body) with 400 VALIDATION_ERROR. Without it, a `PUT` with an
 *   all-optional schema took `[]` or `"x"` as an empty update (200, and `updatedAt` moved).
 * - A field whose schema is an array refuses a non-array value, naming the field. Elysia coerces
 *   first (an object becomes `[undefined]`, a string a list of `{}`), so its error named
 *   `variants[0]` or `variants[0].name` instead of `variants`, and it rewrites the body in place,
 *   so the mapper can't tell afterwards.
 *
 * Both read the routes' own schemas once, at the first request: nothing lists paths by hand.
 */
import { Elysia } from 'elysia'
import { ValidationError } from '../lib/errors'

export interface RouteInfo {
  method: string
  path: string
  hooks?: unknown
}

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] }

/** Paths (`*` for an array index) whose schema is an array only. */
function arrayPaths(schema: Schema, at: string[] = [], out: string[][] = []): string[][] {
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const branches = (prop.anyOf ?? [prop]).filter((b) => b.type !== 'null')
    const arr = branches.find((b) => b.type === 'array')
    if (arr && branches.length === 1) {
      out.push([...at, name])
      if (arr.items?.properties) arrayPaths(arr.items, [...at, name, '*'], out)
    } else if (prop.properties) arrayPaths(prop, [...at, name], out)
  }
  return out
}

/** The first value at `path` that is present, not null and not an array: its field name. */
function notAnArray(body: unknown, path: string[], field = ''): string | undefined {
  if (body === null || typeof body !== 'object') return undefined
  const [head, ...rest] = path
  if (head === '*') {
    if (!Array.isArray(body)) return undefined
    for (let i = 0; i < body.length; i++) {
      const bad = notAnArray(body[i], rest, `${field}[${i}]`)
      if (bad) return bad
    }
    return undefined
  }
  const value = (body as Record<string, unknown>)[head!]
  const name = field ? `${field}.${head}` : head!
  if (rest.length === 0) return value !== undefined && value !== null && !Array.isArray(value) ? name : undefined
  return notAnArray(value, rest, name)
}

export const objectBody = (routes: () => readonly RouteInfo[]) => {
  let table: Map<string, string[][]> | undefined
  const build = () => {
    const m = new Map<string, string[][]>()
    for (const r of routes()) {
      const body = (r.hooks as { body?: Schema } | undefined)?.body
      if (body?.type === 'object') m.set(`${r.method} ${r.path}`, arrayPaths(body))
    }
    return m
  }
  return new Elysia({ name: 'object-body' }).onTransform({ as: 'global' }, ({ body, request, route }) => {
    if (request.method !== 'POST' && request.method !== 'PUT' && request.method !== 'PATCH') return
    const arrays = (table ??= build()).get(`${request.method} ${route}`)
    if (!arrays) return
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw new ValidationError('body', 'invalid_type', 'The request body must be a JSON object')
    for (const path of arrays) {
      const field = notAnArray(body, path)
      if (field) throw new ValidationError(field, 'invalid_type', `'${field}' must be a list`)
    }
  })
}
