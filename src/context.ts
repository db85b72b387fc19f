/**
 * Everything a service, route or job needs arrives in one object built once per app, so a test
 * can hand a fresh database and a fixed clock, and nothing hides in module-level singletons.
 */
import type { Config } from './config'
import type { WalSync } from './db/wal-sync'
import type { Db } from './db/client'
import type { ApiKey, Store } from './db/schema'
import type { Clock } from './lib/time'
import type { Logger } from './lib/log'
import type { RateLimiter } from './plugins/rate-limiter'
import type { StoreCache } from './plugins/cache'
import type { SecretBox } from './lib/secret-box'
import type { Dispatcher } from './modules/webhooks/dispatcher'
import type { WriteHealth } from './db/write-health'
import type { VisitCounter } from './modules/storefront/visits'

export interface Deps {
  config: Config
  db: Db
  clock: Clock
  log: Logger
  limiter: RateLimiter
  cache: StoreCache
  /** The key and store the gate authenticated, per request (see plugins/gate.ts). */
  auths: WeakMap<Request, Auth>
  /** Called after a commit that wrote outbox rows, so delivery starts at once (webhooks issue). */
  onOutbox: (storeId: string) => void
  /** Encrypts secrets that must be readable again (webhook signing secrets) at rest. */
  secretBox: SecretBox
  /** Sends the webhook outbox (modules/webhooks/dispatcher.ts). */
  dispatcher: Dispatcher
  /** Group-committed checkout batches: commit at NORMAL, then fsync the WAL off the event loop. */
  walSync: WalSync
  /** Whether writes currently fail for storage reasons (disk full, I/O): 503s and /health. */
  writeHealth: WriteHealth
  /** Catalog visits counted in memory, written behind (modules/storefront/visits.ts). */
  visits: VisitCounter
}

/** What an authenticated request carries to its handler. */
export interface Auth {
  key: ApiKey
  store: Store
  scopes: string[]
}

/** The `ctx` services take: the app's deps plus the store the request acts for. */
export interface Ctx extends Deps {
  store: Store
}

export const ctxFor = (deps: Deps, store: Store): Ctx => ({ ...deps, store })
