/**
 * Online guessing: attempts are counted per IP + e-mail and per IP, in the windows of
 * db/rate-limiter.ts. An attempt is counted BEFORE its password is checked, and given back when
 * the password was right: the check takes ~160 ms of argon2id, and a limit read before the hash
 * and counted after it let every one of 40 simultaneous guesses through. The limiter is an
 * in-memory map inside the one server process, so reading every tier and counting in all of
 * them happens in one synchronous step that no other request can interleave with.
 *
 * Once a tier is full, every attempt — a correct password included — answers 429 with
 * Retry-After until its window ends. The delays grow (15 minutes, then the hour, then the day)
 * and never lock the account itself: a stranger guessing from elsewhere uses up their own
 * windows, not the owner's.
 *
 * Bound per e-mail from one address: 10 wrong guesses per 15 minutes, 20 per hour, 30 per day —
 * however many arrive at once. Per address over all e-mails: 100 per hour.
 */
import { RateLimited } from '../../lib/errors'

export interface Window {
  allowed: boolean
  resetSec: number
  windowStart: number
}

/** The limiter's calls this needs (RateLimiter has them). */
export interface Counter {
  peek(key: string, limit: number, windowSec: number): Window
  hit(key: string, limit: number, windowSec: number): Window
  giveBack(key: string, windowSec: number, windowStart: number): void
}

export const PER_EMAIL_TIERS = [
  { limit: 10, windowSec: 15 * 60 },
  { limit: 20, windowSec: 3600 },
  { limit: 30, windowSec: 86_400 },
] as const
export const PER_IP = { limit: 100, windowSec: 3600 } as const

/** The e-mail goes into the key hashed: the rate_limits table holds no addresses. */
const keyOf = (ip: string, subject: string) => `signin:${ip}|${Bun.hash(subject.trim().toLowerCase()).toString(36)}`

function tiers(ip: string, subject: string) {
  return [
    ...PER_EMAIL_TIERS.map((t) => ({ ...t, key: `${keyOf(ip, subject)}:${t.windowSec}` })),
    { ...PER_IP, key: `signin:${ip}:${PER_IP.windowSec}` },
  ]
}

/** Seconds until the next attempt may be made, or 0 when it may be made now. */
export function waitBeforeAttempt(counter: Counter, ip: string, subject: string): number {
  let wait = 0
  for (const t of tiers(ip, subject)) {
    const w = counter.peek(t.key, t.limit, t.windowSec)
    if (!w.allowed) wait = Math.max(wait, w.resetSec)
  }
  return wait
}

export function countFailure(counter: Counter, ip: string, subject: string): void {
  for (const t of tiers(ip, subject)) counter.hit(t.key, t.limit, t.windowSec)
}

/** An attempt the throttle let through and counted (`wait` 0), or how long to wait (`wait` > 0, nothing counted). */
export interface Attempt {
  wait: number
  /** Takes the attempt back out of every tier (it succeeded, or its secret was never checked). */
  giveBack(): void
}

/** Counts an attempt in every tier before the secret is checked, unless a tier is full. */
export function takeAttempt(counter: Counter, ip: string, subject: string): Attempt {
  const wait = waitBeforeAttempt(counter, ip, subject)
  if (wait > 0) return { wait, giveBack: () => {} }
  const taken = tiers(ip, subject).map((t) => ({ t, start: counter.hit(t.key, t.limit, t.windowSec).windowStart }))
  let given = false
  return {
    wait: 0,
    giveBack() {
      if (given) return
      given = true
      for (const { t, start } of taken) counter.giveBack(t.key, t.windowSec, start)
    },
  }
}

/**
 * A throttled check of a secret (a password): counted before `check` runs, given back when it
 * says yes, or when the password queue was too busy to run it (RateLimited: `wait` is its
 * Retry-After). `wait` > 0 means the check did not run.
 */
export async function throttledCheck(
  counter: Counter,
  ip: string,
  subject: string,
  check: () => Promise<boolean>,
): Promise<{ wait: number; ok: boolean }> {
  const attempt = takeAttempt(counter, ip, subject)
  if (attempt.wait > 0) return { wait: attempt.wait, ok: false }
  let ok: boolean
  try {
    ok = await check()
  } catch (e) {
    attempt.giveBack()
    if (e instanceof RateLimited) return { wait: e.retryAfter, ok: false }
    throw e
  }
  if (ok) attempt.giveBack()
  return { wait: 0, ok }
}
