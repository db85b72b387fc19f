/**
 * Events as the kernel knows them: names and payload types only. Each module that owns a
 * resource adds its events to `EventMap` by declaration merging (orders/events.ts,
 * reviews/events.ts), and the webhooks module keeps the catalogue of how each renders; the
 * kernel never imports either.
 */
import type { Database } from 'bun:sqlite'

/** Event name → payload. Empty here; filled by `declare module` in each module's events.ts. */
// biome-ignore lint/suspicious/noEmptyInterface: modules add their events to it by declaration merging
export interface EventMap {}

export type EventType = keyof EventMap

/** Writes the event's outbox rows in the caller's transaction; delivery starts after its commit. */
export type Emit = <E extends EventType>(type: E, data: EventMap[E]) => void

/**
 * Appends an event's outbox rows on `client` (the connection holding the transaction); returns
 * how many. The composition root binds the webhooks module's (deps.ts).
 */
export type AppendEvent = <E extends EventType>(
  client: Database,
  storeId: string,
  type: E,
  data: EventMap[E],
  now: number,
) => number
