/**
 * `Ctx` is what a service may use, and nothing else: the connection, the clock, the settings,
 * the store it acts for and who acts. Events and cache effects go through the effects object
 * `write(ctx, (tx, fx) => …)` hands the writer (kernel/write.ts). Services take `(ctx, input)` or
 * `(ctx, id, input)`. HTTP (the gate), the CLI, jobs and tests build it with `ctxFor`.
 *
 * The kernel imports nothing from modules or adapters: what a feature provides (writing an
 * event's outbox rows) comes in as a port the composition root binds (deps.ts).
 */
import type { Config } from '../config'
import type { Db } from '../db/client'
import type { Role, Store } from '../db/schema'
import type { AppendEvent } from './events'
import type { Clock } from '../lib/time'

/**
 * Who is acting: an API key, a person signed in to the panel, an app a person connected (an
 * assistant's OAuth token: it acts as that person, `grantId` names the connection), a public
 * caller, the admin CLI, or the service itself (jobs).
 */
export type Actor =
  | { kind: 'key'; keyId: string }
  | { kind: 'user'; userId: string; role: Role }
  | { kind: 'app'; grantId: string; userId: string; role: Role }
  | { kind: 'public' }
  | { kind: 'cli' }
  | { kind: 'system' }

export interface Ctx {
  readonly db: Db
  readonly clock: Clock
  readonly config: Config
  readonly store: Store
  readonly actor: Actor
  /** Writes an event's outbox rows: the port `write` uses for `fx.emit` (there is no emit outside a write). */
  readonly appendEvent: AppendEvent
  /**
   * What the activity log says of this request's writes (who,
   * verb, record); `write` records it in the writing transaction.
   */
  readonly activity?: ActivityNote
}

/** An activity-log line to come: `actor` is `user:<id>`, `key:<prefix>`, `app:<grant id>`, `cli` or `system`. */
export interface ActivityNote {
  actor: string
  verb: string
  recordType: string
  recordId?: string
}

/** What every ctx is built from. */
export type CtxBase = Pick<Ctx, 'db' | 'clock' | 'config' | 'appendEvent'>

/**
 * What operator actions use: they find their store themselves (billing, store and key admin).
 * `actor` (the CLI, the system) makes them write their activity line in their own transaction.
 */
export type OperatorCtx = Pick<Ctx, 'db' | 'clock'> & { actor?: 'cli' | 'system' }

/** What the public's verbs use: the storefront and public look-ups, before (or without) a store's actor. */
export type PublicCtx = Pick<Ctx, 'db' | 'clock'>

const SYSTEM: Actor = { kind: 'system' }

/** The one ctx builder. */
export function ctxFor(base: CtxBase, store: Store, actor: Actor = SYSTEM, activity?: ActivityNote): Ctx {
  const { db, clock, config, appendEvent } = base
  return activity
    ? { db, clock, config, store, actor, appendEvent, activity }
    : { db, clock, config, store, actor, appendEvent }
}

export type { AppendEvent }
