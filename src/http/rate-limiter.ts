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
}

export class RateLimiter {
  private entries = new Map<string, Entry>()
  private dirty = new Set<string>()
  private timer: ReturnType<typeof setInterval> | undefined
  private upsert

  constructor(
    private db: Db,
    private clock: Clock,
    flushMs: number,
  ) {
    for (const row of db.$client.query<{ key: string; window_start: number; count: number }, []>('SELECT key, window_start, count FROM rate_limits').all()) {
      this.entries.set(row.key, { windowStart: row.window_start, count: row.count })
    }
    this.upsert = db.$client.prepare(
      'INSERT INTO rate_limits (key, window_start, count) VALUES (?1, ?2, ?3) ON CONFLICT(key) DO UPDATE SET window_start = excluded.window_start, count = excluded.count',
    )
    this.timer = setInterval(() => this.flush(), flushMs)
    this.timer.unref?.()
  }

  /** Counts one request against `key` and says whether it may proceed. */
  hit(key: string, limit: number, windowSec: number): Window {
    const now = this.clock.now()
    const windowMs = windowSec * 1000
    const windowStart = now - (now % windowMs)
    let e = this.entries.get(key)
    if (!e || e.windowStart !== windowStart) {
      e = { windowStart, count: 0 }
      this.entries.set(key, e)
    }
    e.count++
    this.dirty.add(key)
    const resetSec = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000))
    return { limit, remaining: Math.max(0, limit - e.count), resetSec, windowSec, allowed: e.count <= limit }
  }

  /** Writes changed windows in one transaction and forgets windows that have ended. */
  flush(): void {
    if (this.dirty.size === 0) return
    const keys = [...this.dirty]
    this.dirty.clear()
    const tx = this.db.$client.transaction(() => {
      for (const key of keys) {
        const e = this.entries.get(key)
        if (e) this.upsert.run(key, e.windowStart, e.count)
      }
    })
    try {
      tx()
    } catch {
      // Busy database: keep the keys for the next flush rather than lose counts.
      for (const k of keys) this.dirty.add(k)
    }
  }

  /** Drops windows older than a day (the longest window) from memory and disk. */
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
