/**
 * "Send test event": one `webhook.test` event to one endpoint, whatever events it subscribes to,
 * so an owner can check a receiver and its signature check without placing an order. It goes
 * the way every event goes: an outbox row in the writer's transaction, moved into the delivery
 * log by the dispatcher, signed and sent with the endpoint's secrets, retried on failure, listed
 * in the log, replayable. It is not an event anyone subscribes to (not in WEBHOOK_EVENTS).
 */
import { createId } from '../../lib/cuid'
import { iso } from '../../lib/time'
import type { Ctx } from '../../kernel/context'
import { write } from '../../kernel/write'
import { webhookOutbox } from '../../db/schema'
import { ownWebhook } from './service'

export const TEST_EVENT = 'webhook.test'

export function sendTestEvent({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  const now = ctx.clock.now()
  // The body is the catalogue's shape ({ type, event, timestamp, storeId, data }); the test id
  // makes each test's body (and so its delivery id) distinct.
  const testId = createId()
  write(ctx, (tx, fx) => {
    const hook = ownWebhook(ctx, id)
    const payload = JSON.stringify({
      type: TEST_EVENT,
      event: TEST_EVENT,
      timestamp: iso(now),
      storeId: ctx.store.id,
      data: { id: testId, webhookId: hook.id, url: hook.url },
    })
    tx.insert(webhookOutbox)
      .values({
        webhookId: hook.id,
        storeId: ctx.store.id,
        eventType: TEST_EVENT,
        payload,
        subjectId: null,
        createdAt: now,
      })
      .run()
    fx.queued()
  })
  return { id: testId, type: TEST_EVENT }
}
