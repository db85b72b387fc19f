/**
 * The other things a seller can be told about, beside new orders, and what a person's role must
 * allow to be told about each: an endpoint disabled is for owners only. What each announces is
 * read when the dispatcher fans it out (sql/alerts.ts), so the push names the product or endpoint
 * as it is then.
 */
import type { Grant } from '../people'
import type { PushKind } from './sql/queue'

export const GRANT_OF: Record<PushKind, Grant> = {
  order: 'orders:read',
  review: 'reviews:write',
  'low-stock': 'products:read',
  'webhook-disabled': 'webhooks:write',
}
