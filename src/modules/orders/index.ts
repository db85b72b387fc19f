/** The orders module as other code sees it: everything outside the folder imports from here. */
export * from './checkout/batch'
export * from './events'
export * from './idempotency'
export * from './model'
export * from './service'
export * from './statements'
export * from './status'
export * from './views'
