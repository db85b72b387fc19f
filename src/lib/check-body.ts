/**
 * Elysia's validation errors → our 400 VALIDATION_ERROR (in lib so a module can check a body it
 * assembled itself — the CSV import, the bulk edit — against the API's own schema): the field's path, the reason from
 * the closed list (lib/errors.ts) and a message in a shop owner's words that says what is allowed ("'maxUses' must be a
 * positive integer or null"). Validator internals ("Expected union value") never reach the client.
 */
import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ValidationError, type ErrorReason } from './errors'
import { faultsError } from './faults'

type Schema = Record<string, unknown>

interface TypeBoxError {
  path: string
  value: unknown
  schema?: Schema
  message?: string
}

/** "/items/0/quantity" → "items[0].quantity" */
export function fieldFromPath(path: string): string {
  return segments(path).reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '')
}

const segments = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))

/**
 * Every node of a schema's `anyOf` tree (Elysia nests them: `t.Nullable(t.Integer({ minimum }))`
 * is anyOf[ {minimum, anyOf[string-as-integer, integer]}, null ]), and the leaf types a JSON
 * body may carry. Elysia's string branches with format `integer`/`numeric`/`boolean` exist to
 * coerce query strings; in a JSON body a string there is the wrong type.
 */
function shape(schema: Schema): { nodes: Schema[]; types: Set<string> } {
  const nodes: Schema[] = []
  const types = new Set<string>()
  const walk = (s: Schema) => {
    nodes.push(s)
    const any = s.anyOf as Schema[] | undefined
    if (any) {
      for (const c of any) if (c) walk(c)
    } else if (typeof s.type === 'string') {
      const coercion =
        s.type === 'string' && (s.format === 'integer' || s.format === 'numeric' || s.format === 'boolean')
      if (!coercion) types.add(s.type)
    }
  }
  walk(schema)
  return { nodes, types }
}

function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value
}

const num = (nodes: Schema[], k: string) => nodes.find((n) => typeof n[k] === 'number')?.[k] as number | undefined

/** The reason a value fails its schema. */
export function reasonFor(value: unknown, schema: Schema | undefined, coerced: boolean): ErrorReason {
  if (value === undefined) return 'required'
  if (!schema) return 'invalid_type'
  const { nodes, types } = shape(schema)
  let v = value
  // Query and path strings are coerced to numbers; a JSON body's "10" for a number is a wrong type.
  if (coerced && typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) v = Number(v)
  const actual = jsonType(v)
  const typeOk = types.has(actual) || (actual === 'integer' && types.has('number')) || types.size === 0
  if (!typeOk) return 'invalid_type'
  if (typeof v === 'number') {
    const [min, max, xmin, xmax] = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].map((k) =>
      num(nodes, k),
    )
    if ((min !== undefined && v < min) || (max !== undefined && v > max)) return 'out_of_range'
    if ((xmin !== undefined && v <= xmin) || (xmax !== undefined && v >= xmax)) return 'out_of_range'
  }
  if (typeof v === 'string') {
    const min = num(nodes, 'minLength')
    const max = num(nodes, 'maxLength')
    if ((min !== undefined && v.length < min) || (max !== undefined && v.length > max)) return 'out_of_range'
    return 'invalid_format'
  }
  if (Array.isArray(v) && (num(nodes, 'minItems') !== undefined || num(nodes, 'maxItems') !== undefined))
    return 'out_of_range'
  return 'invalid_type'
}

