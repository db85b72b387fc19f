/**
 * toE164 keeps its answers by the raw text (lib/phone.ts): a text asked again, valid or not, gets
 * the answer it got the first time, and so does one asked again after more texts than the memo
 * holds pushed it out.
 */
import { expect, test } from 'bun:test'
import { toE164 } from '../../src/lib/phone'

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
