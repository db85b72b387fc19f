/**
 * Backups. A snapshot is a folder
 * `storefront-<UTC time>/` holding
 *   storefront.db   a consistent online copy made with `VACUUM INTO` (one read transaction: every
 *                   commit before it began is in, none after; writers carry on meanwhile in WAL)
 *   secret.key      without it the webhook secrets in the copy can't be decrypted
 *   media/          uploaded images, when DATA_DIR/media exists
 *   manifest.json   what was copied, when, and the integrity check of the copy
 * It is written under a hidden temporary name and renamed when complete, so a half-written
 * snapshot never looks like one. Everything is owner-only (0700/0600): it holds customer data.
 */
import { Database } from 'bun:sqlite'
import {
  type Stats,
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import { holder, PID_FILE } from './pid'

export const DB_FILE = 'storefront.db'
export const KEY_FILE = 'secret.key'
export const MEDIA_DIR = 'media'
export const BACKUPS_DIR = 'backups'
const PREFIX = 'storefront-'

export interface Manifest {
  format: 1
  createdAt: string
  /** Milliseconds the copy took. */
  ms: number
  dbBytes: number
  integrity: string
  /** False when the service used SECRET_KEY from the environment: keep that value with the backup. */
  secretKey: boolean
  media: boolean
}

export class BackupError extends Error {
  constructor(
    readonly code: 'SERVICE_RUNNING' | 'BAD_SNAPSHOT' | 'INTEGRITY' | 'EXISTS' | 'REPLICA',
    message: string,
  ) {
    super(message)
  }
}

export const stamp = (ms: number) => new Date(ms).toISOString().replace(/[:.]/g, '-')

export function fsyncFile(file: string): void {
  const fd = openSync(file, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** `PRAGMA integrity_check` of a database file: 'ok' or the first problems SQLite reports. */
export function integrityCheck(file: string): string {
  const db = new Database(file, { readonly: true })
  try {
    return db
      .query<{ integrity_check: string }, []>('PRAGMA integrity_check(10)')
      .all()
      .map((r) => r.integrity_check)
      .join('; ')
  } catch (err) {
    return (err as Error).message
  } finally {
    db.close()
  }
}

/**
 * Writes a snapshot of `dataDir` into `destDir` (created 0700) and returns its path. Opens its
 * own connection, so it can run in a worker or another process while the service writes.
 */
export function createSnapshot(
  dataDir: string,
  destDir: string,
  now = Date.now(),
): { path: string; manifest: Manifest } {
  const started = performance.now()
  mkdirSync(destDir, { recursive: true, mode: 0o700 })
  const name = PREFIX + stamp(now)
  const final = path.join(destDir, name)
  if (existsSync(final)) throw new BackupError('EXISTS', `${final} already exists`)
  const tmp = path.join(destDir, `.${name}.partial`)
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { mode: 0o700 })
  try {
    const target = path.join(tmp, DB_FILE)
    const src = new Database(path.join(dataDir, DB_FILE), { readwrite: true, create: false })
    try {
      src.exec('PRAGMA busy_timeout = 5000')
      src.run('VACUUM INTO ?', [target])
    } finally {
      src.close()
    }
    // A plain rollback-journal file: the copy is then one self-contained file, opened read-only
    // (integrity check, restore) without creating -wal/-shm beside it.
    const copy = new Database(target)
    try {
      copy.exec('PRAGMA journal_mode = DELETE')
    } finally {
      copy.close()
    }
    chmodSync(target, 0o600)
    fsyncFile(target)
    const integrity = integrityCheck(target)
    if (integrity !== 'ok') throw new BackupError('INTEGRITY', `the copy failed its integrity check: ${integrity}`)

    const keyFile = path.join(dataDir, KEY_FILE)
    const secretKey = existsSync(keyFile)
    if (secretKey) {
      cpSync(keyFile, path.join(tmp, KEY_FILE))
      chmodSync(path.join(tmp, KEY_FILE), 0o600)
    }
    const mediaDir = path.join(dataDir, MEDIA_DIR)
    const media = existsSync(mediaDir)
    // Only plain files and folders (a link in DATA_DIR/media is never the service's own), and
    // not media/staging: uploads still arriving.
    const staging = path.join(mediaDir, 'staging')
    if (media)
      cpSync(mediaDir, path.join(tmp, MEDIA_DIR), {
        recursive: true,
        filter: (src) => src !== staging && plainEntry(lstatSync(src)),
      })

    const manifest: Manifest = {
      format: 1,
      createdAt: new Date(now).toISOString(),
      ms: Math.round(performance.now() - started),
      dbBytes: statSync(target).size,
      integrity,
      secretKey,
      media,
    }
    writeFileSync(path.join(tmp, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 })
    renameSync(tmp, final)
    return { path: final, manifest }
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true })
    throw err
  }
}

/** Snapshot folders in `dir`, oldest first (their names sort by time). */
export function listSnapshots(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name.startsWith(PREFIX))
    .map((e) => e.name)
    .sort()
    .map((n) => path.join(dir, n))
}

/**
 * Deletes all but the newest `keep` snapshots in `dir`, and the partial folders of backups that
 * died mid-copy (untouched for an hour); returns the deleted snapshot paths.
 */
