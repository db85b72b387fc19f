/** Time comes from a clock in ctx so windows can be tested without sleeping. */
export interface Clock {
  now(): number
}
export const DAY_MS = 86_400_000

export const systemClock: Clock = { now: () => Date.now() }

/** A clock tests can move. */
export function fixedClock(start = Date.UTC(2026, 0, 1)): Clock & { set(ms: number): void; advance(ms: number): void } {
  let t = start
  return { now: () => t, set: (ms) => (t = ms), advance: (ms) => (t += ms) }
}

export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : iso(ms))

/**
 * Strict ISO 8601 date or date-time; undefined when it doesn't parse or names an impossible
 * date (2026-02-30). A date-time without an offset is read as UTC, not server-local time.
 */
export function parseIso(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    value,
  )
  if (!m) return undefined
  const [, y, mo, d, h = '00', mi = '00', sec = '00', frac = '', zone = 'Z'] = m
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59)
    return undefined
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)))
  if (day.getUTCMonth() !== Number(mo) - 1) return undefined
  const offset = zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}${frac.slice(0, 4).padEnd(frac ? 4 : 0, '0')}${offset}`)
  return Number.isNaN(ms) ? undefined : ms
}

/** Runs `fn` every `ms` until stopped: setInterval in production, a hand-turned one in tests. */
export type Ticker = (fn: () => void, ms: number) => { stop(): void }

export const intervalTicker: Ticker = (fn, ms) => {
  const timer = setInterval(fn, ms)
  timer.unref?.()
  return { stop: () => clearInterval(timer) }
}

/** A ticker a test turns by hand: `tick()` runs every registered function once. */
export function manualTicker(): Ticker & { intervals: number[]; tick(): void } {
  const fns: (() => void)[] = []
  const intervals: number[] = []
  const every: Ticker = (fn, ms) => {
    fns.push(fn)
    intervals.push(ms)
    return {
      stop: () => {
        fns.splice(fns.indexOf(fn), 1)
      },
    }
  }
  return Object.assign(every, {
    intervals,
    tick: () => {
      for (const fn of [...fns]) fn()
    },
  })
}
