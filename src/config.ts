/**
 * The operator interface: every setting the service reads from the environment, in one table,
 * parsed once at start. A bad value stops the start with a message naming every bad variable.
 */
import path from 'node:path'
import { Cron } from 'croner'

type Parser<T> = (raw: string) => T | undefined

const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw.trim())) return undefined
    const n = Number(raw)
    return n >= min && n <= max ? n : undefined
  }
const flag: Parser<boolean> = (raw) =>
  ['1', 'true', 'yes'].includes(raw) ? true : ['0', 'false', 'no', ''].includes(raw) ? false : undefined
const str: Parser<string> = (raw) => raw
const url: Parser<string> = (raw) => {
  try {
    const u = new URL(raw)
    return /^https?:$/.test(u.protocol) ? raw.replace(/\/+$/, '') : undefined
  } catch {
    return undefined
  }
}
/** Comma-separated http(s) origins (`https://shop.example`), or `*` for any. */
const origins: Parser<string[]> = (raw) => {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const ok = parts.every((p) => p === '*' || (url(p) !== undefined && new URL(p).origin === p.replace(/\/+$/, '')))
  return parts.length > 0 && ok ? parts.map((p) => p.replace(/\/+$/, '')) : undefined
}
/** Comma-separated positive integers, e.g. a retry schedule in seconds. */
const intList: Parser<number[]> = (raw) => {
  const parts = raw.split(',').map((p) => p.trim())
  return parts.length > 0 && parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : undefined
}

/**
 * Where Litestream replicates the database (src/replica): `file:///absolute/path` or
 * `s3://bucket[/path]`, the two documented in docs/operations.md. Other schemes Litestream knows (gcs, abs, sftp)
 * are refused rather than passed through untried.
 */
const replicaUrl: Parser<string> = (raw) => {
  try {
    const u = new URL(raw)
    if (u.protocol === 'file:') return u.host === '' && u.pathname.length > 1 ? raw.replace(/\/+$/, '') : undefined
    if (u.protocol === 's3:') return u.hostname !== '' && !u.search && !u.username ? raw.replace(/\/+$/, '') : undefined
    return undefined
  } catch {
    return undefined
  }
}

const cron: Parser<string> = (raw) => {
  try {
    new Cron(raw, { paused: true }).stop()
    return raw
  } catch {
    return undefined
  }
}

interface Setting<T> {
  env: string
  parse: Parser<T>
  default: T
  /** What a valid value looks like, for the error message. */
  expect: string
}
const setting = <T>(env: string, parse: Parser<T>, def: T, expect: string): Setting<T> => ({
  env,
  parse,
  default: def,
  expect,
})

