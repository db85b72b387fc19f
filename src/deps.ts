import type { Config } from './config'
import { openDb, type Db } from './db/client'
import type { AppendEvent } from './kernel/events'
import type { SecretBox } from './lib/secret-box'
import { afterCommitOf, afterCommitOn } from './kernel/write'
import { createLogger, type Logger } from './lib/log'
import { systemClock, type Clock, type Ticker } from './lib/time'
import { Signal } from './lib/signal'
import { StoreCache, type StoreCacheOptions } from './db/cache'
import { ValidQueries } from './http/pre-routed'
import { RateLimiter } from './db/rate-limiter'
import { secretBoxOf } from './lib/secret-box'
import { Dispatcher } from './modules/webhooks'
import { appendEventTx } from './modules/webhooks'
import {
  appendLowStockPushTx,
  appendOrderPushTx,
  appendReviewPushTx,
  appendWebhookDisabledPushTx,
  PushDispatcher,
} from './modules/push'
import { WalSync } from './db/wal-sync'
import { probeWrite, WriteHealth } from './db/write-health'
import { VisitCounter } from './modules/public-catalog'
import { ImportAdmission, UploadAdmission } from './modules/products'
import { resetStaging } from './modules/products'
import { OrderBatcher } from './checkout-batcher'
import { NO_REPLICA, ReplicaSupervisor, type Replica } from './replica/supervisor'

/**
 * The process's wiring: what the request pipeline, the routes, jobs and the dispatcher share.
 * It lives here, in the composition root, and nowhere below: each adapter and job names the
 * few pieces it uses as its own port (a structural type this object satisfies).
 */
export interface Deps {
  config: Config
  db: Db
  clock: Clock
  log: Logger
  limiter: RateLimiter
  cache: StoreCache
  /** Query strings the pre-routed reads' routes have validated (http/pre-routed.ts). */
  queries: ValidQueries
  /** After a commit that wrote outbox rows, so delivery starts at once (kernel/write.ts calls it). */
  onOutbox: (storeId: string) => void
  /** Encrypts secrets that must be readable again (webhook signing secrets) at rest. */
  secretBox: SecretBox
  /** Sends the webhook outbox (modules/webhooks/dispatcher.ts). */
  dispatcher: Dispatcher
  /** Sends the push queue to the sellers' devices (modules/push/dispatcher.ts). */
  pushes: PushDispatcher
  /** Group-committed checkout batches: commit at NORMAL, then fsync the WAL off the event loop. */
  walSync: WalSync
  /** Whether writes currently fail for storage reasons (disk full, I/O): 503s and /health. */
  writeHealth: WriteHealth
  /** Catalog visits counted in memory, written behind (modules/public-catalog/visits.ts). */
  visits: VisitCounter
  /** Writes an event's outbox rows: the webhooks module's, bound here for the kernel. */
  appendEvent: AppendEvent
  /** Collects public checkout posts into group commits (src/checkout-batcher.ts). */
  checkout: OrderBatcher
  /** Image uploads in flight, per store and in all (products/images/admission.ts). */
  uploads: UploadAdmission
  /** Catalog CSV imports running, one per store (products/csv/admission.ts). */
  imports: ImportAdmission
  /**
   * Litestream beside the service when REPLICA_URL is set
   * (replica/supervisor.ts); server.ts starts it, /health reads it.
   */
  replica: Replica
  /**
   * Stores whose committed writes are durable (kernel/write.ts runs
   * it after each write's effects): the panel's live inbox listens.
   */
  settled: Signal<string>
  /**
   * The server is stopping (server.ts): long-lived responses (the
   * panel's event streams) end so in-flight requests can drain.
   */
  stopping: Signal<void>
}

