import { Database } from 'bun:sqlite'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import type { ExtractTablesWithRelations } from 'drizzle-orm'
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite'
import type { SQLiteTransaction } from 'drizzle-orm/sqlite-core'
import { migrate } from 'drizzle-orm/bun-sqlite/migrator'
import * as schema from './schema'
import { repairSupersededMigrations } from './migration-repairs'

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database }
/** A Drizzle transaction on a Db. It has no `$client`: raw statements go through the Db's own connection. */
export type Tx = SQLiteTransaction<'sync', void, typeof schema, ExtractTablesWithRelations<typeof schema>>
/** What a query helper runs on: the connection itself, or a transaction open on it. */
export type Runner = Db | Tx

const MIGRATIONS = path.join(import.meta.dir, '../../drizzle')

export interface OpenDbOptions {
  dataDir: string
  synchronous?: 'FULL' | 'NORMAL' | string
}

/**
 * Opens DATA_DIR/storefront.db with the pragmas every connection needs and applies pending
 * migrations. The same function runs at boot, before CLI commands and in tests.
 */
export function openDb({ dataDir, synchronous = 'FULL' }: OpenDbOptions): Db {
  secureDataDir(dataDir)
  const file = path.join(dataDir, 'storefront.db')
  // SQLite creates the database 0644 (less the umask) but every later -wal/-shm/-journal with the
  // database file's own mode, so a 0600 database keeps its WAL 0600 whatever the umask.
  closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
  const sqlite = new Database(file, { create: true, strict: true })
  // The wait comes first: switching to WAL needs a lock that another process (a CLI command, a
  // test's set-up connection still closing) may hold for a moment.
  sqlite.exec('PRAGMA busy_timeout = 5000')
  sqlite.exec('PRAGMA journal_mode = WAL')
  sqlite.exec(`PRAGMA synchronous = ${synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`)
  sqlite.exec('PRAGMA foreign_keys = ON')
  sqlite.exec('PRAGMA temp_store = MEMORY')
  sqlite.exec('PRAGMA cache_size = -65536') // 64 MiB page cache
  // Checkpoint every ~40 MB of WAL instead of 4 MB: the pages every order batch rewrites are
  // copied ~10x less often; durability is unchanged (docs/decisions/004).
  sqlite.exec('PRAGMA wal_autocheckpoint = 10000')
  const db = drizzle(sqlite, { schema }) as Db
  repairSupersededMigrations(sqlite)
  migrate(db, { migrationsFolder: MIGRATIONS })
  return db
}

/** Files under DATA_DIR that hold customer data or secrets. */
const PRIVATE_FILES = [
  'storefront.db',
  'storefront.db-wal',
  'storefront.db-shm',
  'storefront.db-journal',
  'secret.key',
  'tls/key.pem',
  'litestream.yml',
]
/**
 * Folders whose every file is private: TLS material, snapshots (which hold all of the above) and
 * Litestream's shadow WAL (replica/litestream.ts META_DIR: recent pages of the database).
 */
const PRIVATE_DIRS = ['tls', 'backups', '.storefront.db-litestream']

/**
 * DATA_DIR is 0700 and what it keeps private is 0600 (customer names, phones, addresses, client
 * IPs, webhook secrets): created so, and tightened at start when an older version or a copy left
 * them looser. The process umask becomes 077 so files created later (snapshots, media originals,
 * certificates) are owner-only too. Runs before every open: service, CLI and tests alike.
 */
export function secureDataDir(dataDir: string): void {
  process.umask(0o077)
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  tighten(dataDir, 0o700)
  for (const f of PRIVATE_FILES) tighten(path.join(dataDir, f), 0o600)
  for (const d of PRIVATE_DIRS) tightenTree(path.join(dataDir, d))
}

function tighten(file: string, mode: number): void {
  try {
    if ((statSync(file).mode & 0o777) !== mode) chmodSync(file, mode)
  } catch (err) {
    // Absent is fine; a mount point owned by someone else (EPERM) is the operator's call.
    const code = (err as { code?: string }).code
    if (code !== 'ENOENT' && code !== 'EPERM') throw err
  }
}

function tightenTree(dir: string): void {
  if (!existsSync(dir)) return
  tighten(dir, 0o700)
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    if (e.isDirectory()) tightenTree(p)
    else if (e.isFile()) tighten(p, 0o600)
  }
}

/**
 * Runs `fn` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so a
 * check-then-write cannot interleave with another writer. `fn` must be synchronous
 * (an async callback would commit when it returns its promise).
 */
export function immediate<T>(db: Db, fn: (tx: Tx) => T): T {
  return db.transaction(fn, { behavior: 'immediate' })
}

/** Closes the connection `openDb` opened (a one-shot process, such as the CLI, at its end). */
export function closeDb(db: Db): void {
  db.$client.close()
}

export { schema }