export function rotateSnapshots(dir: string, keep: number, now = Date.now()): string[] {
  const all = listSnapshots(dir)
  const old = all.slice(0, Math.max(0, all.length - keep))
  for (const p of old) rmSync(p, { recursive: true, force: true })
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e)
    if (e.startsWith(`.${PREFIX}`) && e.endsWith('.partial') && now - statSync(p).mtimeMs > 3_600_000)
      rmSync(p, { recursive: true, force: true })
  }
  return old
}

type Lstat = Stats
const plainEntry = (st: Lstat) => st.isDirectory() || (st.isFile() && st.nlink === 1)

/**
 * The first entry under `dir` that is not a plain folder or a file with one link — a symlink, a
 * hard link or a special file — or undefined. A tampered snapshot could otherwise turn a restore
 * into a read of any file (a media "picture" linking to /etc/passwd) or a write elsewhere (a
 * symlinked storefront.db).
 */
export function unsafeEntry(dir: string): string | undefined {
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e)
    const st = lstatSync(p)
    if (!plainEntry(st)) return p
    if (st.isDirectory()) {
      const inner = unsafeEntry(p)
      if (inner) return inner
    }
  }
  return undefined
}

/** A restore must not swap the database under a running service (backup/pid.ts). */
export function refuseWhileHeld(dataDir: string): void {
  const held = holder(dataDir)
  if (held !== undefined) {
    throw new BackupError(
      'SERVICE_RUNNING',
      `the service (${held}) is running on ${dataDir}: stop it first (if it is not running, ` +
        `delete ${path.join(dataDir, PID_FILE)})`,
    )
  }
}

export interface RestoreResult {
  restoredFrom: string
  dataDir: string
  integrity: string
  /** Where the replaced files went (nothing is deleted), or null when DATA_DIR had no database. */
  previous: string | null
}

/**
 * Replaces DATA_DIR's database, secret.key and media with a snapshot's. Refuses while a service
 * holds DATA_DIR, and checks the snapshot (integrity, and no links or special files anywhere)
 * before touching anything; the files it replaces are
 * moved to `DATA_DIR/pre-restore-<time>/`, not deleted. The restored database is checked again.
 */
export function restoreSnapshot(snapshot: string, dataDir: string, now = Date.now()): RestoreResult {
  refuseWhileHeld(dataDir)
  const source = path.resolve(snapshot)
  const srcDb = path.join(source, DB_FILE)
  if (!existsSync(srcDb)) throw new BackupError('BAD_SNAPSHOT', `${source} is not a snapshot (no ${DB_FILE})`)
  const unsafe = unsafeEntry(source)
  if (unsafe)
    throw new BackupError(
      'BAD_SNAPSHOT',
      `${unsafe} is a link or a special file, which no snapshot holds; nothing was restored`,
    )
  const before = integrityCheck(srcDb)
  if (before !== 'ok') throw new BackupError('INTEGRITY', `the snapshot failed its integrity check: ${before}`)

  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  // The current secret.key stays when the snapshot has none (the service used SECRET_KEY, or
  // never ran): moving it aside could only make the restored webhook secrets unreadable.
  const carriesKey = existsSync(path.join(source, KEY_FILE))
  const live = [
    DB_FILE,
    `${DB_FILE}-wal`,
    `${DB_FILE}-shm`,
    `${DB_FILE}-journal`,
    ...(carriesKey ? [KEY_FILE] : []),
    MEDIA_DIR,
  ]
  let previous: string | null = null
  if (live.some((f) => existsSync(path.join(dataDir, f)))) {
    previous = path.join(dataDir, `pre-restore-${stamp(now)}`)
    mkdirSync(previous, { mode: 0o700 })
    for (const f of live)
      if (existsSync(path.join(dataDir, f))) renameSync(path.join(dataDir, f), path.join(previous, f))
  }
  // Copy to a temporary name, sync, then rename: a crash mid-copy leaves no half database in place.
  const tmpDb = path.join(dataDir, `.${DB_FILE}.restoring`)
  cpSync(srcDb, tmpDb)
  chmodSync(tmpDb, 0o600)
  fsyncFile(tmpDb)
  renameSync(tmpDb, path.join(dataDir, DB_FILE))
  if (carriesKey) {
    cpSync(path.join(source, KEY_FILE), path.join(dataDir, KEY_FILE))
    chmodSync(path.join(dataDir, KEY_FILE), 0o600)
  }
  if (existsSync(path.join(source, MEDIA_DIR)))
    cpSync(path.join(source, MEDIA_DIR), path.join(dataDir, MEDIA_DIR), { recursive: true })

  const integrity = integrityCheck(path.join(dataDir, DB_FILE))
  if (integrity !== 'ok')
    throw new BackupError('INTEGRITY', `the restored database failed its integrity check: ${integrity}`)
  return { restoredFrom: source, dataDir, integrity, previous }
}

/** The manifest of a snapshot folder, when it has one. */
export function readManifest(snapshot: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(path.join(snapshot, 'manifest.json'), 'utf8')) as Manifest
  } catch {
    return undefined
  }
}
