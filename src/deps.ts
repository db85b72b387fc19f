import type { Config } from './config'
import type { Deps, Auth } from './context'
import { openDb } from './db/client'
import { createLogger, type Logger } from './lib/log'
import { systemClock, type Clock } from './lib/time'
import { StoreCache } from './plugins/cache'
import { RateLimiter } from './plugins/rate-limiter'
import { secretBoxFor } from './lib/secret-box'
import { Dispatcher } from './modules/webhooks/dispatcher'
import { WalSync } from './db/wal-sync'
import { probeWrite, WriteHealth } from './db/write-health'
import { VisitCounter } from './modules/storefront/visits'

/** Opens the database (migrating it) and builds the per-process pieces every part shares. */
export function createDeps(config: Config, opts: { clock?: Clock; log?: Logger } = {}): Deps {
  const db = openDb({ dataDir: config.dataDir, synchronous: config.dbSynchronous })
  const clock = opts.clock ?? systemClock
  const log = opts.log ?? createLogger(config.logLevel)
  const secretBox = secretBoxFor({ secretKey: config.secretKey, dataDir: config.dataDir })
  const walSync = WalSync.forDataDir(db, config.dataDir, config.dbSynchronous)
  // The request path's connection, its transactions at synchronous=NORMAL: a claim or a result
  // lost to a power cut only means that row is sent again (at least once), and it keeps fsyncs
  // off the event loop. The outbox rows themselves commit with the order at the configured
  // level. One connection, not two: a commit on another connection drops this one's page cache
  // and clears the StoreCache (data_version), which cost ~300 µs of CPU per delivery.
  const writeHealth = new WriteHealth(log, clock, probeWrite(db.$client))
  const dispatcher = new Dispatcher({ db, relaxed: (fn) => walSync.relaxed(fn), config, clock, log, secretBox })
  return {
    config,
    db,
    clock,
    log,
    limiter: new RateLimiter(db, clock, config.rateLimitFlushMs),
    cache: new StoreCache(db),
    auths: new WeakMap<Request, Auth>(),
    onOutbox: () => dispatcher.notify(),
    secretBox,
    dispatcher,
    walSync,
    writeHealth,
    visits: new VisitCounter(db.$client, clock, log, writeHealth),
  }
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
