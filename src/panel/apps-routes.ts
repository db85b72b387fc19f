/**
 * "Connected apps": Disconnect on the Account page (the person's own apps) and on the Team page
 * (an owner, any app of the store), and the sections both pages show. Disconnecting revokes the
 * grant, so each of its tokens fails on its very next use.
 */
import type { Ctx } from '../kernel/context'
import { iso } from '../lib/time'
import { appsOfPerson, appsOfStore, disconnectApp, type ConnectedApp } from '../modules/oauth'
import { connectedAppsSection, type AppRow, type Frame } from './views'
import { panelPlugin, panelRoute } from './route'
import type { PanelEnv } from './env'

const rowOf = (a: ConnectedApp): AppRow => ({
  id: a.id,
  client: a.client,
  storeName: a.storeName,
  person: a.person,
  scopes: a.scopes,
  lastUsedAt: a.lastUsedAt === null ? null : iso(a.lastUsedAt),
})

/** The Account page's section: the person's own connected apps, in every store. */
export function accountAppsSection(env: Pick<PanelEnv, 'people'>, userId: string, f: Frame) {
  const w = f.w
  return connectedAppsSection(f, w, appsOfPerson({ ctx: env.people, input: { userId } }).map(rowOf), {
    intro: w.apps.connectedAppsIntro,
    action: (id) => `/admin/account/apps/${encodeURIComponent(id)}/disconnect`,
  })
}

/** The Team page's section: every connected app of the store, with whose it is. */
export function teamAppsSection(ctx: Ctx, f: Frame) {
  const w = f.w
  return connectedAppsSection(f, w, appsOfStore({ ctx }).map(rowOf), {
    intro: w.apps.storeAppsIntro,
    action: (id) => `/admin/team/apps/${encodeURIComponent(id)}/disconnect`,
    showPerson: true,
  })
}

export function appsRoutes(env: PanelEnv) {
  const { db, clock } = env
  return panelPlugin('appsRoutes', [
    panelRoute(
      { method: 'post', path: '/admin/account/apps/:id/disconnect', need: 'signedIn' },
      ({ person, params, seeOther }) => {
        // Only the person's own: another person's id disconnects nothing.
        disconnectApp({ ctx: { db, clock }, input: { grantId: params.id, userId: person.user.id } })
        return seeOther('/admin/account')
      },
    ),
    panelRoute(
      { method: 'post', path: '/admin/team/apps/:id/disconnect', need: 'team', owns: 'oauthGrants' },
      ({ person, params, seeOther }) => {
        // The gate refused another store's grant (owns); the verb checks the store again.
        disconnectApp({ ctx: { db, clock }, input: { grantId: params.id, storeId: person.store.id } })
        return seeOther('/admin/team')
      },
    ),
  ])
}
