/**
 * `Ctx` is what a service may use, and nothing else: the connection, the clock, the settings,
 * the store it acts for, who acts, and `emit` for events. Services take `(ctx, input)` or
 * `(ctx, id, input)`. HTTP (the gate), the CLI, jobs and tests build it with `ctxFor`.
 *
 * `Deps` is the process's wiring (deps.ts): the pieces the request pipeline, jobs and the
 * dispatcher share. Services never see it.
 */
import type { Config } from './config'
import type { WalSync } from './db/wal-sync'
import type { Db } from './db/client'
import type { Role, Store } from './db/schema'
import { effectsOf } from './db/write'
import type { Emit } from './events'
import type { Clock } from './lib/time'
import type { Logger } from './lib/log'
import type { RateLimiter } from './http/rate-limiter'
import type { StoreCache } from './http/cache'
import type { SecretBox } from './lib/secret-box'
import type { Dispatcher } from './modules/webhooks/dispatcher'
import type { WriteHealth } from './db/write-health'
import type { VisitCounter } from './modules/public-catalog/visits'
import type { OrderBatcher } from './modules/orders/checkout/batch'
import type { UploadAdmission } from './modules/products/images/admission'
import type { appendEvent } from './modules/webhooks/outbox'

/** Who is acting: an API key, a person signed in to the panel, a public caller, the admin CLI, or the service itself (jobs). */
export type Actor = { kind: 'key'; keyId: string } | { kind: 'user'; userId: string; role: Role } | { kind: 'public' } | { kind: 'cli' } | { kind: 'system' }

export interface Ctx {
  readonly db: Db
  readonly clock: Clock
  readonly config: Config
  readonly store: Store
  readonly actor: Actor
  /** Writes the event's outbox rows in the open transaction; delivery starts after its commit. */
  readonly emit: Emit
  /** What the activity log says of this request's writes (who, verb, record); `write` records it in the writing transaction. */
  readonly activity?: ActivityNote
}

/** An activity-log line to come: `actor` is `user:<id>`, `key:<prefix>`, `cli` or `system`. */
export interface ActivityNote {
  actor: string
  verb: string
  recordType: string
  recordId?: string
}

/** Appends an event's outbox rows (webhooks/outbox.ts), handed in by deps.ts so that no service depends on the webhooks module. */
export type AppendEvent = typeof appendEvent

/** What every ctx is built from. */
export type CtxBase = Pick<Ctx, 'db' | 'clock' | 'config'> & { appendEvent: AppendEvent }

/** What operator actions use: they find their store themselves (billing, store and key admin). */
export type OperatorCtx = Pick<Ctx, 'db' | 'clock'>

const SYSTEM: Actor = { kind: 'system' }

/** The one ctx builder. */
export function ctxFor(base: CtxBase, store: Store, actor: Actor = SYSTEM, activity?: ActivityNote): Ctx {
  const { db, clock, config, appendEvent } = base
  const emit: Emit = (type, data) => {
    if (appendEvent(db.$client, store.id, type, data, clock.now()) > 0) effectsOf(db).emitted(store.id)
  }
  return activity ? { db, clock, config, store, actor, emit, activity } : { db, clock, config, store, actor, emit }
}

export interface Deps {
  config: Config
  db: Db
  clock: Clock
  log: Logger
  limiter: RateLimiter
  cache: StoreCache
  /** After a commit that wrote outbox rows, so delivery starts at once (db/write.ts calls it). */
  onOutbox: (storeId: string) => void
  /** Encrypts secrets that must be readable again (webhook signing secrets) at rest. */
  secretBox: SecretBox
  /** Sends the webhook outbox (modules/webhooks/dispatcher.ts). */
  dispatcher: Dispatcher
  /** Group-committed checkout batches: commit at NORMAL, then fsync the WAL off the event loop. */
  walSync: WalSync
  /** Whether writes currently fail for storage reasons (disk full, I/O): 503s and /health. */
  writeHealth: WriteHealth
  /** Catalog visits counted in memory, written behind (modules/public-catalog/visits.ts). */
  visits: VisitCounter
  /** What `ctx.emit` writes with. */
  appendEvent: AppendEvent
  /** Collects public checkout posts into group commits (orders/checkout/batch.ts). */
  checkout: OrderBatcher
  /** Image uploads in flight, per store and in all (products/images/admission.ts). */
  uploads: UploadAdmission
}
