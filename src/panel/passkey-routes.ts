/** The Account page's passkeys: add one (the browser's WebAuthn ceremony) and remove one, each after a recent proof. */
import { AppError, ValidationError } from '../lib/errors'
import { registerPasskey, registrationOptions, removePasskey, rotateSession, sessionCookie } from '../modules/people'
import { confirmFirst, hasRecentProof } from './confirm'
import type { PanelEnv } from './env'
import { panelPlugin, panelRoute } from './route'

/** A script's change without a recent proof: where the page takes one first (confirm-routes.ts). */
const NEEDS_PROOF = { ok: false, confirm: `/admin/confirm?next=${encodeURIComponent('/admin/account')}` }

/** A field of a script's JSON body. */
const member = (body: unknown, name: string): unknown =>
  body && typeof body === 'object' && name in body ? (body as Record<string, unknown>)[name] : undefined

export function passkeyRoutes(env: PanelEnv) {
  const { people, challenges, rpOf } = env
  return panelPlugin('passkeyRoutes', [
    panelRoute(
      { method: 'post', path: '/admin/account/passkeys/options', need: 'signedIn' },
      async ({ p, person, json }) => {
        if (!hasRecentProof(person.session, env.clock.now())) return json(403, NEEDS_PROOF)
        return json(200, {
          options: await registrationOptions({ ctx: people, input: { user: person.user, rp: rpOf(p) }, challenges }),
        })
      },
    ),
    panelRoute(
      { method: 'post', path: '/admin/account/passkeys', need: 'signedIn' },
      async ({ p, person, body, json }) => {
        if (!hasRecentProof(person.session, env.clock.now())) return json(403, NEEDS_PROOF)
        try {
          await registerPasskey({
            ctx: people,
            input: { user: person.user, rp: rpOf(p), response: member(body, 'response'), name: member(body, 'name') },
            challenges,
          })
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          return json(400, { ok: false })
        }
        const opened = rotateSession({ ctx: people, input: { session: person.session } })
        return json(200, { ok: true, next: '/admin/account?done=passkey' }, sessionCookie(opened.token))
      },
    ),
    panelRoute({ method: 'post', path: '/admin/account/passkeys/:id/delete', need: 'signedIn' }, async (call) => {
      const held = await confirmFirst(env, call)
      if (held) return held
      try {
        removePasskey({ ctx: people, input: { userId: call.person.user.id, passkeyId: call.params.id } })
      } catch (e) {
        if (!(e instanceof AppError)) throw e
      }
      return call.seeOther('/admin/account')
    }),
  ])
}
