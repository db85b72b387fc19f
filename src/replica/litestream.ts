/**
 * How the service invokes Litestream 0.3.13 (from @flydotio/litestream): where the binary is, the
 * YAML it reads, and the environment it gets. The supervisor (supervisor.ts) and
 * `admin restore --from-replica` (restore.ts) both use these, so they agree on the replica.
 */
import { renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DB_FILE } from '../backup/snapshot'

export const CONFIG_FILE = 'litestream.yml'
/** Litestream's pid while the service runs it: a later start or a restore finds a leftover one by it. */
export const PID_FILE = 'litestream.pid'
/**
 * Litestream's own state beside the database (its shadow WAL): not ours to write, but ours to move aside on restore.
 */
export const META_DIR = `.${DB_FILE}-litestream`

/**
 * How often Litestream copies new WAL frames into its shadow WAL, and how often it ships them: a
 * commit reaches the replica within about their sum (0.75 s) plus the upload, the "1 s" lag the
 * docs state. Each shipment with changes is one PUT on S3: at most 2 a second while writes go on.
 */
export const MONITOR_INTERVAL_MS = 250
export const SYNC_INTERVAL_MS = 500

/**
 * The binary itself, not the package's `bin` wrapper: the wrapper is a node script that runs the
 * binary as its own child, so stopping the wrapper's pid would leave Litestream running.
 */
export function litestreamBin(): string {
  return Bun.resolveSync(`@flydotio/litestream-${process.platform}-${process.arch}/litestream`, import.meta.dir)
}

export interface ReplicaTarget {
  dataDir: string
  url: string
  /** An S3-compatible endpoint; Litestream then uses path-style addressing by itself. */
  endpoint?: string
}

/**
 * The YAML. Values are JSON strings (valid YAML scalars) and Litestream runs with -no-expand-env,
 * so a `$` in a path is taken literally. Credentials never go in the file: Litestream reads
 * LITESTREAM_ACCESS_KEY_ID / LITESTREAM_SECRET_ACCESS_KEY (or AWS_*) from its environment.
 */
export function litestreamYaml(t: ReplicaTarget): string {
  const q = JSON.stringify
  return [
    '# Written by the storefront service at each start (src/replica/litestream.ts); edits are overwritten.',
    // Debug: each WAL copy pass logs its start, which the lag needs (replica/supervisor.ts); the
    // supervisor reads every line and passes on only warnings and errors.
    'logging:',
    '  level: debug',
    '  type: json',
    'dbs:',
    `  - path: ${q(path.join(t.dataDir, DB_FILE))}`,
    `    monitor-interval: ${MONITOR_INTERVAL_MS}ms`,
    // Litestream is the only checkpointer while it runs (db/checkpointer.ts pauses ours): PASSIVE
    // once the WAL holds 1,000 pages, RESTART at 10,000 (a short write stall), each after it has
    // copied every frame. These are its defaults, written out so the numbers are in one place.
    '    min-checkpoint-page-count: 1000',
    '    max-checkpoint-page-count: 10000',
    '    checkpoint-interval: 1m',
    '    replicas:',
    `      - url: ${q(t.url)}`,
    ...(t.endpoint ? [`        endpoint: ${q(t.endpoint)}`] : []),
    `        sync-interval: ${SYNC_INTERVAL_MS}ms`,
    // A restore replays the newest snapshot and every WAL segment after it: an hourly snapshot
    // bounds that to an hour of segments (the RTO); a day of them is kept for point-in-time restores.
    '        snapshot-interval: 1h',
    '        retention: 24h',
    '',
  ].join('\n')
}

/** Writes the YAML into `dir` (DATA_DIR, or a restore's staging folder), 0600, replacing it whole. */
export function writeLitestreamConfig(dir: string, t: ReplicaTarget): string {
  const file = path.join(dir, CONFIG_FILE)
  const tmp = `${file}.tmp`
  writeFileSync(tmp, litestreamYaml(t), { mode: 0o600 })
  renameSync(tmp, file)
  return file
}

/**
 * Litestream's environment: what it needs to reach the store (LITESTREAM_*, AWS_*, CA settings
 * for a private endpoint) and nothing else. The service's own secrets (SECRET_KEY, the billing
 * secret) have no business in another program's environment.
 */
export function litestreamEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  const keep = (k: string) =>
    k === 'PATH' ||
    k === 'HOME' ||
    k === 'TZ' ||
    k.startsWith('LITESTREAM_') ||
    k.startsWith('AWS_') ||
    k === 'SSL_CERT_FILE' ||
    k === 'SSL_CERT_DIR'
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => keep(e[0]) && e[1] !== undefined))
}

/** The arguments of a `litestream` command reading our YAML. */
export const withConfig = (command: 'replicate' | 'restore', configFile: string): string[] => [
  command,
  '-config',
  configFile,
  '-no-expand-env',
]
