import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { data, Deleted, IdParams, list, authErrors, publicErrors, withNotFound, keyRouteDoc } from '../shared/model'
import { Review, ReviewCreate, ReviewCreated, ReviewListQuery, ReviewModerate } from './model'
import { deleteReview, listReviews, moderateReview, submitReview } from './service'

const doc = keyRouteDoc('Store')

/** `POST /api/reviews`: no key; the gate applies the per-IP `reviews` bucket (3 per 24 h) first. */
export const publicReviewRoutes = (deps: Deps) =>
  new Elysia({ name: 'reviews-public' }).post(
    '/api/reviews',
    ({ body, set }) => {
      set.status = 201
      return submitReview(deps, body)
    },
    {
      body: ReviewCreate,
      response: { 201: ReviewCreated, ...publicErrors },
      detail: {
        tags: ['Public'],
        summary: 'Submit a product review',
        description: `No key. The review starts \`pending\` until the store moderates it. Unknown, unpublished or maintenance store → 404; suspended → 402; a \`productId\` that is missing, deleted or another store's → 400 \`not_found\`, inactive → 400 \`inactive\`. Limited per client IP (${deps.config.rateLimitReviews} per 24 h; every request counts).`,
      },
    },
  )

const MODERATE = {
  params: IdParams,
  body: ReviewModerate,
  response: { 200: data(Review), ...withNotFound },
}
const moderateText = " Body `{ status: 'approved' | 'rejected' }`; re-moderation between the two is allowed, `pending` → 400 `not_allowed`. Needs a Pro or Lifetime plan (feature `reviewModeration`)."

export const reviewRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/reviews' })
    .use(authed(deps))
    .get('', ({ auth, query }) => listReviews(ctxFor(deps, auth.store), query), {
      query: ReviewListQuery,
      response: { 200: list(Review), ...authErrors },
      detail: doc('List reviews, newest first', 'reviews:read', ' Filters `status` (pending|approved|rejected) and `productId`.'),
    })
    .put('/:id', ({ auth, params, body }) => ({ data: moderateReview(ctxFor(deps, auth.store), params.id, body.status) }), {
      ...MODERATE,
      detail: doc('Moderate a review', 'reviews:write', moderateText),
    })
    .put('/:id/moderate', ({ auth, params, body }) => ({ data: moderateReview(ctxFor(deps, auth.store), params.id, body.status) }), {
      ...MODERATE,
      detail: doc('Moderate a review (alias of PUT /api/v1/reviews/{id})', 'reviews:write', moderateText),
    })
    .delete('/:id', ({ auth, params }) => ({ data: deleteReview(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Delete a review (hard delete)', 'reviews:write', ' Needs a Pro or Lifetime plan (feature `reviewModeration`).'),
    })
