/**
 * The product page's reviews: the approved ones (a page of them, newest first), the "Write a
 * review" form, and what a form post's outcome says on the page. Views only: the reviews come
 * from `approvedReviews`, the limits from the schema `POST /api/reviews` declares, and the
 * outcome from the shop's form route (routes.ts).
 */
import { html, raw, type Html } from './html'
import { formatDate, retryText, type ReviewWords, type Words } from './i18n'
import { REVIEW_COMMENT_MAX, REVIEW_NAME_MAX } from '../modules/reviews'
import type { PublicReview } from '../modules/reviews'

/** Reviews shown per page ("More reviews" opens the next page: `?reviews=2`). */
export const REVIEWS_PER_PAGE = 10

/** One page of a product's approved reviews. `page` counts from 1; `pages` is at least 1. */
export interface ReviewsPage {
  data: PublicReview[]
  total: number
  page: number
  pages: number
}

export const NO_REVIEWS_PAGE: ReviewsPage = { data: [], total: 0, page: 1, pages: 1 }

/** What the last form post of this person came to, as the redirect after it says (routes.ts). */
export type ReviewOutcome =
  | { kind: 'thanks' }
  | { kind: 'invalid'; field: string; reason: string }
  | { kind: 'limited'; retryAfterSec: number }
  | { kind: 'failed' }

/** The fields the form shows a message next to; any other field's message goes above the form. */
export const REVIEW_FIELDS = ['customerName', 'rating', 'comment'] as const

/**
 * The form's messages by field and `details.reason` (`*`: any other reason): the page uses it for
 * a post without the script, and hands it to the script for the JSON answers of POST /api/reviews.
 */
export function reviewErrors(w: ReviewWords, locale: string): Record<string, Record<string, string>> {
  const max = (n: number) => n.toLocaleString(locale)
  return {
    customerName: {
      required: w.nameRequired,
      out_of_range: w.nameTooLong.replace('{max}', max(REVIEW_NAME_MAX)),
      '*': w.invalid,
    },
    rating: { '*': w.ratingRequired },
    comment: { out_of_range: w.reviewTooLong.replace('{max}', max(REVIEW_COMMENT_MAX)), '*': w.invalid },
    productId: { '*': w.productGone },
  }
}

/** The message for a refused field; `field` and `reason` may come from a URL, so only own keys count. */
export function reviewErrorText(
  errors: Record<string, Record<string, string>>,
  w: ReviewWords,
  field: string,
  reason: string,
): string {
  const m = Object.hasOwn(errors, field) ? errors[field]! : undefined
  if (!m) return w.failed
  return Object.hasOwn(m, reason) ? m[reason]! : m['*']!
}

/** Five stars, the first `n` filled; read as "4 out of 5". */
function stars(n: number, words: Words): Html {
  const off = html`<span class="off">${'★'.repeat(5 - n)}</span>`
  return html`<span class="stars" role="img" aria-label="${words.outOf(n)}">${'★'.repeat(n)}${off}</span>`
}

/** The approved reviews of this page, and links to the pages beside it (plain links: no script needed). */
export function reviewsSection(r: ReviewsPage, productHref: string, words: Words): Html {
  const pageHref = (n: number) => (n === 1 ? `${productHref}#reviews` : `${productHref}?reviews=${n}#reviews`)
  const review = (x: ReviewsPage['data'][number]) => {
    const date = html`<time datetime="${x.createdAt.slice(0, 10)}">${formatDate(x.createdAt, words.locale)}</time>`
    return html`<li class="review">
<p class="by">${stars(x.rating, words)} <span class="who">${x.customerName}</span> · ${date}</p>
${x.comment ? html`<p class="comment">${x.comment}</p>` : ''}
</li>`
  }
  const list = r.data.length
    ? html`<ul class="review-list">${r.data.map(review)}</ul>`
    : html`<p class="muted">${words.noReviews}</p>`
  const newer = r.page > 1 ? html`<a href="${pageHref(r.page - 1)}" rel="prev">${words.newerReviews}</a>` : ''
  const more = r.page < r.pages ? html`<a href="${pageHref(r.page + 1)}" rel="next">${words.moreReviews}</a>` : ''
  const pager =
    r.page > 1 || r.page < r.pages
      ? html`<nav class="pager" aria-label="${words.reviewPages}">${newer}${more}</nav>`
      : ''
  return html`<section class="reviews" id="reviews" aria-labelledby="reviews-h">
<h2 id="reviews-h">${words.reviewsTitle}</h2>
${list}
${pager}
</section>`
}

