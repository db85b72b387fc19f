import type { Config } from '../config'
import type { Db } from '../db/client'
import type { Clock } from '../lib/time'
import { pruneIdempotencyKeys } from '../modules/orders'
import { pruneDeliveryLog } from '../modules/webhooks'
import { pruneVisits } from '../modules/public-catalog'
import { pruneOauth } from '../modules/oauth'
import { pruneMedia } from '../modules/products'

/**
 * Forgets what no longer matters: ended rate-limit windows, idempotency keys past 24 h, and
 * finished webhook deliveries past WEBHOOK_LOG_RETENTION_DAYS, raw catalog visits past VISIT_RAW_DAYS,
 * the pictures of products deleted more than MEDIA_RETENTION_DAYS ago, and the connected apps'
 * lapsed codes and tokens (modules/oauth/prune.ts).
 */
export interface PruneDeps {
  db: Db
  clock: Clock
  config: Config
  limiter: { prune(): void }
}

export async function pruneExpired(deps: PruneDeps): Promise<void> {
  deps.limiter.prune()
  pruneIdempotencyKeys({ ctx: deps })
  await pruneDeliveryLog({ ctx: deps, input: { days: deps.config.webhookLogRetentionDays } })
  await pruneVisits({ ctx: deps })
  await pruneMedia({ ctx: deps, input: { dataDir: deps.config.dataDir } })
  pruneOauth({ ctx: deps })
}
