/**
 * "Confirm it's you" on its own (confirm.ts holds the rule): a passkey as the proof (the page's
 * script runs the ceremony, then re-posts the held form), and a page that only takes a proof and
 * goes back to `next` — for a change a script starts (adding a passkey), which cannot be held as a form.
 */
import { authenticationOptions, PasskeyRefused, recordProof, verifyPasskey } from '../modules/people'
import { confirmFirst, hasRecentProof } from './confirm'
import type { PanelEnv } from './env'
import { safeNext } from './gate'
import { panelPlugin, panelRoute } from './route'
import { confirmPage } from './views/confirm'
import { passkeysOf } from '../modules/people'

export function confirmRoutes(env: PanelEnv) {
  const { deps, people, challenges, rpOf } = env
  const back = (next: unknown) => safeNext(next) ?? '/admin/account'
  return panelPlugin('confirmRoutes', [
    panelRoute({ method: 'get', path: '/admin/confirm', need: 'signedIn' }, ({ person, query, request, ...c }) => {
      const { user, session } = person
      if (hasRecentProof(session, deps.clock.now())) return c.seeOther(back(query.next))
      const url = new URL(request.url)
      return c.render(200, (f) =>
        confirmPage(f, {
          action: url.pathname + url.search,
          held: [],
          password: !!user.passwordHash,
          code: user.totpEnabledAt !== null,
          passkey: passkeysOf(people, user.id).length > 0,
        }),
      )
    }),
    panelRoute({ method: 'post', path: '/admin/confirm', need: 'signedIn' }, async (call) => {
      const held = await confirmFirst(env, call)
      return held ?? call.seeOther(back(call.query.next))
    }),
    panelRoute({ method: 'post', path: '/admin/confirm/passkey/options', need: 'signedIn' }, async ({ p, json }) =>
      json(200, { options: await authenticationOptions({ input: { rp: rpOf(p) }, challenges }) }),
    ),
    panelRoute(
      { method: 'post', path: '/admin/confirm/passkey', need: 'signedIn' },
      async ({ p, person, body, json }) => {
        const { user, session } = person
        try {
          const userId = await verifyPasskey({
            ctx: people,
            input: { rp: rpOf(p), response: responseOf(body) },
            challenges,
          })
          // Only the person's own passkey proves it is them.
          if (userId !== user.id) return json(401, { ok: false })
        } catch (e) {
          if (!(e instanceof PasskeyRefused)) throw e
          return json(401, { ok: false })
        }
        recordProof({ ctx: people, input: { sessionId: session.id } })
        return json(200, { ok: true })
      },
    ),
  ])
}

/** The ceremony's answer in a script's JSON body. */
export const responseOf = (body: unknown): unknown =>
  body && typeof body === 'object' && 'response' in body ? body.response : undefined
