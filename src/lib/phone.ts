import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max'

/**
 * Answers by the raw text, at most MEMO_SIZE of them, the oldest dropped first: parsing and
 * validating with the full metadata costs ~15 µs, about a sixteenth of an order's CPU, and a
 * shop's returning customers, a retried checkout and the inbox's searches send the same texts
 * again. A miss costs one Map look-up.
 */
const MEMO_SIZE = 4096
const memo = new Map<string, string | null>()

/**
 * Any valid number in international form → E.164; undefined when it isn't valid. With a
 * `country`, a number written the local way (no country code, a trunk 0) is read as that
 * country's: the inbox's search reads what a seller types in the store's own format.
 */
export function toE164(raw: string, country?: CountryCode): string | undefined {
  const key = country ? `${country}|${raw}` : raw
  const known = memo.get(key)
  if (known !== undefined) return known ?? undefined
  const p = parsePhoneNumberFromString(raw.trim(), country ? { defaultCountry: country } : undefined)
  const e164 = p?.isValid() ? p.number : null
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!)
  memo.set(key, e164)
  return e164 ?? undefined
}

const countries = new Map<string, CountryCode | null>()

/**
 * The country of a number in E.164 (the store's WhatsApp number says where the store is); undefined
 * when unknown. Memoized like `toE164` (MEMO_SIZE answers): the inbox asks it of the store's number
 * on every page, and the parse was ~13 % of the inbox's handler in a profile (docs/decisions/029).
 */
export function countryOf(e164: string | null): CountryCode | undefined {
  if (!e164) return undefined
  const known = countries.get(e164)
  if (known !== undefined) return known ?? undefined
  const country = parsePhoneNumberFromString(e164)?.country ?? null
  if (countries.size >= MEMO_SIZE) countries.delete(countries.keys().next().value!)
  countries.set(e164, country)
  return country ?? undefined
}
