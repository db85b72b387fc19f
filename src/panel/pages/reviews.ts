import { deleteReview, listReviews, moderateReview } from '../../modules/reviews'
import { html, type Html } from '../../shop/html'
import { can, form, layout, messagePage, type Frame } from '../views'
import type { PageReq, PageRoute } from './kit'
import type { PanelEnv } from '../env'

type ReviewRow = ReturnType<typeof listReviews>['data'][number]

function reviewItem(f: Frame, r: ReviewRow, moderate: boolean): Html {
  const w = f.w
  const controls = moderate
    ? html`<div class="actions">${
        r.status !== 'approved'
          ? form(f, `/admin/reviews/${r.id}/approve`, html`<button type="submit">${w.reviews.approve}</button>`)
          : ''
      }${
        r.status !== 'rejected'
          ? form(
              f,
              `/admin/reviews/${r.id}/reject`,
              html`<button type="submit" class="secondary">${w.reviews.reject}</button>`,
            )
          : ''
      }<a class="button secondary" href="/admin/reviews/${r.id}/delete">${w.common.delete}</a></div>`
    : ''
  const rating = html`<span>${w.reviews.rating(r.rating)}</span>`
  const status = html`<span class="badge">${w.reviews.status[r.status]}</span>`
  const head = html`<p class="order-head"><strong>${r.customerName}</strong> ${rating} ${status}</p>`
  const comment = r.comment ? html`<p>${r.comment}</p>` : ''
  return html`<li class="order">${head}<p>${r.productName}</p>${comment}${controls}</li>`
}

function reviewsPage(
  f: Frame,
  o: { rows: ReviewRow[]; moderate: boolean; upgradeUrl?: string; done?: string },
): string {
  const w = f.w
  const pending = o.rows.filter((r) => r.status === 'pending')
  const others = o.rows.filter((r) => r.status !== 'pending')
  const upgradeLink = (url: string) => html`<a class="button" href="${url}">${w.reviews.upgradeLink}</a>`
  const list = (rows: ReviewRow[]) =>
    rows.length
      ? html`<ul class="orders">${rows.map((r) => reviewItem(f, r, o.moderate))}</ul>`
      : html`<p>${w.reviews.none}</p>`
  return layout(
    f,
    w.nav.reviews,
    html`${o.done ? html`<p class="notice" role="status">${o.done}</p>` : ''}${
      o.upgradeUrl ? html`<div class="alert"><p>${w.reviews.upgrade}</p><p>${upgradeLink(o.upgradeUrl)}</p></div>` : ''
    }<h2>${w.reviews.pending}</h2>${list(pending)}<h2>${w.reviews.others}</h2>${list(others)}`,
  )
}

export function reviewPages(kit: PanelEnv): PageRoute[] {
  const { config } = kit.deps
  /** Moderation needs the paid feature and a role that writes reviews. */
  const moderates = (c: PageReq, f: Frame) => can(f, 'reviews:write') && c.ctx.store.plan !== 'free'
  const show = (c: PageReq, status: number, done?: string) =>
    kit.render(c.p, c.set, status, (f) => {
      const ctx = c.ctx
      const rows = listReviews({ ctx, input: { limit: 100, offset: 0 } }).data
      const paid = ctx.store.plan !== 'free'
      return reviewsPage(f, {
        rows,
        moderate: moderates(c, f),
        upgradeUrl: paid || !can(f, 'reviews:write') ? undefined : config.upgradeUrl,
        done,
      })
    })
  const notFound = (c: PageReq) =>
    kit.render(c.p, c.set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
  /** A moderation POST: refused on the free plan (the page shows the upgrade link instead of the buttons). */
  const act = (c: PageReq, fn: () => void) => {
    if (c.ctx.store.plan === 'free')
      return kit.render(c.p, c.set, 403, (f) => messagePage(f, f.w.nav.reviews, f.w.reviews.upgrade))
    try {
      fn()
    } catch (e) {
      if ((e as { status?: number }).status === 404) return notFound(c)
      throw e
    }
    return kit.seeOther(c.set, '/admin/reviews?done=1')
  }
  const id = (c: PageReq) => c.params.id!
  return [
    {
      method: 'get',
      path: '/admin/reviews',
      need: 'reviews:read',
      handler: (c) => show(c, 200, c.query.done ? c.w.common.saved : undefined),
    },
    {
      method: 'post',
      path: '/admin/reviews/:id/approve',
      need: 'reviews:write',
      owns: 'reviews',
      handler: (c) => act(c, () => moderateReview({ ctx: c.ctx, input: { id: id(c), status: 'approved' } })),
    },
    {
      method: 'post',
      path: '/admin/reviews/:id/reject',
      need: 'reviews:write',
      owns: 'reviews',
      handler: (c) => act(c, () => moderateReview({ ctx: c.ctx, input: { id: id(c), status: 'rejected' } })),
    },
    {
      method: 'get',
      path: '/admin/reviews/:id/delete',
      need: 'reviews:write',
      owns: 'reviews',
      handler: (c) =>
        kit.render(c.p, c.set, 200, (f) => {
          const w = f.w
          return layout(
            f,
            w.reviews.confirm,
            html`<p>${w.reviews.confirmText}</p>${form(
              f,
              `/admin/reviews/${id(c)}/delete`,
              html`<button type="submit" class="danger">${w.common.delete}</button>`,
            )}<p><a href="/admin/reviews">${w.reviews.keep}</a></p>`,
          )
        }),
    },
    {
      method: 'post',
      path: '/admin/reviews/:id/delete',
      need: 'reviews:write',
      owns: 'reviews',
      handler: (c) => act(c, () => void deleteReview({ ctx: c.ctx, input: { id: id(c) } })),
    },
  ]
}
