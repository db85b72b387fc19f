/** The webhooks module as other code sees it: everything outside the folder imports from here. */
export * from './dispatcher'
export * from './model'
// The outbox's other steps (the enqueue, the dispatcher's moves) run only inside this module.
export { appendEventTx } from './outbox'
export * from './retention'
export * from './service'
export * from './test-event'
// The push queue (modules/push) shares the webhooks' sender and checkout-pressure governor.
export { DeliveryGovernor } from './governor'
export { send, type SendResult } from './sender'
