/**
 * How a module declares an event it emits. Most payloads are rendered when emitted, inside the
 * writer's transaction; a `deferred` one stores only its subject's id and is rendered when the
 * event leaves the outbox, so a hot writer (the checkout) neither builds nor stores the body.
 */
import type { Database } from 'bun:sqlite'

export interface EventSpec<D> {
  deferred?: { subject: (data: D) => string; render: (client: Database, subjectId: string) => unknown }
}

/** `D` is what `ctx.emit(type, data)` takes for this event. */
export const event = <D>(spec: EventSpec<D> = {}): EventSpec<D> => spec
