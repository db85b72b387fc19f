/**
 * `admin restore --from-replica [--timestamp ISO]`: the replica's latest
 * state, or its state at a time, into DATA_DIR with `litestream restore -o`.
 *
 * Like the snapshot restore (backup/snapshot.ts) it refuses while the service holds DATA_DIR,
 * checks the copy before touching anything, moves the replaced files to
 * `DATA_DIR/pre-restore-<time>/` and checks the result again. Unlike it, the replica holds the
 * database only: secret.key and media/ stay as they are in DATA_DIR, and Litestream's shadow WAL
 * of the old database is moved aside with it (it describes a database that is no longer there).
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { BackupError, DB_FILE, fsyncFile, integrityCheck, KEY_FILE, refuseWhileHeld, stamp } from '../backup/snapshot'
import {
  litestreamBin,
  litestreamEnv,
  META_DIR,
  withConfig,
  writeLitestreamConfig,
  type ReplicaTarget,
} from './litestream'
import { leftoverLitestream } from './pid'

export interface ReplicaRestoreResult {
  restoredFrom: string
  /** The point in time asked for, or null for the latest. */
  timestamp: string | null
  dataDir: string
  integrity: string
  /** Where the replaced files went, or null when DATA_DIR had no database. */
  previous: string | null
  /** What will open the webhook secrets: the replica never holds the key. */
  secretKey: 'secret.key' | 'SECRET_KEY' | 'missing'
  ms: number
}

export interface ReplicaRestoreOptions extends ReplicaTarget {
  /** An instant Litestream restores up to (ISO 8601); latest when absent. */
  timestamp?: string
  /** The service is configured with SECRET_KEY rather than DATA_DIR/secret.key. */
  secretKeyFromEnv: boolean
  now?: number
}

export function restoreFromReplica(o: ReplicaRestoreOptions): ReplicaRestoreResult {
  const started = performance.now()
  const now = o.now ?? Date.now()
  refuseWhileHeld(o.dataDir)
  const orphan = leftoverLitestream(o.dataDir)
  if (orphan !== undefined)
    throw new BackupError('SERVICE_RUNNING', `Litestream (pid ${orphan}) still replicates ${o.dataDir}: stop it first`)

  mkdirSync(o.dataDir, { recursive: true, mode: 0o700 })
  // Restored into a staging folder beside the data (same disk, so the final rename is atomic):
  // Litestream leaves its temporary -wal/-shm next to its output.
  const staging = path.join(o.dataDir, `.replica-restore-${stamp(now)}`)
  mkdirSync(staging, { mode: 0o700 })
  try {
    const stagedDb = path.join(staging, DB_FILE)
    // The YAML names DATA_DIR's database: Litestream finds the replica by that path.
    const config = writeLitestreamConfig(staging, o)
    const args = [
      ...withConfig('restore', config),
      '-o',
      stagedDb,
      ...(o.timestamp ? ['-timestamp', o.timestamp] : []),
      path.join(o.dataDir, DB_FILE),
    ]
    const run = Bun.spawnSync([litestreamBin(), ...args], { env: litestreamEnv(), stdout: 'pipe', stderr: 'pipe' })
    if (run.exitCode !== 0 || !existsSync(stagedDb))
      throw new BackupError(
        'REPLICA',
        `litestream restore failed: ${failure(run.stdout.toString() + run.stderr.toString())}`,
      )
    const before = integrityCheck(stagedDb)
    if (before !== 'ok') throw new BackupError('INTEGRITY', `the restored copy failed its integrity check: ${before}`)

    const live = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, `${DB_FILE}-journal`, META_DIR]
    let previous: string | null = null
    if (live.some((f) => existsSync(path.join(o.dataDir, f)))) {
      previous = path.join(o.dataDir, `pre-restore-${stamp(now)}`)
      mkdirSync(previous, { mode: 0o700 })
      for (const f of live)
        if (existsSync(path.join(o.dataDir, f))) renameSync(path.join(o.dataDir, f), path.join(previous, f))
    }
    fsyncFile(stagedDb)
    renameSync(stagedDb, path.join(o.dataDir, DB_FILE))

    const integrity = integrityCheck(path.join(o.dataDir, DB_FILE))
    if (integrity !== 'ok')
      throw new BackupError('INTEGRITY', `the restored database failed its integrity check: ${integrity}`)
    const secretKey = existsSync(path.join(o.dataDir, KEY_FILE))
      ? 'secret.key'
      : o.secretKeyFromEnv
        ? 'SECRET_KEY'
        : 'missing'
    return {
      restoredFrom: o.url,
      timestamp: o.timestamp ?? null,
      dataDir: o.dataDir,
      integrity,
      previous,
      secretKey,
      ms: Math.round(performance.now() - started),
    }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** Litestream's own reason ("no matching backups found", a credentials error), from its JSON or plain log. */
function failure(output: string): string {
  const lines = output.trim().split('\n').filter(Boolean).reverse()
  for (const line of lines) {
    try {
      const j = JSON.parse(line) as { level?: string; error?: string; msg?: string }
      if (j.level === 'ERROR') return j.error ?? j.msg ?? line
    } catch {
      const m = /error="?([^"]+)"?/.exec(line)
      if (m) return m[1]!
    }
  }
  return lines[0] ?? 'no output' // the last line it printed
}
