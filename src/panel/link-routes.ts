/** First-run setup and the one-time links (invitation, password reset, demo sign-in). */
import { AppError, ValidationError } from '../lib/errors'
import {
  checkNewPassword,
  consumeLink,
  throttledCheck,
  createOwner,
  hashPassword,
  LinkRefused,
  type LinkState,
  passkeysOf,
  SignInAsAccount,
  openSession,
  readLink,
  storesOfPerson,
  verifyPassword,
  checkEmail,
  checkName,
} from '../modules/people'
import { createStore } from '../modules/platform-stores'
import type { PanelRequest } from './gate'
import { canonicalZone } from '../lib/zone'
import { linkPage, messagePage, setupPage } from './views'
import { html } from '../shop/html'

import { type Req, field, passwordMessage, minutes } from './respond'
import { panelPlugin, panelRoute } from './route'
import type { PanelEnv } from './env'

export function linkRoutes(env: PanelEnv) {
  const { db, clock, limiter, people, render, currentSessionId, signedInTo, opts } = env
  const app = panelPlugin('linkRoutes', [
    // ------------------------------------------------------------ first run and one-time links
    panelRoute({ method: 'get', path: '/admin/setup', need: 'anonymous' }, (c) => {
      const { p } = c
      const token = c.query.token ?? ''
      if (!opts.firstRun.valid(people, token))
        return render(p, c.set, 404, (f) => messagePage(f, f.w.setup.setupTitle, f.w.signin.linkUnknown))
      return render(p, c.set, 200, (f) => setupPage(f, token))
    }),
    panelRoute({ method: 'post', path: '/admin/setup', need: 'anonymous' }, async (c) => {
      const { p } = c
      const set = c.set
      const token = c.query.token ?? ''
      const storeName = (field(c.body, 'storeName') ?? '').trim()
      const name = field(c.body, 'name') ?? ''
      const emailRaw = field(c.body, 'email') ?? ''
      const zoneRaw = (field(c.body, 'timezone') ?? '').trim()
      const again = (fieldName: 'name' | 'password' | 'email' | 'storeName' | 'timezone', error: string) =>
        render(p, set, 400, (f) =>
          setupPage(f, token, { storeName, name, email: emailRaw, timezone: zoneRaw, field: fieldName, error }),
        )
      if (!opts.firstRun.valid(people, token))
        return render(p, set, 404, (f) => messagePage(f, f.w.setup.setupTitle, f.w.signin.linkUnknown))
      if (!storeName || storeName.length > 100) return again('storeName', p.w.signin.nameRequired)
      // Empty is UTC (the script proposes the browser's zone; without it the field starts empty).
      const timezone = zoneRaw === '' ? 'UTC' : canonicalZone(zoneRaw)
      if (!timezone) return again('timezone', p.w.setup.storeZoneInvalid)
      let email: string
      let password: string
      let cleanName: string
      try {
        cleanName = checkName(name)
      } catch {
        return again('name', p.w.signin.nameRequired)
      }
      try {
        email = checkEmail(emailRaw).email
      } catch {
        return again('email', p.w.signin.emailInvalid)
      }
      try {
        password = checkNewPassword(field(c.body, 'password'), email)
      } catch (e) {
        return again('password', passwordMessage(p.w, e as ValidationError))
      }
      // Spent before the slow hash: two posts racing with the one link make one store.
      opts.firstRun.spend()
      const hash = await hashPassword(password, p.ip)
      let store
      try {
        store = createStore({ ctx: { db, clock }, input: { name: storeName, timezone } })
      } catch (e) {
        if (!(e instanceof AppError)) throw e
        store = createStore({
          ctx: { db, clock },
          input: { name: storeName, slug: `store-${Date.now().toString(36)}`, timezone },
        })
      }
      const user = createOwner({
        ctx: people,
        input: { storeId: store.id, email, name: cleanName, passwordHash: hash },
      })
      const opened = openSession({
        ctx: people,
        input: {
          userId: user.id,
          storeId: store.id,
          userAgent: p.userAgent,
          ip: p.ip,
          replacing: currentSessionId(p),
        },
      })
      return signedInTo(set, opened)
    }),
    panelRoute({ method: 'get', path: '/admin/join', need: 'anonymous' }, (c) => {
      const { p } = c
      const token = c.query.token ?? ''
      const state = readLink({ ctx: people, input: { token } })
      if (typeof state === 'string') return linkProblem(p, c.set, state)
      return render(p, c.set, 200, (f) => linkPage(f, joinView(p, state, token)))
    }),
    panelRoute({ method: 'post', path: '/admin/join', need: 'anonymous' }, async (c) => {
      const { p } = c
      const set = c.set
      const token = c.query.token ?? ''
      const state = readLink({ ctx: people, input: { token } })
      if (typeof state === 'string') return linkProblem(p, set, state)
      const { link, user } = state
      const name = field(c.body, 'name')
      const again = (error: string, fieldName?: 'name' | 'password', status = 400) =>
        render(p, set, status, (f) => linkPage(f, joinView(p, state, token), { error, field: fieldName, name }))
      let passwordHash: string | undefined
      let cleanName: string | undefined
      let asUserId: string | undefined
      if (link.kind === 'invite' && user) {
        // An existing account: never given credentials here. It joins once the request proves it
        // is that account: already signed in as it, or its password now (then its two-step).
        if (p.person?.user.id === user.id) asUserId = user.id
        else if (!user.passwordHash) return again(p.w.signin.joinNeedsSession(link.email), undefined, 403)
        else {
          const hash = user.passwordHash
          // Counted before the hash, given back when it was right (people/throttle.ts).
          const { wait, ok } = await throttledCheck(limiter, p.ip, link.email, () =>
            verifyPassword(field(c.body, 'password') ?? '', hash, p.ip),
          )
          if (wait > 0) return again(p.w.signin.tooManyAttempts(minutes(wait)), 'password', 429)
          if (!ok) return again(p.w.account.wrongPassword, 'password', 401)
          if (user.totpEnabledAt !== null) {
            // The second step first; it brings the person back here, signed in, to accept.
            const pending = openSession({
              ctx: people,
              input: {
                userId: user.id,
                storeId: null,
                pending: true,
                userAgent: p.userAgent,
                ip: p.ip,
                replacing: currentSessionId(p),
              },
            })
            const back = `/admin/join?token=${encodeURIComponent(token)}`
            return signedInTo(set, pending, `/admin/login/two-step?next=${encodeURIComponent(back)}`)
          }
          asUserId = user.id
        }
      } else if (link.kind === 'invite' || link.kind === 'reset') {
        if (link.kind === 'invite') {
          try {
            cleanName = checkName(name)
          } catch {
            return again(p.w.signin.nameRequired, 'name')
          }
        }
        try {
          passwordHash = await hashPassword(checkNewPassword(field(c.body, 'password'), link.email), p.ip)
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          return again(passwordMessage(p.w, e), 'password')
        }
      }
      let used
      try {
        used = consumeLink({ ctx: people, input: { token, name: cleanName, passwordHash, asUserId } })
      } catch (e) {
        if (e instanceof LinkRefused) return linkProblem(p, set, e.problem)
        // The account appeared between the page and this post: it joins only by signing in as it.
        if (e instanceof SignInAsAccount) return again(p.w.signin.joinNeedsSession(link.email), undefined, 403)
        throw e
      }
      const storeId =
        used.storeId ?? storesOfPerson({ ctx: { db }, input: { userId: used.user.id } })[0]?.storeId ?? null
      const pending = used.user.totpEnabledAt !== null && asUserId === undefined
      const opened = openSession({
        ctx: people,
        input: {
          userId: used.user.id,
          storeId,
          pending,
          userAgent: p.userAgent,
          ip: p.ip,
          replacing: currentSessionId(p),
          // Accepting from a session already signed in as the account is no new proof of it.
          ...(p.person?.user.id === used.user.id ? { provedAt: p.person.session.provedAt } : {}),
        },
      })
      return signedInTo(set, opened, pending ? '/admin/login/two-step' : '/admin')
    }),
  ])
  return app

  /** A spent, expired or unknown link says so and where to go next: the sign-in page. */
  function linkProblem(p: PanelRequest, set: Req['set'], problem: 'unknown' | 'used' | 'expired') {
    const text =
      problem === 'used' ? p.w.signin.linkUsed : problem === 'expired' ? p.w.signin.linkExpired : p.w.signin.linkUnknown
    return render(p, set, problem === 'unknown' ? 404 : 410, (f) =>
      messagePage(f, f.w.signin.signIn, text, html`<p><a href="/admin/login">${f.w.signin.goToSignIn}</a></p>`),
    )
  }

  /** The invitation page for this request: a new account's form, or how an existing account takes it. */
  function joinView(p: PanelRequest, state: LinkState, token: string) {
    const { link, user, storeName } = state
    const account =
      link.kind === 'invite' && user
        ? {
            accept: p.person?.user.id === user.id,
            password: !!user.passwordHash,
            passkey: passkeysOf(people, user.id).length > 0,
            signedInAs: p.person && p.person.user.id !== user.id ? p.person.user.email : undefined,
          }
        : undefined
    return { kind: link.kind, token, email: link.email, storeName, existing: !!user, account, name: link.name }
  }
}
