/**
 * Passkey sign-in: the options (at most PASSKEY_OPTIONS_PER_MINUTE per client address, then 429
 * with Retry-After; the challenge bound to the asking browser by a short-lived cookie, see
 * people/passkey-signin.ts), then the assertion (throttled like a password: counted before it is
 * checked, given back when it was right). JSON, for the page's script: WebAuthn needs it anyway.
 */
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
  storesOfPerson,
  takeAttempt,
  verifyPasskey,
} from '../modules/people'
import { responseOf } from './confirm-routes'
import type { PanelEnv } from './env'
import { safeNext } from './gate'
import { finish, type ResponseSet } from './respond'
import { panelPlugin, panelRoute } from './route'

const tooMany = (set: ResponseSet, wait: number) =>
  finish(set, 429, JSON.stringify({ ok: false }), {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'retry-after': String(wait),
  })

export function passkeySignInRoutes(env: PanelEnv) {
  const { db, clock, limiter, people, rpOf, currentSessionId } = env
  const tickets = new BrowserChallenges(() => clock.now())
  return panelPlugin('passkeySignInRoutes', [
    panelRoute(
      { method: 'post', path: '/admin/login/passkey/options', need: 'anonymous' },
      async ({ p, set, json }) => {
        const w = limiter.hit(`passkey-options:${p.ip}`, PASSKEY_OPTIONS_PER_MINUTE, 60)
        if (!w.allowed) return tooMany(set, w.resetSec)
        const { options, ticket } = await browserSignInOptions({ input: { rp: rpOf(p) }, challenges: tickets })
        return json(200, { options }, passkeyTicketCookie(ticket))
      },
    ),
    panelRoute(
      { method: 'post', path: '/admin/login/passkey', need: 'anonymous' },
      async ({ p, set, body, field, request, json }) => {
        const attempt = takeAttempt(limiter, p.ip, 'passkey')
        if (attempt.wait > 0) return tooMany(set, attempt.wait)
        const ticket = passkeyTicketOf(request.headers.get('cookie'))
        try {
          const userId = await verifyPasskey({
            ctx: people,
            input: { rp: rpOf(p), response: responseOf(body) },
            challenges: { take: (challenge) => tickets.take(ticket, challenge) },
          })
          attempt.giveBack()
          const storeId = storesOfPerson({ ctx: { db }, input: { userId } })[0]?.storeId ?? null
          const opened = openSession({
            ctx: people,
            input: { userId, storeId, userAgent: p.userAgent, ip: p.ip, replacing: currentSessionId(p) },
          })
          // Signing in on the way to a page (the consent page of an assistant, say) comes back to it.
          const next = safeNext(field('next')) ?? '/admin'
          const res = json(200, { ok: true, next }, sessionCookie(opened.token))
          res.headers.append('set-cookie', clearedPasskeyTicket())
          return res
        } catch (e) {
          if (!(e instanceof PasskeyRefused)) throw e
          return json(401, { ok: false }, clearedPasskeyTicket())
        }
      },
    ),
  ])
}
