/**
 * toE164 and countryOf keep their answers by the raw text (lib/phone.ts): a text asked again, valid or not, gets
 * the answer it got the first time, and so does one asked again after more texts than the memo
 * holds pushed it out.
 */
import { expect, test } from 'bun:test'
import { countryOf, toE164 } from '../../src/lib/phone'

const cases: [string, string | undefined][] = [
  ['+14155550100', '+14155550100'],
  ['  +1 (415) 555-0101 ', '+14155550101'],
  ['+44 20 7946 0958', '+442079460958'],
  ['+1415555010', undefined],
  ['4155550100', undefined],
  ['not a phone', undefined],
  ['', undefined],
]

test('the same text gets the same answer, asked again and after the memo turned over', () => {
  for (const [raw, want] of cases) expect([raw, toE164(raw)]).toEqual([raw, want])
  for (const [raw, want] of cases) expect([raw, toE164(raw)]).toEqual([raw, want])
  for (let i = 0; i < 5000; i++) toE164(`+1415${2_000_000 + i}`)
  for (const [raw, want] of cases) expect([raw, toE164(raw)]).toEqual([raw, want])
})

test("a number's country is the same asked again and after the memo turned over; none for none or unknown", () => {
  const countries: [string | null, string | undefined][] = [
    ['+14155550100', 'US'],
    ['+442079460958', 'GB'],
    ['+5491123456789', 'AR'],
    ['+999', undefined],
    [null, undefined],
    ['', undefined],
  ]
  for (const [e164, want] of countries) expect([e164, countryOf(e164)]).toEqual([e164, want])
  for (const [e164, want] of countries) expect([e164, countryOf(e164)]).toEqual([e164, want])
  for (let i = 0; i < 5000; i++) countryOf(`+1415${2_000_000 + i}`)
  for (const [e164, want] of countries) expect([e164, countryOf(e164)]).toEqual([e164, want])
})
