/** The Account page's passkeys: add one (the browser's WebAuthn ceremony) and remove one, each after a recent proof. */
import { Elysia } from 'elysia'
import { AppError, ValidationError } from '../lib/errors'
import { access } from '../plugins/access'
import { registerPasskey, registrationOptions, removePasskey, rotateSession, sessionCookie } from '../modules/people'
import { confirmFirst, hasRecentProof } from './confirm'
import type { PanelEnv } from './env'
import { json, panelOf, seeOther, type Req } from './respond'

export function passkeyRoutes(env: PanelEnv) {
  const { people, challenges, rpOf, hidden } = env
  const app = new Elysia({ name: 'passkeyRoutes' })
    .use(access)
    .post(
      '/admin/account/passkeys/options',
      async (c) => {
        const p = panelOf(c)
        if (!hasRecentProof(p.person!.session, env.clock.now())) return needsProof(c.set as Req['set'])
        return json(c.set as Req['set'], 200, {
          options: await registrationOptions({ ctx: people, input: { user: p.person!.user, rp: rpOf(p) }, challenges }),
        })
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/passkeys',
      async (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const body = (c.body ?? {}) as { response?: unknown; name?: unknown }
        if (!hasRecentProof(p.person!.session, env.clock.now())) return needsProof(set)
        try {
          await registerPasskey({
            ctx: people,
            input: { user: p.person!.user, rp: rpOf(p), response: body.response, name: body.name },
            challenges,
          })
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          return json(set, 400, { ok: false })
        }
        const opened = rotateSession({ ctx: people, input: { session: p.person!.session } })
        return json(set, 200, { ok: true, next: '/admin/account?done=passkey' }, sessionCookie(opened.token))
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/passkeys/:id/delete',
      async (c) => {
        const held = await confirmFirst(env, c)
        if (held) return held
        const p = panelOf(c)
        try {
          removePasskey({ ctx: people, input: { userId: p.person!.user.id, passkeyId: c.params.id } })
        } catch (e) {
          if (!(e instanceof AppError)) throw e
        }
        return seeOther(c.set as Req['set'], '/admin/account')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
  return app

  /** A script's change without a recent proof: where the page takes one first (confirm-routes.ts). */
  function needsProof(set: Req['set']) {
    return json(set, 403, { ok: false, confirm: `/admin/confirm?next=${encodeURIComponent('/admin/account')}` })
  }
}
