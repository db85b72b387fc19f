/**
 * The one mapper from thrown errors to the spec's bodies (part 7). Elysia's validation and
 * parse errors become 400 VALIDATION_ERROR with `details.field` and `details.reason`; anything
 * unexpected becomes a bare 500 INTERNAL_ERROR, logged with the request id (once a minute per
 * distinct error, with a count).
 */
import type { Logger } from '../lib/log'
import type { LogOnce } from '../lib/log-once'
import { AppError, ERROR_STATUS, ValidationError, type ErrorCode } from '../lib/errors'
import { fromElysiaValidation } from './validation-errors'
import { RETRY_AFTER_SEC, storageFailure, type WriteHealth } from '../db/write-health'

export { fieldFromPath, fromElysiaValidation } from './validation-errors'

export interface ErrorResult {
  status: number
  body: Record<string, unknown>
  headers?: Record<string, string>
}

/** A body for a catalogue code the mapper answers itself (no thrower behind it). */
const answer = (code: ErrorCode, error: string, details?: Record<string, unknown>): ErrorResult => ({
  status: ERROR_STATUS[code],
  body: { error, code, ...(details ? { details } : {}) },
})

/** Pure mapping, used by the app's onError. */
export function toErrorResult(
  code: string | number,
  error: unknown,
  ctx: {
    query?: Record<string, string | undefined>
    requestId?: string
    log: Logger
    errors?: LogOnce
    url?: string
    writeHealth?: WriteHealth
  },
): ErrorResult {
  if (error instanceof AppError) return { status: error.status, body: error.toBody() }
  switch (code) {
    case 'VALIDATION': {
      // A response that fails its own schema is our bug, not the client's.
      if ((error as { type?: string }).type === 'response') break
      const v = fromElysiaValidation(error, ctx.query)
      return { status: 400, body: v.toBody() }
    }
    case 'PARSE': {
      // Elysia wraps whatever the body readers throw; http/body-limit.ts throws PayloadTooLarge.
      const cause = (error as { cause?: unknown }).cause
      if (cause instanceof AppError) return { status: cause.status, body: cause.toBody() }
      return {
        status: 400,
        body: new ValidationError('body', 'invalid_json', 'Request body is not valid JSON').toBody(),
      }
    }
    case 'NOT_FOUND':
      return answer('NOT_FOUND', 'Endpoint not found')
    case 'INVALID_FILE_TYPE':
    case 'INVALID_COOKIE_SIGNATURE':
      return { status: 400, body: new ValidationError('body', 'invalid_format').toBody() }
  }
  // Disk full or an I/O error: the client may retry later; logged once a minute, not per request.
  const storage = storageFailure(error) ?? storageFailure((error as { cause?: unknown })?.cause)
  if (storage) {
    ctx.writeHealth?.fail(error, storage)
    const text =
      storage === 'disk_full'
        ? 'The service is out of storage space and cannot save changes right now'
        : 'The service cannot save changes right now (storage error)'
    return {
      ...answer('SERVICE_UNAVAILABLE', `${text}. Retry in ${RETRY_AFTER_SEC} seconds.`, {
        reason: storage,
        retryAfter: RETRY_AFTER_SEC,
      }),
      headers: { 'retry-after': String(RETRY_AFTER_SEC) },
    }
  }
  const status = (error as { status?: number })?.status
  if (status === 413) return answer('PAYLOAD_TOO_LARGE', 'Request body too large')
  // Once a minute per distinct error, with a count: a bug on a busy route must not flood the
  // log. Every such request still has its own request line (status 500, its id).
  const name = error instanceof Error ? error.name : typeof error
  const fields = {
    requestId: ctx.requestId,
    // Parsed only here: 401s, 404s and 429s are answered without building a URL.
    path: ctx.url === undefined ? undefined : new URL(ctx.url).pathname,
    error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error),
  }
  if (ctx.errors)
    ctx.errors.error(`${name}: ${error instanceof Error ? error.message : String(error)}`, 'unhandled error', fields)
  else ctx.log.error('unhandled error', fields)
  return answer('INTERNAL_ERROR', 'Internal server error', ctx.requestId ? { requestId: ctx.requestId } : undefined)
}
