/**
 * A delivery's id (also its `webhook-id`) is derived from its outbox row, not drawn at random
 * when the row is moved into the log: the delivery log can then list an event that is still in
 * the outbox under the id it will be sent with, without moving it (a read never writes).
 *
 * Unique: `seq` alone can come round again (an emptied outbox starts over at 1), but not
 * together with the endpoint, the event time and the event's subject or body (an order is
 * created once; an update or a review carries its own ids and times). Shaped like a CUID2 (a
 * letter, then 23 base-36 characters), as every id is (contract).
 */
import { createHash } from 'node:crypto'

export interface OutboxKey {
  seq: number
  webhookId: string
  createdAt: number
  subjectId: string | null
  payload: string | null
}

const SPAN = 36n ** 23n

export function deliveryIdOf(r: OutboxKey): string {
  const hex = createHash('sha256')
    .update(`${r.seq}\n${r.webhookId}\n${r.createdAt}\n${r.subjectId ?? ''}\n${r.payload ?? ''}`)
    .digest('hex')
  const letter = String.fromCharCode(97 + (parseInt(hex.slice(0, 2), 16) % 26))
  // 124 bits of the digest, as 23 base-36 characters (a 128-bit BigInt converts in a fraction of a 256-bit one's time).
  return letter + (BigInt(`0x${hex.slice(2, 33)}`) % SPAN).toString(36).padStart(23, '0')
}
