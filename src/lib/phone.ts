import { parsePhoneNumberFromString } from 'libphonenumber-js/max'

/** Any valid number in international form → E.164; undefined when it isn't valid. */
export function toE164(raw: string): string | undefined {
  const p = parsePhoneNumberFromString(raw.trim())
  return p && p.isValid() ? p.number : undefined
}
