/**
 * What happens to a delivery after a failed attempt: retried later, or failed for good, and
 * whether its endpoint is disabled. Pure: the clock's reading and the random source come in as
 * arguments (like PressureSignal in governor.ts), so every branch is testable without sleeping.
 */
import { DAY_MS, iso } from '../../lib/time'

/** A Retry-After can push a retry at most this far out. */
export const MAX_RETRY_AFTER_MS = DAY_MS

export interface FailedAttempt {
  /** Attempts made so far, this one included. */
  attempts: number
  /** From a 429/503's Retry-After. */
  retryAfterMs?: number
  /** 410 Gone. */
  gone?: boolean
}

export interface RetryRules {
  /** Seconds to wait after the 1st, 2nd, … failed attempt (WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[]
  /** An endpoint failing without a success for this long is disabled. */
  disableAfterDays: number
}

export type Verdict =
  | { status: 'pending'; nextAttemptAt: number; disabledReason?: undefined }
  | { status: 'failed'; nextAttemptAt: null; disabledReason?: string }

/**
 * `failingSince`: start of the endpoint's current run of failures (this attempt's time when it
 * starts one). `random()` returns [0, 1), as Math.random does.
 */
export function afterFailure(
  a: FailedAttempt,
  rules: RetryRules,
  failingSince: number,
  now: number,
  random: () => number,
): Verdict {
  let disabledReason: string | undefined
  if (a.gone) disabledReason = 'Endpoint answered 410 Gone'
  else if (now - failingSince >= rules.disableAfterDays * DAY_MS) {
    disabledReason = `Every delivery failed since ${iso(failingSince)} (${rules.disableAfterDays} days)`
  }
  if (disabledReason || a.attempts > rules.schedule.length)
    return { status: 'failed', nextAttemptAt: null, disabledReason }
  const base = rules.schedule[a.attempts - 1]! * 1000
  // ±10 % jitter spreads retries of a burst; Retry-After (429/503) can only push the retry
  // later than the schedule, never sooner, and at most 24 h out.
  let delay = Math.round(base * (0.9 + random() * 0.2))
  if (a.retryAfterMs !== undefined) delay = Math.max(delay, Math.min(a.retryAfterMs, MAX_RETRY_AFTER_MS))
  return { status: 'pending', nextAttemptAt: now + delay }
}

/** Retry-After: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined
  const v = value.trim()
  if (/^\d+$/.test(v)) return Number(v) * 1000
  const at = Date.parse(v)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}
