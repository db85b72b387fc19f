/** Time comes from a clock in ctx so windows can be tested without sleeping. */
export interface Clock {
  now(): number
}
export const systemClock: Clock = { now: () => Date.now() }

/** A clock tests can move. */
export function fixedClock(start = Date.UTC(2026, 0, 1)): Clock & { set(ms: number): void; advance(ms: number): void } {
  let t = start
  return { now: () => t, set: (ms) => (t = ms), advance: (ms) => (t += ms) }
}

export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : iso(ms))

/** Strict ISO 8601 date or date-time; undefined when it doesn't parse. */
export function parseIso(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : ms
}
