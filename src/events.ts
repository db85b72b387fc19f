/**
 * The events this service emits (its webhook catalogue). Each module that owns a resource
 * declares its own events and how their payloads render; this file only lists them.
 */
import type { WebhookEvent } from './db/schema'
import type { EventSpec } from './modules/shared/events'
import { orderEvents } from './modules/orders/events'
import { reviewEvents } from './modules/reviews/events'

export const EVENTS = { ...orderEvents, ...reviewEvents } satisfies Record<WebhookEvent, EventSpec<never>>

export type EventData<E extends WebhookEvent> = (typeof EVENTS)[E] extends EventSpec<infer D> ? D : never

/** Writes the event's outbox rows in the caller's transaction; delivery starts after its commit. */
export type Emit = <E extends WebhookEvent>(type: E, data: EventData<E>) => void
