/**
 * What a move to `shipped` may carry: a tracking number and an `https:` link to follow the
 * parcel, both optional. They belong to shipping, so any other move that names them is refused
 * (400 at the field) rather than silently dropped.
 */
import type { OrderStatus } from '../../db/schema'
import { ValidationError } from '../../lib/errors'
import { MAX_TRACKING_NUMBER, MAX_TRACKING_URL } from './model'

export interface Tracking {
  trackingNumber: string | null
  trackingUrl: string | null
}

/** The columns the move sets ({} when it isn't to `shipped`); throws at the first field at fault. */
export function trackingOf(to: OrderStatus, number?: string, url?: string): Partial<Tracking> {
  if (to !== 'shipped') {
    for (const [field, value] of [
      ['trackingNumber', number],
      ['trackingUrl', url],
    ] as const)
      if (value !== undefined)
        throw new ValidationError(field, 'not_allowed', `'${field}' is only accepted with status 'shipped'`)
    return {}
  }
  const trackingNumber = number?.trim() || null
  if (trackingNumber !== null && [...trackingNumber].length > MAX_TRACKING_NUMBER)
    throw new ValidationError(
      'trackingNumber',
      'too_long',
      `'trackingNumber' is at most ${MAX_TRACKING_NUMBER} characters`,
    )
  const trackingUrl = url?.trim() || null
  if (trackingUrl !== null && !isHttpsUrl(trackingUrl))
    throw new ValidationError(
      'trackingUrl',
      'invalid_format',
      "'trackingUrl' must be an https: link, e.g. https://carrier.example/track/123",
    )
  if (trackingUrl !== null && trackingUrl.length > MAX_TRACKING_URL)
    throw new ValidationError('trackingUrl', 'too_long', `'trackingUrl' is at most ${MAX_TRACKING_URL} characters`)
  return { trackingNumber, trackingUrl }
}

function isHttpsUrl(text: string): boolean {
  try {
    const u = new URL(text)
    return u.protocol === 'https:' && u.hostname !== '' && u.username === '' && u.password === ''
  } catch {
    return false
  }
}
