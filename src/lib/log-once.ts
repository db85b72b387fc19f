/**
 * A repeating error logged once a minute with how often it happened, not once per occurrence:
 * a full disk under load once wrote thousands of stack traces a second, and the webhook
 * dispatcher fails every tick while the disk is full. The first occurrence of a key is logged
 * at once (`count: 1`); repeats within the minute are only counted; the first repeat after it
 * is logged with the count since the last line.
 */
import type { Logger } from './log'
import type { Clock } from './time'

const EVERY_MS = 60_000
/** Distinct keys remembered; past this the oldest are forgotten (a stream of unique errors must not grow memory). */
const MAX_KEYS = 1000

interface Seen {
  /** Occurrences not yet logged. */
  count: number
  loggedAt: number
}

export class LogOnce {
  private seen = new Map<string, Seen>()

  constructor(
    private log: Logger,
    private clock: Clock,
    private everyMs = EVERY_MS,
  ) {}

  /** Logs `msg` at `level` unless `key` was logged less than a minute ago. True when it logged. */
  at(level: 'warn' | 'error', key: string, msg: string, fields: Record<string, unknown> = {}): boolean {
    const now = this.clock.now()
    const s = this.seen.get(key)
    if (!s) {
      if (this.seen.size >= MAX_KEYS) this.seen.delete(this.seen.keys().next().value!)
      this.seen.set(key, { count: 0, loggedAt: now })
      this.log[level](msg, { ...fields, count: 1 })
      return true
    }
    s.count++
    if (now - s.loggedAt < this.everyMs) return false
    this.log[level](msg, { ...fields, count: s.count, sinceLastLogSec: Math.round((now - s.loggedAt) / 1000) })
    s.count = 0
    s.loggedAt = now
    return true
  }

  error(key: string, msg: string, fields?: Record<string, unknown>): boolean {
    return this.at('error', key, msg, fields)
  }

  warn(key: string, msg: string, fields?: Record<string, unknown>): boolean {
    return this.at('warn', key, msg, fields)
  }

  /** Forgets every key (the condition is over); returns the occurrences that were never logged. */
  reset(): number {
    let unlogged = 0
    for (const s of this.seen.values()) unlogged += s.count
    this.seen.clear()
    return unlogged
  }
}
