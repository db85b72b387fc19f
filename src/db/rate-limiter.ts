/**
 * Fixed-window rate limiter. Memory is the authority inside the one server process: a hit is a
 * synchronous Map update, so two concurrent requests can never both take the last slot. Windows
 * are written behind to the `rate_limits` table in batches, and loaded back at start, so a
 * restart does not hand every client a fresh window.
 */
import type { Db } from './client'
import { DAY_MS, type Clock } from '../lib/time'

export interface Window {
  limit: number
  remaining: number
  /** Seconds until the window resets (≥ 1). */
  resetSec: number
  /** Window length in seconds (for RateLimit-Policy). */
  windowSec: number
  allowed: boolean
  /** When the window began (epoch ms): a count given back goes to this window, not a later one. */
  windowStart: number
}

interface Entry {
  key: string
  windowStart: number
  count: number
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

/**
 * Entries live in one map per window end (`windowEnd → key → entry`). A window that has ended is
 * dropped as a whole — one Map.delete, however many clients it held — rather than key by key: a
 * 200,000-entry Map emptied one delete at a time blocked the loop ~30 ms when it was rehashed.
 * Its rows are then deleted from disk in slices, guarded by window_start so a newer window of
 * the same key is never touched.
 */
export class RateLimiter {
  private windows = new Map<number, Map<string, Entry>>()
  /** Rows loaded at start (window length unknown until the key is hit again), consumed on first hit. */
  private restored = new Map<string, Entry>()
  /** The newest window start among the restored rows: all of them have ended a day after it. */
  private restoredUntil = 0
  /**
   * Entries hit since the last write. A write takes the whole set and walks it with an iterator
   * across slices (deleting 200,000 members one by one costs what the Map deletes did).
   */
  private dirty = new Set<Entry>()
  private writing: Iterator<Entry> | undefined
  /** Ended windows whose rows are still to be deleted, each with its progress. */
  private ended: Iterator<Entry>[] = []
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
    for (const row of db.$client
      .query<{ key: string; window_start: number; count: number }, []>(
        'SELECT key, window_start, count FROM rate_limits',
      )
      .all()) {
      this.restored.set(row.key, { key: row.key, windowStart: row.window_start, count: row.count })
      this.restoredUntil = Math.max(this.restoredUntil, row.window_start + DAY_MS)
    }
    this.upsert = db.$client.prepare(
      'INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE ' +
        'SET window_start = excluded.window_start, count = excluded.count',
    )
    this.remove = db.$client.prepare('DELETE FROM rate_limits WHERE key = ?1 AND window_start = ?2')
    this.timer = setInterval(() => void this.flushSliced(), flushMs)
    this.timer.unref?.()
  }

  /** Counts one request against `key` and says whether it may proceed. */
  hit(key: string, limit: number, windowSec: number): Window {
    const now = this.clock.now()
    const windowMs = windowSec * 1000
    const windowStart = now - (now % windowMs)
    const windowEnd = windowStart + windowMs
    let w = this.windows.get(windowEnd)
    if (!w) this.windows.set(windowEnd, (w = new Map()))
    let e = w.get(key)
    if (!e) {
      e = { key, windowStart, count: 0 }
      if (this.restored.size > 0) {
        const r = this.restored.get(key)
        if (r) {
          this.restored.delete(key)
          if (r.windowStart === windowStart) e.count = r.count
        }
      }
      w.set(key, e)
    }
    e.count++
    this.dirty.add(e)
    const resetSec = Math.max(1, Math.ceil((windowEnd - now) / 1000))
    return {
      limit,
      remaining: Math.max(0, limit - e.count),
      resetSec,
      windowSec,
      allowed: e.count <= limit,
      windowStart,
    }
  }

  /**
   * Takes back one request counted by `hit` in the window that began at `windowStart` (sign-in
   * counts an attempt before the password is checked and gives it back when it was right). A
   * window that has ended since is left alone: its count no longer matters.
   */
  giveBack(key: string, windowSec: number, windowStart: number): void {
    const e = this.windows.get(windowStart + windowSec * 1000)?.get(key)
    if (!e || e.windowStart !== windowStart || e.count === 0) return
    e.count--
    this.dirty.add(e)
  }

