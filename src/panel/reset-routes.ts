/**
 * An owner's reset link for a team member (the Team page): the same one-time link as
 * `user:reset`, with the same effects at once (people/links.ts resetInTx). It asks first, needs a
 * recent proof that it is the owner (confirm.ts), and is refused for a person who also works in a
 * store this owner does not own (people/team.ts issueMemberReset).
 */
import { Elysia } from 'elysia'
import { AppError } from '../lib/errors'
import { access } from '../plugins/access'
import { issueMemberReset, listTeam, ResetNotYours } from '../modules/people'
import { confirmFirst } from './confirm'
import type { PanelEnv } from './env'
import { panelOf, type Req } from './respond'
import { messagePage, resetMemberPage, resetReadyPage } from './views'

export function resetRoutes(env: PanelEnv) {
  const { render, linkUrl, hidden } = env
  const notFound = (c: { set: unknown }, p: ReturnType<typeof panelOf>) =>
    render(p, c.set as Req['set'], 404, (f) => messagePage(f, f.w.notFoundTitle, f.w.notFoundText))
  return new Elysia({ name: 'resetRoutes' })
    .use(access)
    .get(
      '/admin/team/:id/reset',
      (c) => {
        const p = panelOf(c)
        const m = listTeam({ ctx: p.person!.ctx! }).members.find((x) => x.id === c.params.id)
        if (!m || m.userId === p.person!.user.id) return notFound(c, p)
        return render(p, c.set as Req['set'], 200, (f) => resetMemberPage(f, { id: m.id, who: m.name || m.email }))
      },
      { access: { panel: 'team', owns: 'memberships' }, ...hidden },
    )
    .post(
      '/admin/team/:id/reset',
      async (c) => {
        const held = await confirmFirst(env, c)
        if (held) return held
        const p = panelOf(c)
        const set = c.set as Req['set']
        const m = listTeam({ ctx: p.person!.ctx! }).members.find((x) => x.id === c.params.id)
        if (!m) return notFound(c, p)
        try {
          const issued = issueMemberReset({ ctx: p.person!.ctx!, input: { membershipId: m.id } })
          return render(p, set, 200, (f) => resetReadyPage(f, { email: issued.email, url: linkUrl(p, issued.token) }))
        } catch (e) {
          if (e instanceof ResetNotYours)
            return render(p, set, 403, (f) =>
              resetMemberPage(f, { id: m.id, who: m.name || m.email }, f.w.resetNotYours),
            )
          if (e instanceof AppError && (e.status === 404 || e.status === 400)) return notFound(c, p)
          throw e
        }
      },
      { access: { panel: 'team', owns: 'memberships' }, ...hidden },
    )
}
