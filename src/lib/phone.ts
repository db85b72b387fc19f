import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { boundedMemo } from './memo'

/**
 * Answers by the raw text, at most MEMO_SIZE of them, the oldest dropped first: parsing and
 * validating with the full metadata costs ~15 µs, about a sixteenth of an order's CPU, and a
 * shop's returning customers, a retried checkout and the inbox's searches send the same texts
 * again. A miss costs one Map look-up.
 */
const MEMO_SIZE = 4096

/**
 * Any valid number in international form → E.164; undefined when it isn't valid. With a
 * `country`, a number written the local way (no country code, a trunk 0) is read as that
 * country's: the inbox's search reads what a seller types in the store's own format.
 */
export const toE164 = boundedMemo(
  MEMO_SIZE,
  (raw: string, country?: CountryCode) => (country ? `${country}|${raw}` : raw),
  (raw: string, country?: CountryCode): string | undefined => {
    const p = parsePhoneNumberFromString(raw.trim(), country ? { defaultCountry: country } : undefined)
    return p?.isValid() ? p.number : undefined
  },
)

/**
 * The country of a number in E.164 (the store's WhatsApp number says where the store is); undefined
 * when unknown. Memoized like `toE164` (MEMO_SIZE answers): the inbox asks it of the store's number
 * on every page, and the parse was ~13 % of the inbox's handler in a profile (docs/decisions/029).
 */
export const countryOf = (e164: string | null): CountryCode | undefined => (e164 ? countryOfNumber(e164) : undefined)

const countryOfNumber = boundedMemo(
  MEMO_SIZE,
  (e164: string) => e164,
  (e164: string) => parsePhoneNumberFromString(e164)?.country,
)
