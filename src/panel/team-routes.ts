/** The team page (invite, change role, remove, withdraw) and the activity log, for owners. */
import { AppError, ValidationError } from '../lib/errors'
import { iso } from '../lib/time'
import {
  activityFacets,
  changeRole,
  inviteToStore,
  LastOwner,
  listActivity,
  listTeam,
  removeMember,
  revokeInvitation,
  peopleNamed,
  rotateSession,
} from '../modules/people'
import type { PanelRequest } from './gate'
import { activityPage, inviteReadyPage, messagePage, removeMemberPage, teamPage } from './views'

import { type Req, field, seeOther } from './respond'
import { panelPlugin, panelRoute, type StorePerson } from './route'
import type { PanelEnv } from './env'
import { confirmFirst } from './confirm'
import { teamAppsSection } from './apps-routes'
import { appActorNames } from '../modules/oauth'

export function teamRoutes(env: PanelEnv) {
  const { people, render, linkUrl, signedInTo } = env
  const app = panelPlugin('teamRoutes', [
    // ------------------------------------------------------------ team (owners)
    panelRoute({ method: 'get', path: '/admin/team', need: 'team' }, (c) => team(c.p, c.person, c.set, 200)),
    panelRoute({ method: 'post', path: '/admin/team/invite', need: 'team' }, async (c) => {
      const held = await confirmFirst(env, c)
      if (held) return held
      const { p } = c
      const set = c.set
      const ctx = c.ctx
      try {
        const issued = inviteToStore({
          ctx,
          input: { email: field(c.body, 'email'), role: field(c.body, 'role'), name: field(c.body, 'name') },
        })
        return render(p, set, 200, (f) =>
          inviteReadyPage(f, { email: issued.email, url: linkUrl(p, issued.token), storeName: ctx.store.name }),
        )
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e
        const reason = (e.details as { reason?: string } | undefined)?.reason
        return team(
          p,
          c.person,
          set,
          400,
          reason === 'duplicate' ? p.w.team.alreadyMember : p.w.signin.emailInvalid,
          field(c.body, 'email'),
        )
      }
    }),
    panelRoute({ method: 'post', path: '/admin/team/:id/role', need: 'team', owns: 'memberships' }, async (c) => {
      const held = await confirmFirst(env, c)
      if (held) return held
      const { p } = c
      const set = c.set
      try {
        const m = changeRole({
          ctx: c.ctx,
          input: { membershipId: c.params.id, role: field(c.body, 'role') },
        })
        // One's own role changed: a privilege change, so a new session id.
        if (m.userId === c.person.user.id)
          return signedInTo(set, rotateSession({ ctx: people, input: { session: c.person.session } }), '/admin/team')
      } catch (e) {
        if (e instanceof LastOwner) return team(p, c.person, set, 409, p.w.team.lastOwner)
        if (e instanceof AppError && e.status === 404)
          return render(p, set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
        if (!(e instanceof ValidationError)) throw e
        return team(p, c.person, set, 400, p.w.errors.forbiddenText)
      }
      return seeOther(set, '/admin/team')
    }),
    panelRoute({ method: 'get', path: '/admin/team/:id/remove', need: 'team', owns: 'memberships' }, (c) => {
      const { p } = c
      const m = listTeam({ ctx: c.ctx }).members.find((x) => x.id === c.params.id)
      if (!m) return render(p, c.set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
      return render(p, c.set, 200, (f) => removeMemberPage(f, { id: m.id, who: m.name || m.email }))
    }),
    panelRoute({ method: 'post', path: '/admin/team/:id/remove', need: 'team', owns: 'memberships' }, async (c) => {
      const held = await confirmFirst(env, c)
      if (held) return held
      const { p } = c
      const set = c.set
      try {
        removeMember({ ctx: c.ctx, input: { membershipId: c.params.id } })
      } catch (e) {
        if (e instanceof LastOwner) return team(p, c.person, set, 409, p.w.team.lastOwner)
        if (e instanceof AppError && e.status === 404)
          return render(p, set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
        throw e
      }
      return seeOther(set, '/admin/team')
    }),
    panelRoute(
      { method: 'post', path: '/admin/team/invitations/:id/revoke', need: 'team', owns: 'invitations' },
      (c) => {
        try {
          revokeInvitation({ ctx: c.ctx, input: { invitationId: c.params.id } })
        } catch (e) {
          if (!(e instanceof AppError)) throw e
        }
        return seeOther(c.set, '/admin/team')
      },
    ),

    // ------------------------------------------------------------ activity (owners)
    panelRoute({ method: 'get', path: '/admin/activity', need: 'activity' }, (c) => {
      const { p } = c
      const ctx = c.ctx
      const actor = c.query.actor || undefined
      const recordType = c.query.record || undefined
      const before = Number(c.query.before) || undefined
      const rows = listActivity({ ctx, input: { actor, recordType, before, limit: 50 } })
      const facets = activityFacets({ ctx })
      const userIds = facets.actors.filter((a) => a.startsWith('user:')).map((a) => a.slice(5))
      const names = new Map(
        peopleNamed({ ctx: people, input: { userIds } }).map((u) => [
          `user:${u.id}`,
          u.name ? `${u.name} (${u.email})` : u.email,
        ]),
      )
      // A connected app's writes: "<client> for <person>".
      const apps = appActorNames({
        ctx,
        input: { grantIds: facets.actors.filter((a) => a.startsWith('app:')).map((a) => a.slice(4)) },
      })
      const label = (a: string) =>
        names.get(a) ??
        apps.get(a) ??
        (a.startsWith('key:') ? `API key ${a.slice(4)}` : a === 'cli' ? 'CLI' : a === 'system' ? 'System' : a)
      const qs = new URLSearchParams()
      if (actor) qs.set('actor', actor)
      if (recordType) qs.set('record', recordType)
      if (rows.length === 50) qs.set('before', String(rows[rows.length - 1]!.seq))
      return render(p, c.set, 200, (f) =>
        activityPage(f, {
          rows: rows.map((r) => ({
            seq: r.seq,
            at: iso(r.at),
            // The name as it was when the action happened (kernel/actor-name.ts); older lines have none.
            who: r.actorName ?? label(r.actor),
            verb: r.verb,
            recordType: r.recordType,
            recordId: r.recordId,
          })),
          actors: facets.actors.map((a) => ({ value: a, label: label(a) })),
          recordTypes: facets.recordTypes,
          actor,
          recordType,
          olderHref: rows.length === 50 ? `/admin/activity?${qs}` : undefined,
        }),
      )
    }),
  ])
  return app

  function team(p: PanelRequest, person: StorePerson, set: Req['set'], status: number, error?: string, email?: string) {
    const { ctx } = person
    const t = listTeam({ ctx })
    return render(p, set, status, (f) =>
      teamPage(f, {
        members: t.members,
        pending: t.pending,
        myUserId: person.user.id,
        error,
        email,
        sections: [teamAppsSection(ctx, f)],
      }),
    )
  }
}
