/**
 * Online guessing: failures are counted per IP + e-mail and per IP, in the
 * SQLite-backed windows of db/rate-limiter.ts. Once a tier is full, every attempt — a correct
 * password included — answers 429 with Retry-After until its window ends. The delays grow
 * (15 minutes, then the hour, then the day) and never lock the account itself: a stranger
 * guessing from elsewhere uses up their own windows, not the owner's.
 *
 * Bound per e-mail from one address: 10 guesses per 15 minutes, 20 per hour, 30 per day.
 * Per address over all e-mails: 100 per hour.
 */
export interface Window {
  allowed: boolean
  resetSec: number
}

/** The limiter's two calls this needs (RateLimiter has them). */
export interface Counter {
  peek(key: string, limit: number, windowSec: number): Window
  hit(key: string, limit: number, windowSec: number): Window
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
