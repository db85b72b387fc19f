/**
 * canonicalZone keeps its answers by name, and storeDays its local midnights by zone and day
 * (lib/zone.ts): asked again, and after more than the memo holds, each gives what it gave first.
 */
import { expect, test } from 'bun:test'
import { canonicalZone, storeDays, ZONE_NAMES, zoneOffsetMs } from '../../src/lib/zone'

const cases: [string, string | undefined][] = [
  ['America/Bogota', 'America/Bogota'],
  ['america/bogota', 'America/Bogota'],
  ['UTC', 'UTC'],
  ['Europe/Lisbon', 'Europe/Lisbon'],
  ['Mars/Olympus_Mons', undefined],
  ['+05:00', undefined],
  ['', undefined],
  [`Europe/${'x'.repeat(70)}`, undefined],
]

test('the same name gets the same answer, asked again and after the memo turned over', () => {
  for (const [name, want] of cases) expect([name, canonicalZone(name)]).toEqual([name, want])
  for (const [name, want] of cases) expect([name, canonicalZone(name)]).toEqual([name, want])
  for (const z of ZONE_NAMES) canonicalZone(z)
  for (let i = 0; i < 1200; i++) canonicalZone(`Nowhere/Place_${i}`)
  for (const [name, want] of cases) expect([name, canonicalZone(name)]).toEqual([name, want])
  expect(canonicalZone('Nowhere/Place_3')).toBeUndefined()
})

test("storeDays' kept midnights equal those worked out from the offsets, again and after the memo turned over", () => {
  const DAY = 86_400_000
  const reference = (day: number, zone: string) => {
    const guess = day * DAY - zoneOffsetMs(day * DAY, zone)
    return day * DAY - zoneOffsetMs(guess, zone)
  }
  const now = Date.UTC(2026, 3, 2, 12) // Lisbon went to summer time on March 29: a 23-hour day
  for (const zone of ['Europe/Lisbon', 'America/Bogota', 'UTC']) {
    const first = storeDays(now, zone, 40)
    expect(storeDays(now, zone, 40)).toEqual(first)
    for (const d of first)
      expect([d.day, d.start, d.end]).toEqual([d.day, reference(d.day, zone), reference(d.day + 1, zone)])
    if (zone === 'Europe/Lisbon') expect(first.some((d) => d.end - d.start === 23 * 3_600_000)).toBe(true)
  }
  for (let i = 0; i < 5000; i++) storeDays(now - i * DAY, 'Asia/Tokyo', 1)
  const lisbon = 'Europe/Lisbon'
  for (const d of storeDays(now, lisbon, 40))
    expect([d.day, d.start, d.end]).toEqual([d.day, reference(d.day, lisbon), reference(d.day + 1, lisbon)])
})