  /**
   * The window of `key` as it stands, without counting a request: the throttle reads every tier
   * before it counts an attempt in any (modules/people/throttle.ts).
   */
  peek(key: string, limit: number, windowSec: number): Window {
    const now = this.clock.now()
    const windowMs = windowSec * 1000
    const windowStart = now - (now % windowMs)
    const windowEnd = windowStart + windowMs
    let count = this.windows.get(windowEnd)?.get(key)?.count
    if (count === undefined) {
      const r = this.restored.get(key)
      count = r && r.windowStart === windowStart ? r.count : 0
    }
    const resetSec = Math.max(1, Math.ceil((windowEnd - now) / 1000))
    return { limit, remaining: Math.max(0, limit - count), resetSec, windowSec, allowed: count < limit, windowStart }
  }

  /** Clients held in memory (for tests and the resilience report). */
  get size(): number {
    let n = this.restored.size
    for (const w of this.windows.values()) n += w.size
    return n
  }

  /** Windows changed or ended and not yet written. */
  get pending(): number {
    return this.dirty.size + (this.writing ? 1 : 0) + this.ended.length
  }

  /** Moves ended windows out of memory; their rows are queued for deletion. */
  private sweep(): void {
    const now = this.clock.now()
    for (const [end, w] of this.windows) {
      if (end > now) continue
      this.windows.delete(end)
      this.ended.push(w.values())
    }
    // Restored rows: the longest window is a day.
    if (this.restored.size > 0 && this.restoredUntil <= now) {
      this.ended.push(this.restored.values())
      this.restored = new Map()
    }
  }

  /**
   * Drops ended windows from memory, then writes changed windows and deletes ended rows, in
   * transactions of at most SLICE_MS each, yielding to the event loop in between.
   */
  async flushSliced(): Promise<void> {
    if (this.flushing) return
    this.flushing = true
    try {
      this.sweep()
      while (this.pending > 0) {
        this.writeSlice(SLICE_MS)
        if (this.pending > 0) await yieldToLoop()
      }
    } catch {
      // Busy or failing database: what is left stays queued for the next tick.
    } finally {
      this.flushing = false
    }
  }

  /** One transaction of at most ~`budgetMs`: changed windows first, then ended rows. */
  private writeSlice(budgetMs: number): void {
    const started = performance.now()
    if (!this.writing && this.dirty.size > 0) {
      this.writing = this.dirty.values()
      this.dirty = new Set()
    }
    const written: Entry[] = []
    const deleted: Entry[] = []
    const spent = (n: number) =>
      n >= MAX_ROWS_PER_TX || (n % CHECK_EVERY === 0 && performance.now() - started > budgetMs)
    const tx = this.db.$client.transaction(() => {
      let n = 0
      while (this.writing) {
        const next = this.writing.next()
        if (next.done) {
          this.writing = undefined
          break
        }
        this.upsert.run(next.value.key, next.value.windowStart, next.value.count)
        written.push(next.value)
        if (spent(++n)) return
      }
      while (this.ended.length > 0) {
        const next = this.ended[0]!.next()
        if (next.done) {
          this.ended.shift()
          continue
        }
        this.remove.run(next.value.key, next.value.windowStart)
        deleted.push(next.value)
        if (spent(++n)) return
      }
    })
    try {
      tx()
    } catch (err) {
      // Nothing of this slice was written: its entries go back in the queues.
      for (const e of written) this.dirty.add(e)
      if (deleted.length) this.ended.unshift(deleted.values())
      throw err
    }
  }

  /** Writes everything at once (shutdown: the process is about to exit, nothing else runs). */
  flush(): void {
    try {
      this.sweep()
      while (this.pending > 0) this.writeSlice(Number.POSITIVE_INFINITY)
    } catch {
      // Busy database: keep the keys for the next flush rather than lose counts.
    }
  }

  /** Drops windows older than two days (the longest window is one) from memory and disk. */
  prune(): void {
    const cutoff = this.clock.now() - DAY_MS * 2
    for (const [end, _w] of this.windows) if (end < cutoff) this.windows.delete(end)
    for (const [k, r] of this.restored) if (r.windowStart < cutoff) this.restored.delete(k)
    this.db.$client.run('DELETE FROM rate_limits WHERE window_start < ?', [cutoff])
  }

  close(): void {
    clearInterval(this.timer)
    this.flush()
  }
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))
