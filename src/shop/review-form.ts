/**
 * The no-script review form: where a post may come from, its round trip: its size bound, the page
 * number of the reviews, and its outcome written into (and read back from) the redirect's URL.
 */
import type { ReviewOutcome } from './review-views'

/** The review form's fields and a little room: anything bigger did not come from the form. */
export const REVIEW_FORM_MAX_BYTES = 64 * 1024

/** `?reviews=N`: a page number from 1; anything else is the first page. */
export function reviewPageNumber(v: unknown): number {
  return typeof v === 'string' && /^[1-9]\d{0,5}$/.test(v) ? Number(v) : 1
}

/**
 * A form post's outcome as the redirect after it wrote it into the URL (`?review=…`). `until`
 * is the second the per-IP limit lets the person write again, so a reload still says the truth.
 */
export function outcomeOf(q: Record<string, string | undefined>, now: number): ReviewOutcome | undefined {
  switch (q.review) {
    case 'thanks':
      return { kind: 'thanks' }
    case 'invalid':
      return { kind: 'invalid', field: String(q.field ?? '').slice(0, 40), reason: String(q.reason ?? '').slice(0, 40) }
    case 'limited': {
      const until = Number(q.until)
      return {
        kind: 'limited',
        retryAfterSec: Number.isFinite(until) ? Math.max(1, Math.min(86_400, Math.ceil(until - now / 1000))) : 86_400,
      }
    }
    case 'failed':
      return { kind: 'failed' }
    default:
      return undefined
  }
}

/** The redirect's query for an outcome. */
export function outcomeQuery(o: ReviewOutcome, now: number): string {
  switch (o.kind) {
    case 'invalid':
      return `review=invalid&field=${encodeURIComponent(o.field)}&reason=${encodeURIComponent(o.reason)}`
    case 'limited':
      return `review=limited&until=${Math.ceil(now / 1000) + o.retryAfterSec}`
    default:
      return `review=${o.kind}`
  }
}

/**
 * A form post from this shop's own pages: `Sec-Fetch-Site: same-origin`, or, from a browser
 * that doesn't send it, an `Origin` that is ours. Anything else (another site's form, no
 * header at all) is refused: a page elsewhere must not post in a visitor's name.
 */
export function fromOwnPage(request: Request, ownOrigin: string): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site !== null) return site === 'same-origin'
  const origin = request.headers.get('origin')
  if (!origin) return false
  try {
    return new URL(origin).origin === new URL(ownOrigin).origin
  } catch {
    return false
  }
}
