/**
 * Disk full and I/O errors: a write that fails for lack of
 * space or a storage fault is the operator's problem, not a bug. The request gets 503
 * SERVICE_UNAVAILABLE with Retry-After (plugins/errors.ts), `/health` answers 503
 * `{ status: "degraded", reason }` while writes fail, and each distinct error is logged once a
 * minute with how often it happened (a full disk under load once wrote thousands of stack traces
 * a second). Nothing needs a restart: the first write that succeeds again — a request's, or the
 * probe's every few seconds — clears the state.
 */
import type { Database } from 'bun:sqlite'
import type { Logger } from '../lib/log'
import { LogOnce } from '../lib/log-once'
import type { Clock } from '../lib/time'

export type StorageReason = 'disk_full' | 'io_error'

/** Seconds a client should wait before retrying a write that failed for storage reasons. */
export const RETRY_AFTER_SEC = 30
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'])

/** Which storage failure an error is, or undefined for anything else (a bug stays a 500). */
export function storageFailure(err: unknown): StorageReason | undefined {
  if (typeof err !== 'object' || err === null) return undefined
  const code = (err as { code?: unknown }).code
  if (typeof code !== 'string') return undefined
  if (FULL.has(code)) return 'disk_full'
  if (
    code.startsWith('SQLITE_IOERR') ||
    code === 'SQLITE_READONLY' ||
    code === 'SQLITE_CANTOPEN' ||
    code === 'EIO' ||
    code === 'EROFS'
  )
    return 'io_error'
  return undefined
}

export class WriteHealth {
  private failing: { reason: StorageReason; since: number } | undefined
  private errors: LogOnce
  private probeTimer: ReturnType<typeof setInterval> | undefined

  constructor(
    private log: Logger,
    private clock: Clock,
    /** A tiny committed write that proves the database can be written again. */
    private probe: () => void,
    private probeMs = 5_000,
  ) {
    this.errors = new LogOnce(log, clock)
  }

  /** For /health: undefined while writes work. */
  get degraded(): { reason: StorageReason; since: number } | undefined {
    return this.failing
  }

  /** Records a failed write: enters the degraded state and logs (at most once a minute per error). */
  fail(err: unknown, reason = storageFailure(err) ?? 'io_error'): void {
    const now = this.clock.now()
    if (!this.failing) {
      this.failing = { reason, since: now }
      this.startProbe()
    }
    const e = err as { code?: string; message?: string }
    const error = e.message ?? String(err)
    this.errors.error(`${e.code ?? ''} ${error}`, 'storage write failed', { reason, code: e.code, error })
  }

  /** Records a write that worked: leaves the degraded state. */
  ok(): void {
    if (!this.failing) return
    const { reason, since } = this.failing
    this.failing = undefined
    const repeats = this.errors.reset()
    this.stopProbe()
    this.log.warn('storage writes work again', {
      reason,
      degradedSec: Math.round((this.clock.now() - since) / 1000),
      unloggedRepeats: repeats,
    })
  }

  /** Tries the probe now: true when it wrote. */
  check(): boolean {
    try {
      this.probe()
      this.ok()
      return true
    } catch (err) {
      this.fail(err)
      return false
    }
  }

  private startProbe(): void {
    if (this.probeTimer) return
    this.probeTimer = setInterval(() => this.check(), this.probeMs)
    this.probeTimer.unref?.()
  }

  private stopProbe(): void {
    clearInterval(this.probeTimer)
    this.probeTimer = undefined
  }

  close(): void {
    this.stopProbe()
  }
}

/**
 * The probe: one committed write of a row that is removed in the same transaction. It appends
 * a WAL frame, so it fails while the disk has no room for one.
 */
export const probeWrite = (db: Database) => () => {
  db.transaction(() => {
    db.run("INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES ('health:probe', 0, 0)")
    db.run("DELETE FROM rate_limits WHERE key = 'health:probe'")
  }).immediate()
}
