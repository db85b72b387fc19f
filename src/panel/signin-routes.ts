/** Sign-in: the password, its second step, and signing out (a passkey: passkey-signin-routes.ts). */
import { RateLimited } from '../lib/errors'
import {
  checkSecondStep,
  clearedCookie,
  countFailure,
  endSession,
  openSession,
  passkeyCount,
  SignInFailed,
  signInWithPassword,
  waitBeforeAttempt,
} from '../modules/people'
import type { PanelEnv } from './env'
import { safeNext } from './gate'
import { minutes } from './respond'
import { panelPlugin, panelRoute } from './route'
import { loginPage, twoStepPage } from './views'

export function signInRoutes(env: PanelEnv) {
  const { limiter, people, currentSessionId, signedInTo } = env
  return panelPlugin('signInRoutes', [
    // ------------------------------------------------------------ sign-in
    panelRoute({ method: 'get', path: '/admin/login', need: 'anonymous' }, ({ person, query, render, seeOther }) => {
      const next = safeNext(query.next)
      if (person) return seeOther(next ?? '/admin')
      return render(200, (f) => loginPage(f, { passkeys: passkeyCount(people) > 0, next }))
    }),
    panelRoute({ method: 'post', path: '/admin/login', need: 'anonymous' }, async ({ p, set, field, render }) => {
      const email = field('email') ?? ''
      const next = safeNext(field('next'))
      const passkeys = passkeyCount(people) > 0
      try {
        const { opened, pending } = await signInWithPassword({
          ctx: people,
          input: {
            email,
            password: field('password'),
            ip: p.ip,
            userAgent: p.userAgent,
            replacing: currentSessionId(p),
          },
          throttle: limiter,
        })
        if (pending)
          return signedInTo(set, opened, `/admin/login/two-step${next ? `?next=${encodeURIComponent(next)}` : ''}`)
        return signedInTo(set, opened, next ?? '/admin')
      } catch (e) {
        if (e instanceof RateLimited) {
          return render(
            429,
            (f) => loginPage(f, { email, passkeys, next, error: f.w.signin.tooManyAttempts(minutes(e.retryAfter)) }),
            { 'retry-after': String(e.retryAfter) },
          )
        }
        if (e instanceof SignInFailed)
          return render(401, (f) => loginPage(f, { email, passkeys, next, error: f.w.signin.wrongCredentials }))
        throw e
      }
    }),
    panelRoute(
      { method: 'get', path: '/admin/login/two-step', need: 'anonymous' },
      ({ p, query, render, seeOther }) => {
        if (!p.pending) return seeOther(p.person ? '/admin' : '/admin/login')
        return render(200, (f) => twoStepPage(f, { next: safeNext(query.next) }))
      },
    ),
    panelRoute(
      { method: 'post', path: '/admin/login/two-step', need: 'anonymous' },
      ({ p, set, query, field, render, seeOther }) => {
        if (!p.pending) return seeOther('/admin/login')
        const { user, session } = p.pending
        // The sign-in form's next rides in the two-step form (an assistant's consent page, a panel page).
        const next = safeNext(field('next') ?? query.next)
        const subject = `two-step:${user.id}`
        const wait = waitBeforeAttempt(limiter, p.ip, subject)
        if (wait > 0)
          return render(429, (f) => twoStepPage(f, { error: f.w.signin.tooManyAttempts(minutes(wait)), next }), {
            'retry-after': String(wait),
          })
        if (!checkSecondStep({ ctx: people, input: { user, code: field('code') } })) {
          countFailure(limiter, p.ip, subject)
          return render(401, (f) => twoStepPage(f, { error: f.w.signin.wrongCode, next }))
        }
        const opened = openSession({
          ctx: people,
          input: {
            userId: user.id,
            storeId: session.storeId,
            userAgent: p.userAgent,
            ip: p.ip,
            replacing: session.id,
          },
        })
        return signedInTo(set, opened, next ?? '/admin')
      },
    ),
    panelRoute({ method: 'post', path: '/admin/logout', need: 'anonymous' }, ({ p, seeOther }) => {
      const id = currentSessionId(p)
      const userId = p.person?.user.id ?? p.pending?.user.id
      if (id && userId) endSession({ ctx: people, input: { userId, sessionId: id } })
      return seeOther('/admin/login', clearedCookie())
    }),
  ])
}
