/**
 * The store's clock: an IANA time zone name (default UTC) that every date a seller or customer
 * reads is shown in, and that decides which day an order belongs to.
 */
import { dateTimeFormat } from './intl'
import { boundedMemo } from './memo'

/**
 * Names asked before, with their answers (null: unknown): building a formatter to ask costs ~40 µs,
 * and the dashboard's 30 store days asked it ~120 times a page, ~75 % of the page's CPU
 * (docs/decisions/029). The runtime's zone data does not change while it runs. At most MAX_NAMES
 * (the runtime knows ~420 zones), then it starts over.
 */
const MAX_NAMES = 1024
const canonical = boundedMemo(
  MAX_NAMES,
  (name: string) => name,
  (name: string): string | undefined => {
    try {
      return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone
    } catch {
      return undefined
    }
  },
)

/**
 * An IANA time zone name as the runtime's zone data spells it ("america/bogota" →
 * "America/Bogota"); undefined for a name it doesn't know. Offsets ("+05:00") are refused: a
 * store's clock follows its place's daylight-saving rules, which an offset doesn't carry.
 */
export function canonicalZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name) || name.length > 64) return undefined
  return canonical(name)
}

/** Every zone name the runtime knows, for the settings form's suggestions. */
export const ZONE_NAMES: readonly string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')]

/** A stored zone that the runtime no longer knows reads as UTC rather than failing a page. */
const safeZone = (zone: string) => canonicalZone(zone) ?? 'UTC'

/** Formatted minutes per (locale, zone): lists show the same recent times request after request. */
const formatted = new Map<string, string>()

/**
 * A date and time in `locale`, on the store's clock, with the zone's short name ("Mar 1, 2026,
 * 10:27 AM GMT-5"), so a reader in another zone knows which clock it is.
 */
export function dateTimeIn(ms: number, locale: string, zone: string): string {
  const key = `${locale}|${zone}|${Math.floor(ms / 60_000)}`
  const known = formatted.get(key)
  if (known !== undefined) return known
  const f = dateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: safeZone(zone),
  })
  const name = dateTimeFormat(locale, { timeZone: safeZone(zone), timeZoneName: 'short' })
  const zoneName = name.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? zone
  if (formatted.size >= 5000) formatted.clear()
  const text = `${f.format(ms)} ${zoneName}`
  formatted.set(key, text)
  return text
}

/** A day ("Mar 1") in `locale` on the store's clock. */
export const dayIn = (
  ms: number,
  locale: string,
  zone: string,
  style: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' },
) => dateTimeFormat(locale, { ...style, timeZone: safeZone(zone) }).format(ms)

/** How far the zone's clock is ahead of UTC at the instant `ms` (negative west of Greenwich). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const parts = dateTimeFormat('en-US', {
    timeZone: safeZone(zone),
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms)
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value)
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'))
  return local - Math.floor(ms / 1000) * 1000
}

const DAY = 86_400_000

/**
 * A local date's midnight (the UTC instant of that wall time, corrected by the offset in force
 * then), by (zone, day number). It never moves: kept, the dashboard's 30 days cost one offset a
 * page, not ~120. At most 4,096 (a few KB per store zone).
 */
const midnightOf = boundedMemo(
  4096,
  (zone: string, day: number) => `${zone}|${day}`,
  (zone: string, day: number) => {
    const guess = day * DAY - zoneOffsetMs(day * DAY, zone)
    return day * DAY - zoneOffsetMs(guess, zone)
  },
)

/**
 * The store's last `n` days up to the one `now` falls on, oldest first: each as its local date's
 * day number (days since 1970-01-01 of the date the store's clock shows, so `day × 86 400 000`
 * formatted in UTC names that date) and the instants it starts and ends. A day across a
 * daylight-saving change is 23 or 25 hours long.
 */
export function storeDays(now: number, zone: string, n: number): { day: number; start: number; end: number }[] {
  const today = Math.floor((now + zoneOffsetMs(now, zone)) / DAY)
  const midnight = (day: number) => midnightOf(zone, day)
  return Array.from({ length: n }, (_, i) => {
    const day = today - n + 1 + i
    return { day, start: midnight(day), end: midnight(day + 1) }
  })
}
