import type { Config } from './config'
import type { Deps } from './context'
import { openDb } from './db/client'
import { afterCommitOf, afterCommitOn } from './db/write'
import { createLogger, type Logger } from './lib/log'
import { systemClock, type Clock } from './lib/time'
import { StoreCache } from './http/cache'
import { RateLimiter } from './http/rate-limiter'
import { secretBoxOf } from './lib/secret-box'
import { Dispatcher } from './modules/webhooks/dispatcher'
import { appendEvent } from './modules/webhooks/outbox'
import { WalSync } from './db/wal-sync'
import { probeWrite, WriteHealth } from './db/write-health'
import { VisitCounter } from './modules/public-catalog/visits'
import { OrderBatcher } from './modules/orders/checkout/batch'
import { NO_REPLICA, ReplicaSupervisor } from './replica/supervisor'

/** Opens the database (migrating it) and builds the per-process pieces every part shares. */
export function createDeps(config: Config, opts: { clock?: Clock; log?: Logger } = {}): Deps {
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
  const dispatcher = new Dispatcher({ db, relaxed: (fn) => walSync.relaxed(fn), config, clock, log, secretBox })
  const base: Omit<Deps, 'checkout'> = {
    config,
    db,
    clock,
    log,
    limiter: new RateLimiter(db, clock, config.rateLimitFlushMs),
    cache: new StoreCache(db, { responses: !config.benchNoResponseCache }),
    onOutbox: () => dispatcher.notify(),
    secretBox,
    dispatcher,
    walSync,
    writeHealth,
    visits: new VisitCounter(db.$client, clock, log, writeHealth),
    appendEvent,
    replica: config.replicaUrl ? new ReplicaSupervisor({ dataDir: config.dataDir, url: config.replicaUrl, endpoint: config.replicaEndpoint }, log) : NO_REPLICA,
  }
  // The batcher reads its wiring from `deps` when it runs (a test may replace `deps.onOutbox`).
  const deps: Deps = Object.assign(base, { checkout: new OrderBatcher(base, walSync) })
  // Where this connection's after-commit effects go (db/write.ts).
  afterCommitOn(db, afterCommitOf(deps))
  return deps
}

/** Flushes written-behind state and closes the database. */
export function closeDeps(deps: Deps): void {
  deps.dispatcher.close()
  deps.limiter.close()
  deps.visits.close()
  deps.writeHealth.close()
  void deps.walSync.close()
  deps.db.$client.close()
}
