/**
 * The events this service emits (its webhook catalogue): each module that owns a resource
 * declares its events and how their payloads render; this file only lists them.
 */
import type { WebhookEvent } from '../../db/schema'
import type { EventMap } from '../../kernel/events'
import type { EventSpec } from '../shared/events'
import { orderEvents } from '../orders/events'
import { reviewEvents } from '../reviews/events'

export const EVENTS = { ...orderEvents, ...reviewEvents } satisfies { [E in WebhookEvent]: EventSpec<EventMap[E]> }

export type EventData<E extends WebhookEvent> = EventMap[E]
