/**
 * Fixed-window rate limiter. Memory is the authority inside the one server process: a hit is a
 * synchronous Map update, so two concurrent requests can never both take the last slot. Windows
 * are written behind to the `rate_limits` table in batches, and loaded back at start, so a
 * restart does not hand every client a fresh window.
 */
import type { Db } from '../db/client'
import { DAY_MS, type Clock } from '../lib/time'

export interface Window {
  limit: number
  remaining: number
  /** Seconds until the window resets (≥ 1). */
  resetSec: number
  /** Window length in seconds (for RateLimit-Policy). */
  windowSec: number
  allowed: boolean
}

interface Entry {
  windowStart: number
  count: number
  /** When the window ends: then the entry is dropped (memory) and its row deleted (disk). */
  endsAt: number
}

/**
 * Flushing and sweeping run in slices of at most this long, then yield to the event loop: with
 * 200,000 clients one synchronous flush blocked requests for ~455 ms (contract: ~20 ms at most).
 */
export const SLICE_MS = 4
/** Rows written or deleted between two clock reads (a read costs more than a row's bookkeeping). */
const CHECK_EVERY = 16
/**
 * Rows per transaction at most, whatever the clock says: the COMMIT writes every page the slice
 * dirtied (and may run a WAL checkpoint), which the budget above cannot see coming.
 */
const MAX_ROWS_PER_TX = 512

export class RateLimiter {
  private entries = new Map<string, Entry>()
  private dirty = new Set<string>()
  /** Keys whose window ended: their rows are deleted by the next flush. */
  private ended = new Set<string>()
  private timer: ReturnType<typeof setInterval> | undefined
  private upsert
  private remove
  /** True while a sliced flush is in progress (the next tick must not start a second one). */
  private flushing = false

  constructor(
    private db: Db,
    private clock: Clock,
    flushMs: number,
  ) {
    for (const row of db.$client.query<{ key: string; window_start: number; count: number }, []>('SELECT key, window_start, count FROM rate_limits').all()) {
      // The window length is not stored; a day (the longest window) bounds it until its next hit.
      this.entries.set(row.key, { windowStart: row.window_start, count: row.count, endsAt: row.window_start + DAY_MS })
    }
    this.upsert = db.$client.prepare(
      'INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET window_start = excluded.window_start, count = excluded.count',
    )
    this.remove = db.$client.prepare('DELETE FROM rate_limits WHERE key = ?1')
    this.timer = setInterval(() => void this.flushSliced(), flushMs)
    this.timer.unref?.()
  }

  /** Counts one request against `key` and says whether it may proceed. */
  hit(key: string, limit: number, windowSec: number): Window {
    const now = this.clock.now()
    const windowMs = windowSec * 1000
    const windowStart = now - (now % windowMs)
    let e = this.entries.get(key)
    if (!e || e.windowStart !== windowStart) {
      e = { windowStart, count: 0, endsAt: windowStart + windowMs }
      this.entries.set(key, e)
      this.ended.delete(key)
    }
    e.count++
    this.dirty.add(key)
    const resetSec = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))
    return { limit, remaining: Math.max(0, limit - e.count), resetSec, windowSec, allowed: e.count <= limit }
  }

  /** Number of clients held in memory (for tests and the resilience report). */
  get size(): number {
    return this.entries.size
  }

  /** Windows changed or ended and not yet written. */
  get pending(): number {
    return this.dirty.size + this.ended.size
  }

  /**
   * Drops ended windows from memory, then writes changed windows and deletes ended rows, in
   * transactions of at most SLICE_MS each, yielding to the event loop in between.
   */
  async flushSliced(): Promise<void> {
    if (this.flushing) return
    this.flushing = true
    try {
      await this.sweep()
      while (this.dirty.size > 0 || this.ended.size > 0) {
        this.writeSlice(SLICE_MS)
        if (this.dirty.size > 0 || this.ended.size > 0) await yieldToLoop()
      }
    } catch {
      // Busy or failing database: what is left stays queued for the next tick.
    } finally {
      this.flushing = false
    }
  }

  /** Forgets windows that have ended, in slices; their rows are queued for deletion. */
  private async sweep(): Promise<void> {
    const now = this.clock.now()
    let started = performance.now()
    let n = 0
    for (const [k, e] of this.entries) {
      if (e.endsAt <= now) {
        this.entries.delete(k)
        this.dirty.delete(k)
        this.ended.add(k)
      }
      if (++n % CHECK_EVERY === 0 && performance.now() - started > SLICE_MS) {
        await yieldToLoop()
        started = performance.now()
      }
    }
  }

  /** One transaction of at most ~`budgetMs`: changed windows first, then ended rows. */
  private writeSlice(budgetMs: number): void {
    const started = performance.now()
    const written: string[] = []
    const removed: string[] = []
    const tx = this.db.$client.transaction(() => {
      let n = 0
      for (const key of this.dirty) {
        const e = this.entries.get(key)
        if (e) this.upsert.run(key, e.windowStart, e.count)
        written.push(key)
        if (++n >= MAX_ROWS_PER_TX || (n % CHECK_EVERY === 0 && performance.now() - started > budgetMs)) return
      }
      for (const key of this.ended) {
        this.remove.run(key)
        removed.push(key)
        if (++n >= MAX_ROWS_PER_TX || (n % CHECK_EVERY === 0 && performance.now() - started > budgetMs)) return
      }
    })
    tx()
    // Only after the commit: a failed transaction leaves every key queued.
    for (const k of written) this.dirty.delete(k)
    for (const k of removed) this.ended.delete(k)
  }

  /** Writes everything at once (shutdown: the process is about to exit, nothing else runs). */
  flush(): void {
    try {
      while (this.dirty.size > 0 || this.ended.size > 0) this.writeSlice(Number.POSITIVE_INFINITY)
    } catch {
      // Busy database: keep the keys for the next flush rather than lose counts.
    }
  }

  /** Drops windows older than two days (the longest window is one) from memory and disk. */
  prune(): void {
    const cutoff = this.clock.now() - DAY_MS * 2
    for (const [k, e] of this.entries) if (e.windowStart < cutoff) this.entries.delete(k)
    this.db.$client.run('DELETE FROM rate_limits WHERE window_start < ?', [cutoff])
  }

  close(): void {
    clearInterval(this.timer)
    this.flush()
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))
