import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import type { CtxBase } from '../../kernel/context'
import { data, Deleted, IdParams, list, authErrors, publicErrors, withNotFound, routeDoc } from '../shared'
import { Review, ReviewCreate, ReviewCreated, ReviewListQuery, ReviewModerate } from './model'
import { deleteReview, listReviews, moderateReview, submitReview } from './service'

const doc = routeDoc('Store')
const moderate = { scope: 'reviews:write', owns: 'reviews', feature: 'reviewModeration' } as const

/** `POST /api/reviews`: no key; the gate applies the per-IP `reviews` bucket (3 per 24 h) first. */
export const publicReviewRoutes = (port: CtxBase) =>
  new Elysia({ name: 'reviews-public' }).use(access).post(
    '/api/reviews',
    ({ body, set }) => {
      set.status = 201
      return submitReview({ ctx: port, input: body })
    },
    {
      access: { public: 'reviews' },
      body: ReviewCreate,
      response: { 201: ReviewCreated, ...publicErrors },
      detail: {
        tags: ['Public'],
        summary: 'Submit a product review',
        description:
          'No key. The review starts `pending` until the store moderates it. Unknown, ' +
          'unpublished or maintenance store → 404; suspended → 402; a `productId` that is missing, ' +
          "deleted or another store's → 400 `not_found`, inactive → 400 `inactive`. Limited per client " +
          'IP (`RATE_LIMIT_REVIEWS_PER_DAY` per 24 h, 3 by default; every request counts).',
      },
    },
  )

const MODERATE = {
  access: moderate,
  params: IdParams,
  body: ReviewModerate,
  response: { 200: data(Review), ...withNotFound },
}
const moderateText =
  " Body `{ status: 'approved' | 'rejected' }`; re-moderation between the two is allowed, " +
  '`pending` → 400 `not_allowed`.'

export const reviewRoutes = new Elysia({ prefix: '/api/v1/reviews' })
  .use(access)
  .get('', ({ ctx, query }) => listReviews({ ctx, input: query }), {
    access: { scope: 'reviews:read' },
    query: ReviewListQuery,
    response: { 200: list(Review), ...authErrors },
    detail: doc('List reviews, newest first', ' Filters `status` (pending|approved|rejected) and `productId`.'),
  })
  .put(
    '/:id',
    ({ ctx, params, body }) => ({ data: moderateReview({ ctx, input: { id: params.id, status: body.status } }) }),
    {
      ...MODERATE,
      detail: doc('Moderate a review', moderateText),
    },
  )
  .put(
    '/:id/moderate',
    ({ ctx, params, body }) => ({ data: moderateReview({ ctx, input: { id: params.id, status: body.status } }) }),
    {
      ...MODERATE,
      detail: doc('Moderate a review (alias of PUT /api/v1/reviews/{id})', moderateText),
    },
  )
  .delete('/:id', ({ ctx, params }) => ({ data: deleteReview({ ctx, input: { id: params.id } }) }), {
    access: moderate,
    params: IdParams,
    response: { 200: Deleted, ...withNotFound },
    detail: doc('Delete a review (hard delete)'),
  })