const range = (what: string, min: number | undefined, max: number | undefined, exclusiveMin = false): string => {
  if (what === 'an integer' && min === 1 && max === undefined) return 'a positive integer'
  if (what === 'a number' && exclusiveMin && min === 0 && max === undefined) return 'a positive number'
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`
  if (min !== undefined) return `${what} of at least ${min}`
  if (max !== undefined) return `${what} of at most ${max}`
  return what
}

/** What a schema allows, in words: "a positive integer or null", "text of at most 1000 characters". */
export function allowedText(schema: Schema): string {
  const { nodes, types } = shape(schema)
  const words: string[] = []
  const consts = nodes.filter((n) => n.const !== undefined).map((n) => `'${String(n.const)}'`)
  const enums = nodes.flatMap((n) => (Array.isArray(n.enum) ? (n.enum as unknown[]).map((e) => `'${String(e)}'`) : []))
  const min = num(nodes, 'minimum') ?? num(nodes, 'exclusiveMinimum')
  const max = num(nodes, 'maximum') ?? num(nodes, 'exclusiveMaximum')
  const exclusiveMin = num(nodes, 'minimum') === undefined && num(nodes, 'exclusiveMinimum') !== undefined
  if (consts.length + enums.length > 0) words.push(`one of ${[...consts, ...enums].join(', ')}`)
  else if (types.has('string')) {
    const minL = num(nodes, 'minLength')
    const maxL = num(nodes, 'maxLength')
    const format = nodes.find((n) => typeof n.format === 'string')?.format
    if (format === 'date-time') words.push('an ISO 8601 date-time')
    else if (maxL !== undefined)
      words.push(minL && minL > 1 ? `text of ${minL} to ${maxL} characters` : `text of at most ${maxL} characters`)
    else if (minL && minL > 1) words.push(`text of at least ${minL} characters`)
    else words.push('text')
  }
  if (types.has('integer')) words.push(range('an integer', min, max))
  else if (types.has('number')) words.push(range('a number', min, max, exclusiveMin))
  if (types.has('boolean')) words.push('true or false')
  if (types.has('array')) {
    const maxI = num(nodes, 'maxItems')
    words.push(maxI !== undefined ? `a list of at most ${maxI} items` : 'a list')
  }
  if (types.has('object')) words.push('an object')
  if (types.has('null')) words.push('null')
  return words.length ? words.join(' or ') : 'a valid value'
}

/**
 * Turns Elysia's ValidationError into ours. Query coercion
 * errors lose their path (Elysia 1.4 reports them without one).
 */
export function fromElysiaValidation(error: unknown, query?: Record<string, string | undefined>): ValidationError {
  const e = error as { all?: TypeBoxError[]; type?: string }
  const first = (e.all ?? [])[0]
  if (!first) return new ValidationError('body', 'invalid_type', 'The request body must be a JSON object')
  let field = fieldFromPath(first.path)
  if (!field && query) field = Object.keys(query).find((k) => query[k] === String(first.value)) ?? ''
  if (!field) field = e.type === 'query' ? 'query' : 'body'
  const reason = reasonFor(first.value, first.schema, e.type !== 'body')
  const custom = typeof first.schema?.error === 'string' ? (first.schema.error as string) : undefined
  if (custom) return new ValidationError(field, reason, custom)
  if (reason === 'required') return new ValidationError(field, reason, `'${field}' is required`)
  if (field === 'body') return new ValidationError(field, reason, 'The request body must be a JSON object')
  return new ValidationError(
    field,
    reason,
    `'${field}' must be ${first.schema ? allowedText(first.schema) : 'a valid value'}`,
  )
}

/**
 * Every fault of a body against its schema, one per field: the first the validator finds there.
 * For a form's words it says a little more than the API's body does: a blank field is `required`
 * (a form sends "" for an empty box), and a number's fault carries what was expected (`expected:
 * 'integer'`, `minimum`).
 */
export function schemaFaults(schema: TSchema, value: unknown): ValidationError[] {
  const byField = new Map<string, ValidationError>()
  for (const error of Value.Errors(schema, value)) {
    const fault = formFault(error as TypeBoxError, fromElysiaValidation({ all: [error], type: 'body' }))
    const field = String(fault.details?.field)
    if (!byField.has(field)) byField.set(field, fault)
  }
  return [...byField.values()]
}

function formFault(error: TypeBoxError, fault: ValidationError): ValidationError {
  const field = String(fault.details?.field)
  if (error.value === '' || error.value === undefined) return new ValidationError(field, 'required', fault.message)
  if (typeof error.value !== 'number' || !error.schema) return fault
  const { nodes, types } = shape(error.schema)
  const minimum = num(nodes, 'minimum') ?? num(nodes, 'exclusiveMinimum')
  const reason = fault.details?.reason as ErrorReason
  if (types.has('integer') && !types.has('number') && !Number.isInteger(error.value))
    return new ValidationError(field, reason, fault.message, { expected: 'integer' })
  if (reason === 'out_of_range' && minimum !== undefined && error.value < minimum)
    return new ValidationError(field, reason, fault.message, { minimum })
  return fault
}

/**
 * A body an adapter parsed itself (the shop's no-script review form posts form fields, the panel's
 * forms), checked against the schema its JSON route declares and refused with the same field,
 * reason and words — every faulty field at once (`Faults`; its details are the first one's).
 */
export function checkBody<S extends TSchema>(schema: S, value: unknown): Static<S> {
  if (Value.Check(schema, value)) return value as Static<S>
  throw faultsError(schemaFaults(schema, value)) ?? fromElysiaValidation({ all: [], type: 'body' })
}

/** The top-level field a fault names: `variants[1].price` → `variants`. */
const topField = (e: ValidationError) => String(e.details?.field ?? '').replace(/[[.].*$/, '')

/**
 * A form's body checked against its schema and then by a module's own rules (a percentage of at
 * most 100, a compare-at price above the price…) run over the fields the schema let through, so
 * one answer lists every fault; throws them together (`Faults`), else returns the typed body.
 */
export function checkAll<S extends TSchema>(
  schema: S,
  value: Record<string, unknown>,
  rules: (valid: Record<string, unknown>) => ValidationError[],
): Static<S> {
  const faults = Value.Check(schema, value) ? [] : schemaFaults(schema, value)
  const bad = new Set(faults.map(topField))
  const valid = Object.fromEntries(Object.entries(value).filter(([k]) => !bad.has(k)))
  const error = faultsError([...faults, ...rules(valid).filter((f) => !bad.has(topField(f)))])
  if (error) throw error
  return value as Static<S>
}
