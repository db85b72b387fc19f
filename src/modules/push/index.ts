/** The push module as other code sees it: everything outside the folder imports from here. */
export { PushDispatcher, type PushDispatcherDeps } from './dispatcher'
export { appendLowStockPushTx, appendOrderPushTx, appendReviewPushTx, appendWebhookDisabledPushTx } from './outbox'
export { orderMessage, testMessage, type PushMessage } from './message'
export { loadVapidKeys, type VapidKeys } from './vapid'
export { queueTest } from './test-push'
export * from './subscriptions'
