/**
 * Money is integer minor units inside and a JSON number in major units at the API edge.
 * The number of minor digits comes from ISO 4217 via Intl (JPY 0, USD 2, KWD 3).
 */
import { ValidationError } from './errors'

const digitsCache = new Map<string, number>()

export function minorDigits(currency: string): number {
  let d = digitsCache.get(currency)
  if (d === undefined) {
    d = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
    digitsCache.set(currency, d)
  }
  return d
}

const SUPPORTED = new Set(Intl.supportedValuesOf('currency'))
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && SUPPORTED.has(code)
}

/** Major-unit number from the API → minor units. More decimals than the currency has → 400. */
export function toMinor(amount: number, currency: string, field: string): number {
  const factor = 10 ** minorDigits(currency)
  const scaled = amount * factor
  const rounded = Math.round(scaled)
  // Parsing a decimal and scaling it are each off by at most half an ulp, so a genuine
  // two-decimal price such as 19.99 (1998.9999999999998 after scaling) lands within a few ulps
  // of an integer; a third decimal (12345.678 USD) lands ≥ 0.1 away, however large the amount.
  const tolerance = Math.max(1e-9, Math.abs(scaled) * 1e-15)
  if (!Number.isFinite(scaled) || Math.abs(scaled - rounded) > tolerance) {
    throw new ValidationError(field, 'invalid_format', `'${field}' has more decimals than ${currency} allows`)
  }
  if (!Number.isSafeInteger(rounded)) throw new ValidationError(field, 'out_of_range')
  return rounded
}

export function toMajor(minor: number, currency: string): number {
  return minor / 10 ** minorDigits(currency)
}

export function toMajorOrNull(minor: number | null, currency: string): number | null {
  return minor === null ? null : toMajor(minor, currency)
}

/** Rounds half up (away from zero for positives) — used for percentage discounts. */
export function percentOf(minor: number, hundredthsOfPercent: number): number {
  // Integer arithmetic: minor * bp / 10000, rounded half up.
  return Math.floor((minor * hundredthsOfPercent + 5000) / 10000)
}
