/**
 * The one error family. Services throw these; plugins/errors.ts alone turns them into the
 * spec's bodies (part 7). Nothing else knows about HTTP statuses.
 */
export type ErrorReason =
  | 'required'
  | 'invalid_type'
  | 'out_of_range'
  | 'invalid_format'
  | 'invalid_json'
  | 'not_found'
  | 'inactive'
  | 'expired'
  | 'private_address'
  | 'not_allowed'
  | 'exhausted'
  | 'too_long'

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }
  toBody(): Record<string, unknown> {
    return { error: this.message, code: this.code, ...(this.details ? { details: this.details } : {}) }
  }
}

export class ValidationError extends AppError {
  constructor(field: string, reason: ErrorReason | string, message?: string, extra?: Record<string, unknown>) {
    super(400, 'VALIDATION_ERROR', message ?? `Invalid value for '${field}' (${reason})`, { field, reason, ...extra })
  }
}

export class Unauthorized extends AppError {
  constructor(message = 'Missing or invalid API key') {
    super(401, 'UNAUTHORIZED', message)
  }
}

export class Forbidden extends AppError {
  constructor(message: string, details?: Record<string, unknown>) {
    super(403, 'FORBIDDEN', message, details)
  }
}

/** A record exists but belongs to another store (spec 5.4). */
export class OtherStore extends Forbidden {
  constructor(resource: string) {
    super(`This ${resource} belongs to another store`)
  }
}

export class NotFound extends AppError {
  constructor(resource = 'Resource') {
    super(404, 'NOT_FOUND', `${resource} not found`)
  }
}

export class Conflict extends AppError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(409, code, message, details)
  }
}

export class PayloadTooLarge extends AppError {
  constructor(limit: number) {
    super(413, 'PAYLOAD_TOO_LARGE', `Request body exceeds ${limit} bytes`, { limit })
  }
}

export class RateLimited extends AppError {
  constructor(readonly retryAfter: number) {
    super(429, 'RATE_LIMIT_EXCEEDED', `Rate limit exceeded. Retry in ${retryAfter} seconds.`, { retryAfter })
  }
}

/** Spec 7.3: the body has no `code`, and its fields are fixed. */
export class PaymentRequired extends AppError {
  constructor(readonly upgradeUrl: string) {
    super(402, 'PAYMENT_REQUIRED', 'This store is suspended for an unpaid invoice. Settle the payment to restore access.')
  }
  override toBody() {
    return { error: 'payment_required', message: this.message, state: 'suspended', upgradeUrl: this.upgradeUrl }
  }
}

/** Spec 7.4, with the contract's `details { limit, current }` for caps. */
export class PlanRequired extends AppError {
  constructor(
    readonly feature: string,
    readonly upgradeUrl: string,
    message: string,
    details?: { limit: number; current: number },
  ) {
    super(403, 'PLAN_REQUIRED', message, details)
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

/** bun:sqlite's unique violation, to be mapped to a 409 by the service that knows which one. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE'
}
