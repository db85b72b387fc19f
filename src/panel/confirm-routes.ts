/**
 * "Confirm it's you" on its own (confirm.ts holds the rule): a passkey as the proof (the page's
 * script runs the ceremony, then re-posts the held form), and a page that only takes a proof and
 * goes back to `next` — for a change a script starts (adding a passkey), which cannot be held as a form.
 */
import { Elysia } from 'elysia'
import { access } from '../plugins/access'
import { authenticationOptions, PasskeyRefused, recordProof, verifyPasskey } from '../modules/people'
import { confirmFirst, hasRecentProof } from './confirm'
import type { PanelEnv } from './env'
import { safeNext } from './gate'
import { json, panelOf, seeOther, type Req } from './respond'
import { confirmPage } from './views/confirm'
import { passkeysOf } from '../modules/people'

export function confirmRoutes(env: PanelEnv) {
  const { deps, people, challenges, render, rpOf, hidden } = env
  const back = (next: unknown) => safeNext(next) ?? '/admin/account'
  return new Elysia({ name: 'confirmRoutes' })
    .use(access)
    .get(
      '/admin/confirm',
      (c) => {
        const p = panelOf(c)
        const { user, session } = p.person!
        if (hasRecentProof(session, deps.clock.now())) return seeOther(c.set as Req['set'], back(c.query.next))
        const url = new URL(c.request.url)
        return render(p, c.set as Req['set'], 200, (f) =>
          confirmPage(f, {
            action: url.pathname + url.search,
            held: [],
            password: !!user.passwordHash,
            code: user.totpEnabledAt !== null,
            passkey: passkeysOf(people, user.id).length > 0,
          }),
        )
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/confirm',
      async (c) => {
        const held = await confirmFirst(env, c as never)
        return held ?? seeOther(c.set as Req['set'], back(c.query.next))
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/confirm/passkey/options',
      async (c) =>
        json(c.set as Req['set'], 200, {
          options: await authenticationOptions({ input: { rp: rpOf(panelOf(c)) }, challenges }),
        }),
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/confirm/passkey',
      async (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const { user, session } = p.person!
        try {
          const userId = await verifyPasskey({
            ctx: people,
            input: { rp: rpOf(p), response: (c.body as { response?: unknown } | undefined)?.response },
            challenges,
          })
          // Only the person's own passkey proves it is them.
          if (userId !== user.id) return json(set, 401, { ok: false })
        } catch (e) {
          if (!(e instanceof PasskeyRefused)) throw e
          return json(set, 401, { ok: false })
        }
        recordProof({ ctx: people, input: { sessionId: session.id } })
        return json(set, 200, { ok: true })
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
}
