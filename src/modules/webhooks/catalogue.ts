/**
 * The events this service emits (its webhook catalogue): each module that owns a resource
 * declares its events and how their payloads render; this file only lists them.
 */
import type { WebhookEvent } from '../../db/schema'
import type { EventMap } from '../../kernel/events'
import type { EventSpec } from '../shared'
import { orderEvents } from '../orders'
import { reviewEvents } from '../reviews'

export const EVENTS = { ...orderEvents, ...reviewEvents } satisfies { [E in WebhookEvent]: EventSpec<EventMap[E]> }

export type EventData<E extends WebhookEvent> = EventMap[E]
