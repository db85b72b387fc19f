/**
 * Every `code` an error body can carry: the OpenAPI `Error.code` enum.
 *
 * Listed from the codes the services and plugins throw today; when src/lib/errors.ts exports its
 * closed catalogue this file becomes `export { ERROR_CODES } from '../lib/errors'`.
 * tests/openapi-document.test.ts fails when a thrown code is missing here.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'PLAN_REQUIRED',
  'NOT_FOUND',
  'DUPLICATE_SLUG',
  'DUPLICATE_CODE',
  'DUPLICATE_ORDER',
  'DUPLICATE_INVOICE',
  'IDEMPOTENCY_KEY_REUSED',
  'INVALID_STATUS_TRANSITION',
  'INVALID_INVOICE_STATE',
  'CURRENCY_LOCKED',
  'EVENT_REPLAYED',
  'PAYLOAD_TOO_LARGE',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
] as const
