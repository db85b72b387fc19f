/**
 * `Ctx` is what a service may use, and nothing else: the connection, the clock, the settings,
 * the store it acts for, who acts, and `emit` for events. Services take `(ctx, input)` or
 * `(ctx, id, input)`. HTTP (the gate), the CLI, jobs and tests build it with `ctxFor`.
 *
 * The kernel imports nothing from modules or adapters: what a feature provides (writing an
 * event's outbox rows) comes in as a port the composition root binds (deps.ts).
 */
import type { Config } from '../config'
import type { Db } from '../db/client'
import type { Store } from '../db/schema'
import { effectsOf } from './write'
import type { AppendEvent, Emit } from './events'
import type { Clock } from '../lib/time'

/** Who is acting: an API key, a public caller, the admin CLI, or the service itself (jobs). */
export type Actor = { kind: 'key'; keyId: string } | { kind: 'public' } | { kind: 'cli' } | { kind: 'system' }

export interface Ctx {
  readonly db: Db
  readonly clock: Clock
  readonly config: Config
  readonly store: Store
  readonly actor: Actor
  /** Writes the event's outbox rows in the open transaction; delivery starts after its commit. */
  readonly emit: Emit
}

/** What every ctx is built from. */
export type CtxBase = Pick<Ctx, 'db' | 'clock' | 'config'> & { appendEvent: AppendEvent }

/** What operator actions use: they find their store themselves (billing, store and key admin). */
export type OperatorCtx = Pick<Ctx, 'db' | 'clock'>

const SYSTEM: Actor = { kind: 'system' }

/** The one ctx builder. */
export function ctxFor(base: CtxBase, store: Store, actor: Actor = SYSTEM): Ctx {
  const { db, clock, config, appendEvent } = base
  const emit: Emit = (type, data) => {
    if (appendEvent(db.$client, store.id, type, data, clock.now()) > 0) effectsOf(db).emitted(store.id)
  }
  return { db, clock, config, store, actor, emit }
}

export type { AppendEvent }