const schema = {
  dataDir: setting('DATA_DIR', str, './data', 'a directory path'),
  port: setting('PORT', int(0, 65535), 3443, 'a port number 0–65535'),
  httpPort: setting('HTTP_PORT', int(0, 65535), 3080, 'a port number 0–65535'),
  host: setting('HOST', str, '0.0.0.0', 'a bind address'),
  tlsCertFile: setting<string | undefined>('TLS_CERT_FILE', str, undefined, 'a PEM file path'),
  tlsKeyFile: setting<string | undefined>('TLS_KEY_FILE', str, undefined, 'a PEM file path'),
  trustProxy: setting('TRUST_PROXY', flag, false, '1 or 0'),
  publicUrl: setting<string | undefined>('PUBLIC_URL', url, undefined, 'an http(s) origin'),
  logLevel: setting(
    'LOG_LEVEL',
    (r) => (['debug', 'info', 'warn', 'error', 'silent'].includes(r) ? r : undefined),
    'info',
    'debug|info|warn|error|silent',
  ),
  /** Secret for encrypting webhook secrets at rest and signing billing events; generated into DATA_DIR when unset. */
  secretKey: setting<string | undefined>(
    'SECRET_KEY',
    (r) => (r.length >= 32 ? r : undefined),
    undefined,
    'at least 32 characters',
  ),
  billingWebhookSecret: setting<string | undefined>(
    'BILLING_WEBHOOK_SECRET',
    (r) => (r.length >= 16 ? r : undefined),
    undefined,
    'at least 16 characters',
  ),
  /** Origins whose pages may call the public endpoints from a browser (docs/hardening.md). */
  corsOrigins: setting('CORS_ORIGINS', origins, ['*'], "'*' or comma-separated http(s) origins"),
  /** Other sites' origins allowed to call /mcp from a browser (DNS-rebinding guard). */
  mcpAllowedOrigins: setting<string[]>('MCP_ALLOWED_ORIGINS', origins, [], 'comma-separated http(s) origins'),
  upgradeUrl: setting('UPGRADE_URL', url, 'https://storefront.example/billing/upgrade', 'an http(s) URL'),

  // Rate limits. Windows in seconds.
  rateLimitKey: setting('RATE_LIMIT_KEY_PER_MIN', int(1), 100, 'a positive integer'),
  rateLimitOrders: setting('RATE_LIMIT_ORDERS_PER_MIN', int(1), 10, 'a positive integer'),
  rateLimitReviews: setting('RATE_LIMIT_REVIEWS_PER_DAY', int(1), 3, 'a positive integer'),
  rateLimitCheckSlug: setting('RATE_LIMIT_CHECK_SLUG_PER_HOUR', int(1), 30, 'a positive integer'),
  rateLimitStoreReads: setting('RATE_LIMIT_STORE_READS_PER_MIN', int(1), 120, 'a positive integer'),
  /** Requests without a valid key (401s, unknown /api paths) per client IP: slows key guessing. */
  rateLimitAnonymous: setting('RATE_LIMIT_ANONYMOUS_PER_MIN', int(1), 300, 'a positive integer'),
  rateLimitFlushMs: setting('RATE_LIMIT_FLUSH_MS', int(10), 1000, 'milliseconds ≥ 10'),
  /**
   * Storefront pages per client IP per minute. A shopper opens a page every few seconds at most
   * (~20/min); 600 leaves room for ~30 such shoppers behind one NAT or carrier address at once,
   * while a script reloading pages is cut off within a minute. Cached pages cost little: this
   * bounds scraping and load, and visits are counted once per IP anyway.
   */
  shopPagesPerIpPerMin: setting('SHOP_PAGES_PER_IP_PER_MIN', int(1), 600, 'a positive integer'),
  /** Units of one public order in all: one anonymous order can't take a shop's whole stock. */
  orderMaxUnits: setting('ORDER_MAX_UNITS', int(1), 500, 'a positive integer'),

  // Plan caps. 0 for variants means "no variants".
  freeMaxProducts: setting('FREE_MAX_PRODUCTS', int(0), 10, 'an integer ≥ 0'),
  freeMaxCategories: setting('FREE_MAX_CATEGORIES', int(0), 3, 'an integer ≥ 0'),
  proMaxProducts: setting('PRO_MAX_PRODUCTS', int(0), 500, 'an integer ≥ 0'),
  proMaxCategories: setting('PRO_MAX_CATEGORIES', int(0), 50, 'an integer ≥ 0'),

  // Product images (modules/products/images). Bytes of one upload; pixels read from the header, before decoding.
  mediaMaxBytes: setting('MEDIA_MAX_BYTES', int(1), 8 * 1024 * 1024, 'bytes ≥ 1'),
  mediaMaxPixels: setting('MEDIA_MAX_PIXELS', int(1), 40_000_000, 'pixels ≥ 1'),
  /** Uploads in flight (streamed to disk, then resized): per store, per key and in all; 429 beyond. */
  mediaUploadsPerStore: setting('MEDIA_UPLOADS_PER_STORE', int(1), 2, 'a positive integer'),
  mediaUploadsTotal: setting('MEDIA_UPLOADS_TOTAL', int(1), 8, 'a positive integer'),
  maxProductImages: setting('MAX_PRODUCT_IMAGES', int(0), 10, 'an integer ≥ 0'),
  freeMaxProductImages: setting('FREE_MAX_PRODUCT_IMAGES', int(0), 3, 'an integer ≥ 0'),

  // Webhooks.
  webhookAllowPrivate: setting('WEBHOOK_ALLOW_PRIVATE', flag, false, '1 or 0'),
  /** Seconds after each failed attempt (Standard Webhooks schedule). */
  webhookRetrySchedule: setting(
    'WEBHOOK_RETRY_SCHEDULE',
    intList,
    [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400],
    'comma-separated seconds',
  ),
  webhookTimeoutMs: setting('WEBHOOK_TIMEOUT_MS', int(100), 15000, 'milliseconds ≥ 100'),
  webhookConcurrency: setting('WEBHOOK_CONCURRENCY', int(1), 16, 'a positive integer'),
  webhookConcurrencyPerEndpoint: setting('WEBHOOK_CONCURRENCY_PER_ENDPOINT', int(1), 4, 'a positive integer'),
  /** Deliveries per second while checkout is saturated (see modules/webhooks/governor.ts). */
  webhookBusyRate: setting('WEBHOOK_BUSY_RATE', int(1), 100, 'a positive integer'),
  webhookDisableAfterDays: setting('WEBHOOK_DISABLE_AFTER_DAYS', int(1), 5, 'a positive integer'),
  /** Finished deliveries (succeeded or failed) older than this leave the log; 0 keeps them forever. */
  webhookLogRetentionDays: setting('WEBHOOK_LOG_RETENTION_DAYS', int(0), 30, 'days (0 keeps the log forever)'),
  webhookPollCron: setting('WEBHOOK_POLL_CRON', str, '*/5 * * * * *', 'a cron pattern (with seconds)'),
  /** After a secret rotation the previous secret keeps signing (a second v1 signature) this long. */
  webhookSecretOverlapSec: setting('WEBHOOK_SECRET_OVERLAP_SEC', int(0), 86400, 'seconds'),
  /** Endpoints one store may register (409 LIMIT_REACHED beyond). */
  webhookMaxPerStore: setting('WEBHOOK_MAX_PER_STORE', int(1), 20, 'a positive integer'),

  // Web Push to the sellers' devices (modules/push).
  /** Also plain http and private addresses as push endpoints: local testing only. */
  pushAllowPrivate: setting('PUSH_ALLOW_PRIVATE', flag, false, '1 or 0'),
  /** The VAPID key pair (base64url); unset, one is made once into DATA_DIR/vapid.json. */
  vapidPublicKey: setting<string | undefined>('VAPID_PUBLIC_KEY', str, undefined, 'a base64url P-256 public key'),
  vapidPrivateKey: setting<string | undefined>('VAPID_PRIVATE_KEY', str, undefined, 'a base64url P-256 private key'),
  /** Who the push services may contact: an https: URL or mailto:; unset, PUBLIC_URL or the first owner's e-mail. */
  vapidSubject: setting<string | undefined>('VAPID_SUBJECT', str, undefined, 'an https: URL or a mailto: address'),
  /** Pushes per second while checkout is saturated (like WEBHOOK_BUSY_RATE; a push costs more: it is encrypted). */
  pushBusyRate: setting('PUSH_BUSY_RATE', int(1), 50, 'a positive integer'),
  pushTimeoutMs: setting('PUSH_TIMEOUT_MS', int(100), 10000, 'milliseconds ≥ 100'),
  pushConcurrency: setting('PUSH_CONCURRENCY', int(1), 16, 'a positive integer'),

  // Billing.
  billingCron: setting('BILLING_CRON', str, '0 * * * * *', 'a cron pattern (with seconds)'),
  billingToleranceSec: setting('BILLING_TOLERANCE_SEC', int(1), 300, 'seconds'),

  /** FULL: a commit is on disk before the 201 (survives power loss); NORMAL survives a process crash only. */
  dbSynchronous: setting(
    'DB_SYNCHRONOUS',
    (r) => (['FULL', 'NORMAL'].includes(r.toUpperCase()) ? r.toUpperCase() : undefined),
    'FULL',
    'FULL or NORMAL',
  ),

  /**
   * Benchmarks only (bench/reads.ts): serve every GET uncached,
   * to measure the path a busy store takes after each write.
   */
  benchNoResponseCache: setting('BENCH_NO_RESPONSE_CACHE', flag, false, '1 or 0'),

  shutdownTimeoutMs: setting('SHUTDOWN_TIMEOUT_MS', int(0), 10000, 'milliseconds'),
  /** A full garbage collection after this many MB of new JavaScript allocation (lib/memory-watch.ts); 0 = off. */
  memoryCollectStepMb: setting('MEMORY_COLLECT_STEP_MB', int(0), 32, 'megabytes ≥ 0 (0 turns it off)'),

  // Backups (src/backup): snapshots into DATA_DIR/backups, the newest BACKUP_KEEP kept; 0 = no schedule.
  backupCron: setting('BACKUP_CRON', cron, '0 30 3 * * *', 'a cron pattern (with seconds)'),
  backupKeep: setting('BACKUP_KEEP', int(0), 7, 'a count ≥ 0 (0 turns scheduled backups off)'),

  // Replication (src/replica): Litestream beside the service; credentials stay in LITESTREAM_* variables.
  replicaUrl: setting<string | undefined>(
    'REPLICA_URL',
    replicaUrl,
    undefined,
    'file:///absolute/path or s3://bucket/path',
  ),
  /** An S3-compatible store's API endpoint (MinIO, R2, B2…); unset for AWS S3. */
  replicaEndpoint: setting<string | undefined>('REPLICA_ENDPOINT', url, undefined, 'an http(s) URL'),
}

