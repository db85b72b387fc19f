/**
 * "Connected apps": Disconnect on the Account page (the person's own apps) and on the Team page
 * (an owner, any app of the store), and the sections both pages show. Disconnecting revokes the
 * grant, so each of its tokens fails on its very next use.
 */
import { Elysia } from 'elysia'
import { iso } from '../lib/time'
import { access } from '../plugins/access'
import { appsOfPerson, appsOfStore, disconnectApp, type ConnectedApp } from '../modules/oauth'
import type { PanelRequest } from './gate'
import { appsWords } from './i18n/apps'
import { connectedAppsSection, type AppRow, type Frame } from './views'
import { type Req, panelOf, seeOther } from './respond'
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
export function accountAppsSection(env: Pick<PanelEnv, 'db'>, p: PanelRequest, f: Frame) {
  const a = appsWords(f.lang)
  return connectedAppsSection(f, a, appsOfPerson(env.db, p.person!.user.id).map(rowOf), {
    intro: a.connectedAppsIntro,
    action: (id) => `/admin/account/apps/${encodeURIComponent(id)}/disconnect`,
  })
}

/** The Team page's section: every connected app of the store, with whose it is. */
export function teamAppsSection(env: Pick<PanelEnv, 'db'>, p: PanelRequest, f: Frame) {
  const a = appsWords(f.lang)
  return connectedAppsSection(f, a, appsOfStore(env.db, p.person!.store!.id).map(rowOf), {
    intro: a.storeAppsIntro,
    action: (id) => `/admin/team/apps/${encodeURIComponent(id)}/disconnect`,
    showPerson: true,
  })
}

export function appsRoutes(env: PanelEnv) {
  const { db, clock, hidden } = env
  return new Elysia({ name: 'appsRoutes' })
    .use(access)
    .post(
      '/admin/account/apps/:id/disconnect',
      (c) => {
        // Only the person's own: another person's id disconnects nothing.
        disconnectApp({ ctx: { db, clock }, input: { grantId: c.params.id, userId: panelOf(c).person!.user.id } })
        return seeOther(c.set as Req['set'], '/admin/account')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/team/apps/:id/disconnect',
      (c) => {
        // The gate refused another store's grant (owns); the verb checks the store again.
        const p = panelOf(c)
        disconnectApp({ ctx: { db, clock }, input: { grantId: c.params.id, storeId: p.person!.store!.id } })
        return seeOther(c.set as Req['set'], '/admin/team')
      },
      { access: { panel: 'team', owns: 'oauthGrants' }, ...hidden },
    )
}
