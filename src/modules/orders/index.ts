/** The orders module as other code sees it: everything outside the folder imports from here. */
export * from './events'
export {
  IDEMPOTENCY_TTL_MS,
  IDEMPOTENCY_HEADER,
  MAX_IDEMPOTENCY_KEY,
  parseIdempotencyKey,
  canonicalJson,
  requestHash,
  type Replay,
} from './idempotency'
export * from './model'
export * from './rows'
export * from './service'
export type { OrderEventRow } from './sql'
export * from './reads'
export * from './status'
export type { OrderListView } from './views'
export * from './checkout/place'
export * from './checkout/prepare'
export * from './whatsapp'
export * from './inbox'
export * from './notes'
export * from './status-page'
export * from './seen'
export * from './retention'
export * from './source'
