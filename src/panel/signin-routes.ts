/** Sign-in: the password, its second step, and signing out (a passkey: passkey-signin-routes.ts). */
import { Elysia } from 'elysia'
import { RateLimited } from '../lib/errors'
import { access } from '../plugins/access'
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
import { field, minutes, panelOf, seeOther, type Req } from './respond'
import { loginPage, twoStepPage } from './views'

export function signInRoutes(env: PanelEnv) {
  const { limiter, people, render, currentSessionId, signedInTo, hidden } = env
  return (
    new Elysia({ name: 'signInRoutes' })
      .use(access)
      // ------------------------------------------------------------ sign-in
      .get(
        '/admin/login',
        (c) => {
          const p = panelOf(c)
          const next = safeNext(c.query.next)
          if (p.person) return seeOther(c.set as Req['set'], next ?? '/admin')
          return render(p, c.set as Req['set'], 200, (f) => loginPage(f, { passkeys: passkeyCount(people) > 0, next }))
        },
        { access: { panel: 'anonymous' }, ...hidden },
      )
      .post(
        '/admin/login',
        async (c) => {
          const p = panelOf(c)
          const set = c.set as Req['set']
          const email = field(c.body, 'email') ?? ''
          const next = safeNext(field(c.body, 'next'))
          const passkeys = passkeyCount(people) > 0
          try {
            const { opened, pending } = await signInWithPassword({
              ctx: people,
              input: {
                email,
                password: field(c.body, 'password'),
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
                p,
                set,
                429,
                (f) => loginPage(f, { email, passkeys, next, error: f.w.tooManyAttempts(minutes(e.retryAfter)) }),
                { 'retry-after': String(e.retryAfter) },
              )
            }
            if (e instanceof SignInFailed)
              return render(p, set, 401, (f) => loginPage(f, { email, passkeys, next, error: f.w.wrongCredentials }))
            throw e
          }
        },
        { access: { panel: 'anonymous' }, ...hidden },
      )
      .get(
        '/admin/login/two-step',
        (c) => {
          const p = panelOf(c)
          if (!p.pending) return seeOther(c.set as Req['set'], p.person ? '/admin' : '/admin/login')
          return render(p, c.set as Req['set'], 200, (f) => twoStepPage(f, { next: safeNext(c.query.next) }))
        },
        { access: { panel: 'anonymous' }, ...hidden },
      )
      .post(
        '/admin/login/two-step',
        (c) => {
          const p = panelOf(c)
          const set = c.set as Req['set']
          if (!p.pending) return seeOther(set, '/admin/login')
          const { user, session } = p.pending
          // The sign-in form's next rides in the two-step form (an assistant's consent page, a panel page).
          const next = safeNext(field(c.body, 'next') ?? c.query.next)
          const subject = `two-step:${user.id}`
          const wait = waitBeforeAttempt(limiter, p.ip, subject)
          if (wait > 0)
            return render(p, set, 429, (f) => twoStepPage(f, { error: f.w.tooManyAttempts(minutes(wait)), next }), {
              'retry-after': String(wait),
            })
          if (!checkSecondStep({ ctx: people, input: { user, code: field(c.body, 'code') } })) {
            countFailure(limiter, p.ip, subject)
            return render(p, set, 401, (f) => twoStepPage(f, { error: f.w.wrongCode, next }))
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
        { access: { panel: 'anonymous' }, ...hidden },
      )
      .post(
        '/admin/logout',
        (c) => {
          const p = panelOf(c)
          const id = currentSessionId(p)
          const userId = p.person?.user.id ?? p.pending?.user.id
          if (id && userId) endSession({ ctx: people, input: { userId, sessionId: id } })
          return seeOther(c.set as Req['set'], '/admin/login', clearedCookie())
        },
        { access: { panel: 'anonymous' }, ...hidden },
      )
  )
}