/**
 * "Write a review": without the script it posts form fields to the shop's form route (`action`),
 * which answers with a redirect back here carrying the outcome; the script posts the same fields
 * as JSON to POST /api/reviews instead. The fields' limits are the API's.
 */
export function reviewForm(
  o: { action: string; storeId: string; productId: string; outcome?: ReviewOutcome },
  words: Words,
): Html {
  const w = words.review
  const errors = reviewErrors(w, words.locale)
  const out = o.outcome
  const fieldErr = (field: string) =>
    out?.kind === 'invalid' && out.field === field ? reviewErrorText(errors, w, field, out.reason) : ''
  const formErr =
    out?.kind === 'limited'
      ? retryText(w, out.retryAfterSec)
      : out?.kind === 'failed'
        ? w.failed
        : out?.kind === 'invalid' && !(REVIEW_FIELDS as readonly string[]).includes(out.field)
          ? reviewErrorText(errors, w, out.field, out.reason)
          : ''
  // The field refused is marked and takes the focus when the page opens (no script needed).
  const invalid = (field: string) => (fieldErr(field) ? raw(' aria-invalid="true" autofocus') : '')
  const maxComment = REVIEW_COMMENT_MAX.toLocaleString(words.locale)
  const errOf = (field: string, id: string) =>
    html`<span class="err" id="${id}-err" data-err="${field}">${fieldErr(field)}</span>`
  const nameAttrs = html`autocomplete="name" required maxlength="${REVIEW_NAME_MAX}" aria-describedby="rv-name-err"`
  const nameInput = html`<input id="rv-name" name="customerName" ${nameAttrs}${invalid('customerName')}>`
  const ratingOption = (n: number) => {
    const radio = html`<input type="radio" name="rating" value="${n}" required${n === 1 ? invalid('rating') : ''}>`
    return html`<label class="opt">${radio} <span>${words.stars(n)}</span></label>`
  }
  const countText = w.count.replace('{max}', maxComment)
  const hintText = words.reviewHint.replace('{max}', maxComment)
  const commentHint = html`<span class="hint" id="rv-comment-hint" data-count="${countText}">${hintText}</span>`
  const described = 'rv-comment-hint rv-comment-err'
  const commentAttrs = html`rows="4" maxlength="${REVIEW_COMMENT_MAX}" aria-describedby="${described}"`
  const commentInput = html`<textarea id="rv-comment" name="comment" ${commentAttrs}${invalid('comment')}></textarea>`
  const commentErr = errOf('comment', 'rv-comment')
  const dataAttrs = html`data-review data-store="${o.storeId}" data-product="${o.productId}"`
  return html`<section class="write" id="write-review" aria-labelledby="write-h">
<h2 id="write-h">${words.writeReview}</h2>
<form class="review-form" method="post" action="${o.action}" ${dataAttrs}>
<p class="form-ok" role="status" data-review-ok>${out?.kind === 'thanks' ? w.thanks : ''}</p>
<p class="form-err" role="alert" data-review-err>${formErr}</p>
<p class="field"><label for="rv-name">${words.yourName}</label>${nameInput}${errOf('customerName', 'rv-name')}</p>
<fieldset class="rate" aria-describedby="rv-rating-err">
<legend>${words.ratingLabel}</legend>
${[1, 2, 3, 4, 5].map(ratingOption)}
${errOf('rating', 'rv-rating')}
</fieldset>
<p class="field"><label for="rv-comment">${words.reviewLabel}</label>${commentHint}${commentInput}${commentErr}</p>
<p class="vh" aria-live="polite" data-count-live></p>
<button type="submit">${words.sendReview}</button>
</form>
</section>`
}

/** The words and messages the script needs for the form (the page's data block). */
export const reviewScriptData = (words: Words) => ({
  review: { ...words.review, errors: reviewErrors(words.review, words.locale) },
})

/** schema.org `Review` items for the reviews a page shows. */
export const reviewsJsonLd = (r: ReviewsPage) =>
  r.data.map((x) => ({
    '@type': 'Review',
    author: { '@type': 'Person', name: x.customerName },
    datePublished: x.createdAt.slice(0, 10),
    ...(x.comment ? { reviewBody: x.comment } : {}),
    reviewRating: { '@type': 'Rating', ratingValue: x.rating, bestRating: 5, worstRating: 1 },
  }))
