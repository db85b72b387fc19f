/**
 * The one mapper from thrown errors to the spec's bodies (part 7). Elysia's validation and
 * parse errors become 400 VALIDATION_ERROR with `details.field` and `details.reason`; anything
 * unexpected becomes a bare 500 INTERNAL_ERROR, logged with the request id.
 */
import type { Logger } from '../lib/log'
import { AppError, ERROR_STATUS, ValidationError, type ErrorCode, type ErrorReason } from '../lib/errors'

interface TypeBoxError {
  path: string
  value: unknown
  schema?: Record<string, unknown>
  message?: string
}

/** "/items/0/quantity" → "items[0].quantity" */
export function fieldFromPath(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '')
}

/** Finds the bound that a value breaks, looking into Elysia's coercion unions. */
function reasonFor(value: unknown, schema: Record<string, unknown> | undefined, coerced: boolean): ErrorReason {
  if (value === undefined) return 'required'
  if (!schema) return 'invalid_type'
  const parts = [schema, ...(((schema.anyOf as Record<string, unknown>[]) ?? []).filter(Boolean))]
  const has = (k: string) => parts.some((p) => p[k] !== undefined)
  // Query and path strings are coerced to numbers; a JSON body's "10" for a number is a wrong type.
  const numeric = typeof value === 'number' || (coerced && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
  if (numeric && (has('minimum') || has('maximum') || has('exclusiveMinimum') || has('exclusiveMaximum'))) {
    const wantsInteger = parts.some((p) => p.type === 'integer' || p.multipleOf === 1)
    if (wantsInteger && !Number.isInteger(Number(value))) return 'invalid_type'
    return 'out_of_range'
  }
  if (typeof value === 'string' && (has('minLength') || has('maxLength'))) {
    const min = parts.find((p) => p.minLength !== undefined)?.minLength as number | undefined
    const max = parts.find((p) => p.maxLength !== undefined)?.maxLength as number | undefined
    if ((min !== undefined && value.length < min) || (max !== undefined && value.length > max)) return 'out_of_range'
  }
  if (Array.isArray(value) && (has('minItems') || has('maxItems'))) return 'out_of_range'
  // "abc" for a coerced number: Elysia's string branch has format "integer"/"numeric", but the
  // client sent the wrong type, not a badly formatted one.
  if (typeof value === 'string' && parts.some((p) => p.type === 'integer' || p.type === 'number')) return 'invalid_type'
  if (typeof value === 'string' && (has('pattern') || has('format') || has('enum') || has('const') || has('anyOf'))) {
    return 'invalid_format'
  }
  return 'invalid_type'
}

/** Turns Elysia's ValidationError into ours. Query coercion errors lose their path (stack notes). */
export function fromElysiaValidation(error: unknown, query?: Record<string, string | undefined>): ValidationError {
  const e = error as { all?: TypeBoxError[]; type?: string; message?: string; customError?: unknown }
  const first = (e.all ?? [])[0]
  if (!first) return new ValidationError('body', 'invalid_type')
  let field = fieldFromPath(first.path)
  if (!field && query) {
    field = Object.keys(query).find((k) => query[k] === String(first.value)) ?? ''
  }
  if (!field) field = e.type === 'query' ? 'query' : 'body'
  const reason = reasonFor(first.value, first.schema, e.type !== 'body')
  const custom = typeof first.schema?.error === 'string' ? (first.schema.error as string) : undefined
  const text = custom ?? describe(field, reason, first)
  return new ValidationError(field, reason, text)
}

function describe(field: string, reason: ErrorReason, e: TypeBoxError): string {
  switch (reason) {
    case 'required':
      return `'${field}' is required`
    case 'out_of_range':
      return `'${field}' is out of range: ${e.message ?? ''}`.trim()
    case 'invalid_format':
      return `'${field}' has an invalid format`
    default:
      return `'${field}' has the wrong type: ${e.message ?? ''}`.trim()
  }
}

export interface ErrorResult {
  status: number
  body: Record<string, unknown>
}

/** A body for a catalogue code the mapper answers itself (no thrower behind it). */
const answer = (code: ErrorCode, error: string, details?: Record<string, unknown>): ErrorResult => ({
  status: ERROR_STATUS[code],
  body: { error, code, ...(details ? { details } : {}) },
})

/** Pure mapping, used by the app's onError. */
export function toErrorResult(code: string | number, error: unknown, ctx: { query?: Record<string, string | undefined>; requestId?: string; log: Logger; url?: string }): ErrorResult {
  if (error instanceof AppError) return { status: error.status, body: error.toBody() }
  switch (code) {
    case 'VALIDATION': {
      // A response that fails its own schema is our bug, not the client's.
      if ((error as { type?: string }).type === 'response') break
      const v = fromElysiaValidation(error, ctx.query)
      return { status: 400, body: v.toBody() }
    }
    case 'PARSE': {
      // Elysia wraps whatever the body readers throw; plugins/body-limit.ts throws PayloadTooLarge.
      const cause = (error as { cause?: unknown }).cause
      if (cause instanceof AppError) return { status: cause.status, body: cause.toBody() }
      return { status: 400, body: new ValidationError('body', 'invalid_json', 'Request body is not valid JSON').toBody() }
    }
    case 'NOT_FOUND':
      return answer('NOT_FOUND', 'Endpoint not found')
    case 'INVALID_FILE_TYPE':
    case 'INVALID_COOKIE_SIGNATURE':
      return { status: 400, body: new ValidationError('body', 'invalid_format').toBody() }
  }
  const status = (error as { status?: number })?.status
  if (status === 413) return answer('PAYLOAD_TOO_LARGE', 'Request body too large')
  ctx.log.error('unhandled error', {
    requestId: ctx.requestId,
    // Parsed only here: 401s, 404s and 429s are answered without building a URL.
    path: ctx.url === undefined ? undefined : new URL(ctx.url).pathname,
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
  })
  return answer('INTERNAL_ERROR', 'Internal server error', ctx.requestId ? { requestId: ctx.requestId } : undefined)
}