/** Opens the database (migrating it) and builds the per-process pieces every part shares. */
export function createDeps(
  config: Config,
  opts: {
    clock?: Clock
    log?: Logger
    externalWrites?: Pick<StoreCacheOptions, 'externalLagMs' | 'now'>
    /** What turns the periodic flushes (catalog visits); tests turn it by hand. */
    ticker?: Ticker
    /** The process's CPU time for the dispatcher's pressure probe; tests substitute one. */
    cpuMs?: () => number
  } = {},
): Deps {
  const db = openDb({ dataDir: config.dataDir, synchronous: config.dbSynchronous })
  const clock = opts.clock ?? systemClock
  const log = opts.log ?? createLogger(config.logLevel)
  const secretBox = secretBoxOf(config)
  const walSync = WalSync.forDataDir(db, config.dataDir, config.dbSynchronous)
  // The request path's connection, its transactions at synchronous=NORMAL: a claim or a result
  // lost to a power cut only means that row is sent again (at least once), and it keeps fsyncs
  // off the event loop. The outbox rows themselves commit with the order at the configured
  // level. One connection, not two: a commit on another would drop this one's page cache and
  // clear the StoreCache (docs/decisions/003).
  const writeHealth = new WriteHealth(log, clock, probeWrite(db.$client))
  // What both outboxes' dispatchers share: the connection (relaxed), the clock, the log, the secrets.
  const outboxes = { db, relaxed: <T>(fn: () => T) => walSync.relaxed(fn), config, clock, log, secretBox }
  const dispatcher = new Dispatcher({
    ...outboxes,
    cpuMs: opts.cpuMs,
    // In the transaction that disables the endpoint; the pump runs after it commits (next turn).
    onDisabledTx: (client, webhookId, now) => {
      if (appendWebhookDisabledPushTx(client, webhookId, now) > 0) pushes.notify()
    },
  })
  // Pushes yield to a saturated checkout as webhooks do, on the webhook dispatcher's reading of it.
  const pushes = new PushDispatcher({
    ...outboxes,
    pressure: dispatcher.governor,
  })
  const base: Omit<Deps, 'checkout'> = {
    config,
    db,
    clock,
    log,
    limiter: new RateLimiter(db, clock, config.rateLimitFlushMs),
    cache: new StoreCache(db, { responses: !config.benchNoResponseCache, ...opts.externalWrites }),
    queries: new ValidQueries(),
    onOutbox: () => {
      dispatcher.notify()
      pushes.notify()
    },
    secretBox,
    dispatcher,
    pushes,
    walSync,
    writeHealth,
    visits: new VisitCounter(db.$client, clock, log, writeHealth, opts.ticker),
    appendEvent: withPush(appendEventTx),
    uploads: new UploadAdmission(config.mediaUploadsPerStore, config.mediaUploadsTotal),
    imports: new ImportAdmission(),
    settled: new Signal<string>(),
    stopping: new Signal<void>(),
    replica: config.replicaUrl
      ? new ReplicaSupervisor(
          { dataDir: config.dataDir, url: config.replicaUrl, endpoint: config.replicaEndpoint },
          log,
        )
      : NO_REPLICA,
  }
  resetStaging(config.dataDir)
  // The batcher reads its wiring from `deps` when it runs (a test may replace `deps.onOutbox`).
  const deps: Deps = Object.assign(base, { checkout: new OrderBatcher(base, walSync) })
  // Where this connection's after-commit effects go (kernel/write.ts).
  afterCommitOn(db, afterCommitOf(deps))
  return deps
}

/** Flushes written-behind state and closes the database. */
export function closeDeps(deps: Deps): void {
  deps.dispatcher.close()
  deps.pushes.close()
  deps.limiter.close()
  deps.visits.close()
  deps.writeHealth.close()
  void deps.walSync.close()
  deps.db.$client.close()
}

/**
 * The kernel's one append, for both queues: a new order also appends its push rows (any path
 * that creates an order emits `order.created` in the order's own transaction, after taking its
 * stock), and so does a review submitted for moderation (`review.created`). `stock.low` (a
 * stock edit took an item to the low-stock mark) is for the push queue only.
 */
function withPush(webhooks: AppendEvent): AppendEvent {
  return (client, storeId, type, data, now) => {
    if (type === 'stock.low') {
      const item = data as { productId: string; variantId: string | null }
      return appendLowStockPushTx(client, storeId, item.productId, item.variantId, now)
    }
    const n = webhooks(client, storeId, type, data, now)
    if (type === 'order.created')
      return n + appendOrderPushTx(client, storeId, (data as { orderId: string }).orderId, now)
    if (type === 'review.created' && (data as { status?: string }).status === 'pending')
      return n + appendReviewPushTx(client, storeId, (data as { id: string }).id, now)
    return n
  }
}
