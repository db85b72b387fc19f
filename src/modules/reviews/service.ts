import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import { pendingReviewCount } from './sql'
import { ctxFor, type Ctx, type CtxBase } from '../../kernel/context'
import type { Runner } from '../../db/client'
import { products, reviews, type Review, type ReviewStatus } from '../../db/schema'
import { NotFound, OtherStore, ValidationError } from '../../lib/errors'
import { iso } from '../../lib/time'
import { page } from '../shared'
import { owned } from '../shared'
import { write } from '../../kernel/write'
import { storeForPublic } from '../platform-stores'
import type { ReviewCreate, ReviewListQuery } from './model'

export function reviewView(r: Review, productName: string) {
  return {
    id: r.id,
    productId: r.productId,
    productName,
    customerName: r.customerName,
    rating: r.rating,
    comment: r.comment,
    status: r.status,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }
}

// A review write drops its store's cached reads (the product pages show approved reviews, the
// public read their count and average) but changes no product (`fx.productsChanged([])`): the
// cached product fragments, which hold no review figures, stay.

const withProduct = (db: Runner) =>
  db
    .select({ review: reviews, productName: products.name })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))

/**
 * Public review submission. Order of checks: the per-IP limit and schema ran before;
 * here 402 suspended → 404 unknown/unpublished store → 400 `productId`. The review and its
 * `review.created` outbox rows commit together.
 */
export function submitReview({ ctx: base, input }: { ctx: CtxBase; input: ReviewCreate }): {
  id: string
  status: 'pending'
} {
  const store = storeForPublic({ ctx: base, input: { storeId: input.storeId } })
  const ctx = ctxFor(base, store, { kind: 'public' })
  const now = ctx.clock.now()
  const id = write(ctx, (tx, fx) => {
    const p = tx.select().from(products).where(eq(products.id, input.productId)).get()
    if (!p || p.storeId !== store.id || p.deletedAt !== null) {
      throw new ValidationError('productId', 'not_found', 'productId does not name a product of this store')
    }
    if (!p.isActive) throw new ValidationError('productId', 'inactive', 'This product is not active')
    const row = tx
      .insert(reviews)
      .values({
        storeId: store.id,
        productId: p.id,
        customerName: input.customerName,
        rating: input.rating,
        comment: input.comment ?? null,
        status: 'pending',
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get()
    fx.emit('review.created', reviewView(row, p.name))
    fx.productsChanged([])
    return row.id
  })
  return { id, status: 'pending' }
}

export function listReviews({ ctx, input: q }: { ctx: Ctx; input: ReviewListQuery }) {
  const { limit, offset } = page(q)
  const where: SQL[] = [eq(reviews.storeId, ctx.store.id)]
  if (q.status) where.push(eq(reviews.status, q.status))
  if (q.productId) where.push(eq(reviews.productId, q.productId))
  const cond = and(...where)
  const rows = withProduct(ctx.db)
    .where(cond)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit)
    .offset(offset)
    .all()
  const total = ctx.db.select({ n: count() }).from(reviews).where(cond).get()!.n
  return { data: rows.map((r) => reviewView(r.review, r.productName)), total, limit, offset }
}

function findReview(db: Runner, id: string) {
  return withProduct(db).where(eq(reviews.id, id)).get()
}

/** The store's review: 404 when missing, 403 when another store's. */
export function ownReview(ctx: Ctx, id: string) {
  const row = findReview(ctx.db, id)
  owned(ctx, row?.review, 'Review')
  return row!
}

/**
 * Approve or reject. Re-moderation between approved and rejected is allowed; `pending` can't be
 * set back (400). Checks keep the documented order: another store's review 403 → 400 → 404.
 */
export function moderateReview({
  ctx,
  input: { id, status },
}: {
  ctx: Ctx
  input: { id: string; status: ReviewStatus }
}) {
  const now = ctx.clock.now()
  const row = write(ctx, (tx, fx) => {
    const found = findReview(tx, id)
    if (found && found.review.storeId !== ctx.store.id) throw new OtherStore('review')
    if (status === 'pending')
      throw new ValidationError(
        'status',
        'not_allowed',
        "A review can be set to 'approved' or 'rejected', not back to 'pending'",
      )
    if (!found) throw new NotFound('Review')
    tx.update(reviews).set({ status, updatedAt: now }).where(eq(reviews.id, id)).run()
    fx.productsChanged([])
    return { ...found, review: { ...found.review, status, updatedAt: now } }
  })
  return reviewView(row.review, row.productName)
}

/** Hard delete. */
export function deleteReview({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  write(ctx, (tx, fx) => {
    ownReview(ctx, id)
    tx.delete(reviews).where(eq(reviews.id, id)).run()
    fx.productsChanged([])
  })
  return { id, deleted: true as const }
}

/** A review as the storefront shows it: no status (only approved ones are shown), no product. */
export interface PublicReview {
  id: string
  customerName: string
  rating: number
  comment: string | null
  createdAt: string
}

/**
 * One page of a product's approved reviews, newest first, and how many there are: what the
 * product page lists. Pending and rejected reviews are never read here.
 */
export function approvedReviews({
  ctx: { db },
  input: { storeId, productId, ...q },
}: {
  ctx: { db: Runner }
  input: { storeId: string; productId: string; limit: number; offset: number }
}): { data: PublicReview[]; total: number } {
  const cond = and(eq(reviews.storeId, storeId), eq(reviews.productId, productId), eq(reviews.status, 'approved'))
  const rows = db
    .select({
      id: reviews.id,
      customerName: reviews.customerName,
      rating: reviews.rating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(cond)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(q.limit)
    .offset(q.offset)
    .all()
  const total = db.select({ n: count() }).from(reviews).where(cond).get()!.n
  return { data: rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) })), total }
}

/** Reviews of the store waiting for moderation (the panel's Reviews link shows the count); one indexed count. */
export function countPendingReviews({ ctx }: { ctx: Pick<Ctx, 'db' | 'store'> }): number {
  return pendingReviewCount(ctx.db.$client, ctx.store.id)
}
