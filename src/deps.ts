import type { Config } from './config'
import type { Deps, Auth } from './context'
import { openDb } from './db/client'
import { createLogger, type Logger } from './lib/log'
import { systemClock, type Clock } from './lib/time'
import { StoreCache } from './plugins/cache'
import { RateLimiter } from './plugins/rate-limiter'

/** Opens the database (migrating it) and builds the per-process pieces every part shares. */
export function createDeps(config: Config, opts: { clock?: Clock; log?: Logger } = {}): Deps {
  const db = openDb({ dataDir: config.dataDir, synchronous: config.dbSynchronous })
  const clock = opts.clock ?? systemClock
  return {
    config,
    db,
    clock,
    log: opts.log ?? createLogger(config.logLevel),
    limiter: new RateLimiter(db, clock, config.rateLimitFlushMs),
    cache: new StoreCache(db),
    auths: new WeakMap<Request, Auth>(),
    onOutbox: () => {},
  }
}

/** Flushes written-behind state and closes the database. */
export function closeDeps(deps: Deps): void {
  deps.limiter.close()
  deps.db.$client.close()
}
