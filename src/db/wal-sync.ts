/**
 * Group commit without blocking the event loop on fsync. A batch of orders commits at
 * synchronous=NORMAL (its WAL frames are written, not yet synced), then the WAL file is
 * fsynced on libuv's thread pool, and only then are the 201s sent. That is the guarantee
 * synchronous=FULL gives in WAL mode (the WAL is synced at every commit), but while one batch
 * waits for the disk the next one is already being validated and committed: with FULL the
 * synchronous fsync inside COMMIT left the one core idle for a fifth of the time.
 *
 * If a checkpoint has copied the frames into the database file meanwhile, SQLite synced that
 * file itself (checkpoints sync at NORMAL), and syncing the WAL again is harmless.
 */
import { open, type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import type { Db } from './client'

export class WalSync {
  private handle: Promise<FileHandle> | undefined

  constructor(
    private db: Db,
    private walPath: string,
    /** The configured level; at NORMAL (or OFF) there is nothing to add. */
    private level: string,
  ) {}

  static forDataDir(db: Db, dataDir: string, level: string): WalSync {
    return new WalSync(db, path.join(dataDir, 'storefront.db-wal'), level)
  }

  get active(): boolean {
    const l = this.level.toUpperCase()
    return l === 'FULL' || l === 'EXTRA'
  }

  /** Runs `fn` (which commits) with the connection at NORMAL, restoring the level after. */
  relaxed<T>(fn: () => T): T {
    if (!this.active) return fn()
    // exec, not a kept prepared statement: SQLite applies this pragma when it is compiled, and
    // a re-run prepared copy did not reliably switch the level back and forth.
    this.db.$client.exec('PRAGMA synchronous = NORMAL')
    try {
      return fn()
    } finally {
      this.db.$client.exec(`PRAGMA synchronous = ${this.level.toUpperCase() === 'EXTRA' ? 'EXTRA' : 'FULL'}`)
    }
  }

  /** Resolves once everything committed so far is on disk. */
  async sync(): Promise<void> {
    if (!this.active) return
    this.handle ??= open(this.walPath, 'r+')
    try {
      await (await this.handle).sync()
    } catch (err) {
      // The WAL file can be replaced (e.g. after a truncating checkpoint): reopen once.
      this.handle = open(this.walPath, 'r+')
      await (await this.handle).sync().catch(() => {
        throw err
      })
    }
  }

  async close(): Promise<void> {
    const h = this.handle
    this.handle = undefined
    if (h) await (await h).close().catch(() => {})
  }
}
