/**
 * The no-script review form's POST, beside the store pages it answers with (routes.ts hands over
 * how a store is looked up and opened, and the page context).
 */
import type { Store } from '../modules/platform-stores'
import { productIdBySlug } from '../modules/public-catalog'
import { hitPublic, setRateHeaders } from '../http/gate'
import { readLimited } from '../http/body-limit'
import { AppError, ValidationError } from '../lib/errors'
import { clientIp, ipBucket } from '../lib/client-ip'
import { ReviewCreate, submitReview } from '../modules/reviews'
import { checkBody } from '../plugins/validation-errors'
import type { ReviewOutcome } from './review-views'
import { rendered, respond, seeOther, type Rendered } from './respond'
import { fromOwnPage, outcomeQuery, REVIEW_FORM_MAX_BYTES } from './review-form'
import type { ShopDeps } from './deps'
import { messagePage, type PageCtx } from './views'

/** A store that may be shown, or the page that says why not. */
export type Outcome = { store: Store } | { page: Rendered }

/** What the review POST uses of the store pages' lookups. */
export interface ShopSite {
  storeBySlug(slug: string): Store | undefined
  open(request: Request, slug: string): Outcome
  originOf(request: Request): string
  ctxOf(request: Request, language: string): PageCtx
}

export function reviewPoster(deps: ShopDeps, site: ShopSite) {
  const { cache, config } = deps
  const { storeBySlug, open, originOf, ctxOf } = site
  /**
   * The no-script "Write a review" form: the same verb as POST /api/reviews (submitReview), its
   * body checked against the same schema (ReviewCreate), counted in the same per-IP bucket
   * (`reviews`, 3 per 24 h across both paths). The answer is a 303 back to the product page,
   * whose URL says what came of it; a post from another site is a 403 page and counts nothing.
   */
  return async function postReview(
    request: Request,
    set: { headers: Record<string, string | number> },
    server: Parameters<typeof clientIp>[1],
    slug: string,
    productSlug: string,
  ): Promise<Response> {
    if (!fromOwnPage(request, originOf(request))) {
      cache.syncExternal()
      const known = storeBySlug(slug)
      return respond(
        request,
        set,
        rendered(403, messagePage('forbidden', ctxOf(request, known?.language ?? 'en'), known).value),
        'no-store',
      )
    }
    const w = hitPublic(deps, 'reviews', ipBucket(clientIp(request, server, config.trustProxy)))
    setRateHeaders(set.headers, w, 'reviews')
    const o = open(request, slug)
    if ('page' in o) return respond(request, set, o.page, 'no-store')
    const { store } = o
    const productId = productIdBySlug({ ctx: { db: deps.db }, input: { storeId: store.id, slug: productSlug } })
    const notFound = () =>
      respond(
        request,
        set,
        rendered(404, messagePage('notFound', ctxOf(request, store.language), store).value),
        'no-store',
      )
    if (!productId) return notFound()
    const now = deps.clock.now()
    // To the form; a refused field is focused by `autofocus` instead, which a URL fragment would cancel.
    const productPath = `/s/${encodeURIComponent(store.slug)}/p/${encodeURIComponent(productSlug)}`
    const back = (outcome: ReviewOutcome) =>
      seeOther(set, `${productPath}?${outcomeQuery(outcome, now)}${outcome.kind === 'invalid' ? '' : '#write-review'}`)
    if (!w.allowed) return back({ kind: 'limited', retryAfterSec: w.resetSec })

    let fields: { get(name: string): unknown }
    try {
      const type = request.headers.get('content-type') ?? ''
      if (Number(request.headers.get('content-length') ?? 0) > REVIEW_FORM_MAX_BYTES) return back({ kind: 'failed' })
      const bytes = request.body ? await readLimited(request.body, REVIEW_FORM_MAX_BYTES) : new Uint8Array()
      fields = type.startsWith('multipart/form-data')
        ? await new Response(bytes, { headers: { 'content-type': type } }).formData()
        : new URLSearchParams(new TextDecoder().decode(bytes))
    } catch {
      return back({ kind: 'failed' })
    }
    // Form fields are text: an empty field is one not given, a number is a number. The schema
    // and the verb decide the rest, as for the JSON route.
    const text = (name: string) => {
      const v = fields.get(name)
      return typeof v === 'string' && v.trim() ? v.replace(/\r\n?/g, '\n').trim() : undefined
    }
    const rating = text('rating')
    const input = {
      storeId: store.id,
      productId,
      customerName: text('customerName'),
      rating: rating !== undefined && Number.isFinite(Number(rating)) ? Number(rating) : rating,
      comment: text('comment'),
    }
    for (const k of ['customerName', 'rating', 'comment'] as const) if (input[k] === undefined) delete input[k]
    try {
      submitReview({ ctx: deps, input: checkBody(ReviewCreate, input) })
      return back({ kind: 'thanks' })
    } catch (e) {
      if (e instanceof ValidationError) {
        const { field, reason } = e.details as { field: string; reason: string }
        // The product left the catalog meanwhile: its page is gone too.
        return field === 'productId' ? notFound() : back({ kind: 'invalid', field, reason })
      }
      if (e instanceof AppError && (e.code === 'NOT_FOUND' || e.code === 'PAYMENT_REQUIRED')) {
        const page = open(request, slug)
        return 'page' in page ? respond(request, set, page.page, 'no-store') : notFound()
      }
      if (e instanceof AppError && e.code === 'SERVICE_UNAVAILABLE') return back({ kind: 'failed' })
      throw e
    }
  }
}
