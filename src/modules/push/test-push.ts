/** "Send a test notification": one push to each of the person's devices (or the one named), sent like any other. */
import { immediate, type Db } from '../../db/client'
import type { Clock } from '../../lib/time'
import { testMessage } from './message'
import { PUSH_TTL_SECONDS } from './outbox'
import { pushStatements } from './sql/queue'

/** Queues the test pushes; returns how many devices get one. The caller wakes the dispatcher. */
export function queueTest(
  ctx: { db: Db; clock: Clock },
  userId: string,
  language: string | null,
  onlyId?: string,
): number {
  const now = ctx.clock.now()
  const s = pushStatements(ctx.db.$client)
  const payload = JSON.stringify(testMessage(language, now))
  return immediate(ctx.db, () => {
    const ids = s.devicesOfPerson.all(userId).filter((d) => !onlyId || d.id === onlyId)
    for (const d of ids)
      s.insertDelivery.run(d.id, userId, null, payload, now, now + PUSH_TTL_SECONDS * 1000, 'orders:read')
    return ids.length
  })
}
