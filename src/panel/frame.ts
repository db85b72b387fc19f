/** Every panel page's frame: the person, their stores, the navigation's badges and the live orders' starting point. */
import type { PanelRequest } from './gate'
import { panelAssets, type PanelAssets } from './assets'
import type { Frame } from './views'
import { roleHas } from '../modules/people'
import { countPendingReviews } from '../modules/reviews'
import { unseenOrders } from '../modules/orders'

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
