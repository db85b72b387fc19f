/** Money, dates and waiting times in the store's language. */
import { dateTimeFormat, numberFormat } from '../../lib/intl'
import type { ReviewWords } from './words'

/** Money in the store's currency and language; `amount` is in major units, as the services return it. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  return numberFormat(locale, { style: 'currency', currency }).format(amount)
}

/**
 * When another review may be written, in words: "in about 5 hours", "in about an hour", "in
 * about 20 minutes". `seconds` is the limiter's reset time (Retry-After). The script rounds the
 * same way (assets/shop.js, `retryText`); a test holds the two together.
 */
export function retryText(w: ReviewWords, seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60))
  if (minutes >= 90) return w.limitHours.replace('{n}', String(Math.round(minutes / 60)))
  if (minutes >= 45) return w.limitHour
  return minutes === 1 ? w.limitMinute : w.limitMinutes.replace('{n}', String(minutes))
}

/** A day in the store's language ("March 1, 2026", "1 de marzo de 2026"), in UTC: the page is the same for everyone. */
export function formatDate(isoDate: string, locale: string): string {
  return dateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(isoDate))
}
