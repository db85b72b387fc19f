/**
 * What a push service's answer leads to. Pure. 2xx: delivered. 404/410: the browser
 * unsubscribed (or the subscription expired): the device is forgotten. 429, 5xx and no answer:
 * again later, after the backoff or the service's Retry-After, whichever is later, until the
 * push's day is over. Any other refusal (400 a malformed push, 403 a VAPID key the subscription
 * was not made with, 413 too large) will not change by retrying: dropped, and logged.
 */
import type { SendResult } from '../webhooks'

/** Seconds before each retry: quick at first, then at most every two hours. */
export const BACKOFF_SECONDS = [5, 30, 120, 600, 1800, 3600, 7200]

export type Outcome =
  | { kind: 'delivered' }
  | { kind: 'gone' }
  | { kind: 'retry'; at: number }
  | { kind: 'drop'; reason: string }

export function outcomeOf(
  result: SendResult,
  row: { attempts: number; expiresAt: number },
  now: number,
  random: () => number = Math.random,
): Outcome {
  if (result.kind === 'ok') return { kind: 'delivered' }
  if (result.code === 404 || result.code === 410) return { kind: 'gone' }
  const transient = result.code === null || result.code === 429 || result.code >= 500
  if (!transient) return { kind: 'drop', reason: result.error }
  const base = BACKOFF_SECONDS[Math.min(row.attempts, BACKOFF_SECONDS.length - 1)]! * 1000
  // ±10 % so many devices refused at once don't all come back at once.
  const backoff = Math.round(base * (0.9 + 0.2 * random()))
  const at = now + Math.max(backoff, result.retryAfterMs ?? 0)
  if (at >= row.expiresAt) return { kind: 'drop', reason: `still failing after a day: ${result.error}` }
  return { kind: 'retry', at }
}
