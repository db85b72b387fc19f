/**
 * Passkey sign-in: the options (at most PASSKEY_OPTIONS_PER_MINUTE per client address, then 429
 * with Retry-After; the challenge bound to the asking browser by a short-lived cookie, see
 * people/passkey-signin.ts), then the assertion (throttled like a password: counted before it is
 * checked, given back when it was right). JSON, for the page's script: WebAuthn needs it anyway.
 */
import { Elysia } from 'elysia'
import { access } from '../plugins/access'
import {
  BrowserChallenges,
  browserSignInOptions,
  clearedPasskeyTicket,
  openSession,
  PASSKEY_OPTIONS_PER_MINUTE,
  PasskeyRefused,
  passkeyTicketCookie,
  passkeyTicketOf,
  sessionCookie,
  storesOf,
  takeAttempt,
  verifyPasskey,
} from '../modules/people'
import type { PanelEnv } from './env'
import { safeNext } from './gate'
import { type Req, finish, json, panelOf } from './respond'

const tooMany = (set: Req['set'], wait: number) =>
  finish(set, 429, JSON.stringify({ ok: false }), {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'retry-after': String(wait),
  })

export function passkeySignInRoutes(env: PanelEnv) {
  const { db, clock, limiter, people, rpOf, currentSessionId, hidden } = env
  const tickets = new BrowserChallenges(() => clock.now())
  return new Elysia({ name: 'passkeySignInRoutes' })
    .use(access)
    .post(
      '/admin/login/passkey/options',
      async (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const w = limiter.hit(`passkey-options:${p.ip}`, PASSKEY_OPTIONS_PER_MINUTE, 60)
        if (!w.allowed) return tooMany(set, w.resetSec)
        const { options, ticket } = await browserSignInOptions({ input: { rp: rpOf(p) }, challenges: tickets })
        return json(set, 200, { options }, passkeyTicketCookie(ticket))
      },
      { access: { panel: 'anonymous' }, ...hidden },
    )
    .post(
      '/admin/login/passkey',
      async (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const attempt = takeAttempt(limiter, p.ip, 'passkey')
        if (attempt.wait > 0) return tooMany(set, attempt.wait)
        const ticket = passkeyTicketOf(c.request.headers.get('cookie'))
        try {
          const userId = await verifyPasskey({
            ctx: people,
            input: { rp: rpOf(p), response: (c.body as { response?: unknown } | undefined)?.response },
            challenges: { take: (challenge) => tickets.take(ticket, challenge) },
          })
          attempt.giveBack()
          const storeId = storesOf(db, userId)[0]?.storeId ?? null
          const opened = openSession({
            ctx: people,
            input: { userId, storeId, userAgent: p.userAgent, ip: p.ip, replacing: currentSessionId(p) },
          })
          // Signing in on the way to a page (the consent page of an assistant, say) comes back to it.
          const next = safeNext((c.body as { next?: unknown } | undefined)?.next) ?? '/admin'
          const res = json(set, 200, { ok: true, next }, sessionCookie(opened.token))
          res.headers.append('set-cookie', clearedPasskeyTicket())
          return res
        } catch (e) {
          if (!(e instanceof PasskeyRefused)) throw e
          return json(set, 401, { ok: false }, clearedPasskeyTicket())
        }
      },
      { access: { panel: 'anonymous' }, ...hidden },
    )
}
