/**
 * What a panel page needs to answer (the shell's routes.ts builds its frames here too): the request's panel context, the frame a view renders in,
 * and the page / redirect Responses with the panel's headers (CSP, no-store, same-origin referrer).
 */
import type { PanelRequest } from '../gate'
import { panelAssets, type PanelAssets } from '../assets'
import type { Frame } from '../views'
import { roleHas } from '../../modules/people'
import { countPendingReviews } from '../../modules/reviews'
import { unseenOrders } from '../../modules/orders'

import { field, finish, page, PANEL_CSP, seeOther, type ResponseSet } from '../respond'
import type { PanelCall, StorePerson } from '../route'
import type { Ctx } from '../../kernel/context'

export { field, finish, PANEL_CSP, seeOther }

export type Set = ResponseSet
/** A store page's call from the route builder (route.ts): its person works in the store. */
export type Handler = PanelCall<Record<string, string>, StorePerson, Ctx>

let loaded: PanelAssets | undefined
const assets = () => loaded ?? panelAssets().then((a) => (loaded = a))

export async function frameOf(p: PanelRequest): Promise<Frame> {
  const a = await assets()
  const person = p.person
  return {
    w: p.w,
    lang: p.lang,
    assets: a,
    path: p.path,
    formToken: p.formToken,
    person: person && {
      name: person.user.name,
      email: person.user.email,
      formToken: p.formToken!,
      stores: person.stores,
      storeId: person.store?.id,
      storeName: person.store?.name,
      role: person.store?.status === 'suspended' ? undefined : person.role,
      zone: person.store?.timezone,
    },
    badges: badgesOf(p),
    live: liveOf(p),
  }
}

/** Counts on navigation links: reviews waiting for approval, for a role that reads them. */
function badgesOf(p: PanelRequest): Frame['badges'] {
  const { person } = p
  if (!person?.ctx || !person.role || person.store?.status === 'suspended' || !roleHas(person.role, 'reviews:read'))
    return undefined
  return { reviews: countPendingReviews({ ctx: person.ctx }) }
}

/** The new-order alerts' starting point, for a person whose role reads orders (views/frame.ts). */
function liveOf(p: PanelRequest): Frame['live'] {
  const { person } = p
  if (!person?.ctx || !person.role || person.store?.status === 'suspended' || !roleHas(person.role, 'orders:read'))
    return undefined
  const u = unseenOrders(person.ctx)
  return u && { unseen: u.count, after: u.after }
}

/** A panel page with the panel's headers (respond.ts `page`). */
export const htmlPage = (set: Set, status: number, text: string) => page(set, status, text)

export async function render(
  c: { p: PanelRequest; set: ResponseSet },
  status: number,
  build: (f: Frame) => string,
): Promise<Response> {
  return htmlPage(c.set, status, build(await frameOf(c.p)))
}

/** Positive integer from a query value, else `fallback`. */
export const intParam = (v: string | undefined, fallback: number, max = 1_000_000) => {
  const n = Number(v)
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback
}