type Schema = typeof schema
export type Config = { [K in keyof Schema]: Schema[K]['default'] }

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
  }
}

/** Parses the environment once. Unset or empty variables take their defaults. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = []
  const out: Record<string, unknown> = {}
  for (const [name, s] of Object.entries(schema) as [string, Setting<unknown>][]) {
    const raw = env[s.env]
    if (raw === undefined || raw === '') {
      out[name] = s.default
      continue
    }
    const value = s.parse(raw)
    if (value === undefined) problems.push(`${s.env}=${JSON.stringify(raw)}: expected ${s.expect}`)
    else out[name] = value
  }
  if (Boolean(env.TLS_CERT_FILE) !== Boolean(env.TLS_KEY_FILE))
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE: set both or neither')
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both or neither')
  // Behind a proxy the Host a client sends (X-Forwarded-Host) must not decide redirects,
  // canonical links or the sitemap line; PUBLIC_URL names the one origin instead.
  if (out.trustProxy === true && !out.publicUrl)
    problems.push('TRUST_PROXY=1 needs PUBLIC_URL (the origin customers use, e.g. https://shop.example.com)')
  if (out.replicaEndpoint && !String(out.replicaUrl ?? '').startsWith('s3:'))
    problems.push('REPLICA_ENDPOINT needs an s3:// REPLICA_URL')
  if (problems.length) throw new ConfigError(problems)
  const config = out as Config
  config.dataDir = path.resolve(config.dataDir)
  return config
}

/** Config for tests and tools: defaults plus overrides, no environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides }
}

/** For entry points: the config, or the list of bad variables on stderr and exit code 2. */
export function loadConfigOrExit(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(err.message)
    process.exit(2)
  }
}
