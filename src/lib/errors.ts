/**
 * The one error family. Services throw these; plugins/errors.ts alone turns them into the
 * spec's bodies (part 7). Nothing else knows about HTTP statuses.
 */
/**
 * The closed catalogue: every `code` the API can answer, with its HTTP status. Throwers name a
 * code, the mapper reads the status from here, and the OpenAPI `code` enum is this list.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  PLAN_REQUIRED: 403,
  NOT_FOUND: 404,
  DUPLICATE_SLUG: 409,
  DUPLICATE_CODE: 409,
  DUPLICATE_ORDER: 409,
  DUPLICATE_INVOICE: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  INVALID_STATUS_TRANSITION: 409,
  INVALID_INVOICE_STATE: 409,
  CURRENCY_LOCKED: 409,
  EVENT_REPLAYED: 409,
  OUT_OF_STOCK: 409,
  LIMIT_REACHED: 409,
  EDIT_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>

export type ErrorCode = keyof typeof ERROR_STATUS
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]
export const codeToStatus = (code: ErrorCode): number => ERROR_STATUS[code]
/** The 409 codes: what a Conflict may carry. */
export type ConflictCode = { [C in ErrorCode]: (typeof ERROR_STATUS)[C] extends 409 ? C : never }[ErrorCode]

/** Every `details.reason` a 400 VALIDATION_ERROR can carry. */
export const ERROR_REASONS = [
  'required',
  'invalid_type',
  'out_of_range',
  'invalid_format',
  'invalid_json',
  'not_found',
  'inactive',
  'expired',
  'private_address',
  'not_allowed',
  'exhausted',
  'below_minimum',
  'duplicate',
  'too_long',
  'too_deep',
  // Image uploads (field `file`).
  'unsupported_type',
  'invalid_image',
  'too_many_pixels',
] as const
export type ErrorReason = (typeof ERROR_REASONS)[number]

export class AppError extends Error {
  readonly status: number
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
    this.status = ERROR_STATUS[code]
  }
  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...(this.details ? { details: this.details } : {}) }
  }
}

export class ValidationError extends AppError {
  constructor(field: string, reason: ErrorReason, message?: string, extra?: Record<string, unknown>) {
    super('VALIDATION_ERROR', message ?? `Invalid value for '${field}' (${reason})`, { field, reason, ...extra })
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Missing or invalid API key') {
    super('UNAUTHORIZED', message)
  }
}

export class Forbidden extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('FORBIDDEN', message, details)
  }
}

/** A record exists but belongs to another store. */
export class OtherStore extends Forbidden {
  constructor(resource: string) {
    super(`This ${resource} belongs to another store`)
  }
}

export class NotFound extends AppError {
  constructor(resource = 'Resource') {
    super('NOT_FOUND', `${resource} not found`)
  }
}

export class Conflict extends AppError {
  constructor(code: ConflictCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details)
  }
}

export class PayloadTooLarge extends AppError {
  constructor(limit: number) {
    super('PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`, { limit })
  }
}

export class RateLimited extends AppError {
  constructor(readonly retryAfter: number) {
    super('RATE_LIMIT_EXCEEDED', `Rate limit exceeded. Retry in ${retryAfter} seconds.`, { retryAfter })
  }
}

/** The 402 body (docs/api.md, Errors): no `code`, and its fields are fixed. */
export class PaymentRequired extends AppError {
  constructor(readonly upgradeUrl: string) {
    super('PAYMENT_REQUIRED', 'This store is suspended for an unpaid invoice. Settle the payment to restore access.')
  }
  override toBody() {
    return { error: 'payment_required', message: this.message, state: 'suspended', upgradeUrl: this.upgradeUrl }
  }
}

/** The 403 plan body (docs/api.md, Errors), with `details { limit, current }` for caps. */
export class PlanRequired extends AppError {
  constructor(
    readonly feature: string,
    readonly upgradeUrl: string,
    message: string,
    details?: { limit: number; current: number },
  ) {
    super('PLAN_REQUIRED', message, details)
  }
  override toBody() {
    return {
      error: 'plan_required',
      code: 'PLAN_REQUIRED',
      message: this.message,
      feature: this.feature,
      upgradeUrl: this.upgradeUrl,
      ...(this.details ? { details: this.details } : {}),
    }
  }
}

/** Writes are failing (disk full, I/O error): retry later. */
export class ServiceUnavailable extends AppError {
  constructor(
    readonly retryAfter: number,
    message = 'The service cannot save changes right now. Retry shortly.',
  ) {
    super('SERVICE_UNAVAILABLE', message, { retryAfter })
  }
}

/** bun:sqlite's unique violation, to be mapped to a 409 by the service that knows which one. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE'
}
