/**
 * An owner's reset link for a team member (the Team page): the same one-time link as
 * `user:reset`, with the same effects at once (people/links.ts resetInTx). It asks first, needs a
 * recent proof that it is the owner (confirm.ts), and is refused for a person who also works in a
 * store this owner does not own (people/team.ts issueMemberReset).
 */
import { AppError } from '../lib/errors'
import { issueMemberReset, listTeam, ResetNotYours } from '../modules/people'
import { confirmFirst } from './confirm'
import type { PanelEnv } from './env'
import { panelPlugin, panelRoute } from './route'
import { messagePage, resetMemberPage, resetReadyPage } from './views'

export function resetRoutes(env: PanelEnv) {
  const { linkUrl } = env
  const spec = { path: '/admin/team/:id/reset', need: 'team', owns: 'memberships' } as const
  return panelPlugin('resetRoutes', [
    panelRoute({ ...spec, method: 'get' }, ({ ctx, person, params, render }) => {
      const m = listTeam({ ctx }).members.find((x) => x.id === params.id)
      if (!m || m.userId === person.user.id)
        return render(404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
      return render(200, (f) => resetMemberPage(f, { id: m.id, who: m.name || m.email }))
    }),
    panelRoute({ ...spec, method: 'post' }, async (call) => {
      const held = await confirmFirst(env, call)
      if (held) return held
      const { ctx, p, params, render } = call
      const notFound = () => render(404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
      const m = listTeam({ ctx }).members.find((x) => x.id === params.id)
      if (!m) return notFound()
      try {
        const issued = issueMemberReset({ ctx, input: { membershipId: m.id } })
        return render(200, (f) => resetReadyPage(f, { email: issued.email, url: linkUrl(p, issued.token) }))
      } catch (e) {
        if (e instanceof ResetNotYours)
          return render(403, (f) => resetMemberPage(f, { id: m.id, who: m.name || m.email }, f.w.team.resetNotYours))
        if (e instanceof AppError && (e.status === 404 || e.status === 400)) return notFound()
        throw e
      }
    }),
  ])
}
