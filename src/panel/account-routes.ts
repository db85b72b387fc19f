/** The account page: name and language, password (or a first one), two-step with recovery codes, devices. */
import { ValidationError } from '../lib/errors'
import { iso } from '../lib/time'
import {
  accountOf,
  checkNewPassword,
  confirmTotp,
  throttledCheck,
  disableTotp,
  endOtherSessions,
  endSession,
  hashPassword,
  listSessions,
  passkeysOf,
  pendingTotp,
  recoveryCodesLeft,
  rotateSession,
  sessionCookie,
  setPassword,
  setFirstPassword,
  recordProof,
  startTotp,
  updateProfile,
  verifyPassword,
} from '../modules/people'
import type { PanelRequest, Person } from './gate'
import { accountPage, recoveryCodesPage, totpSetupPage } from './views'

import { panelPlugin, panelRoute, type PanelCall } from './route'
import type { Ctx } from '../kernel/context'
import { type Req, field, seeOther, passwordMessage, minutes, deviceName } from './respond'
import type { PanelEnv } from './env'
import { notificationsOf, pushNotice } from './push/account'
import { confirmFirst } from './confirm'
import { accountAppsSection } from './apps-routes'
import type { Words } from './words'

export function accountRoutes(env: PanelEnv) {
  const { limiter, people, render, signedInTo, issuerOf } = env
  const app = panelPlugin('accountRoutes', [
    // ------------------------------------------------------------ account
    panelRoute({ method: 'get', path: '/admin/account', need: 'signedIn' }, (c) =>
      account(c.p, c.person, c.set, 200, notice(c.w, c.query.done) ?? pushNotice(c.w, c.query.done)),
    ),
    panelRoute({ method: 'post', path: '/admin/account/profile', need: 'signedIn' }, (c) => {
      const { p } = c
      try {
        updateProfile({
          ctx: people,
          input: {
            userId: c.person.user.id,
            name: field(c.body, 'name'),
            language: field(c.body, 'language') ?? '',
          },
        })
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e
        return account(p, c.person, c.set, 400, undefined, { name: p.w.signin.nameRequired })
      }
      return seeOther(c.set, '/admin/account?done=saved')
    }),
    panelRoute({ method: 'post', path: '/admin/account/password', need: 'signedIn' }, async (c) => {
      const { p } = c
      const set = c.set
      const { user, session } = c.person
      if (!user.passwordHash) return firstPassword(c)
      // Counted before the hash, given back when it was right (people/throttle.ts).
      const { wait, ok } = await throttledCheck(limiter, p.ip, user.email, () =>
        verifyPassword(field(c.body, 'current') ?? '', user.passwordHash, p.ip),
      )
      if (wait > 0)
        return account(
          p,
          c.person,
          set,
          429,
          undefined,
          { 'current-password': p.w.signin.tooManyAttempts(minutes(wait)) },
          { 'retry-after': String(wait) },
        )
      // Every field judged at once: a wrong current password and a weak new one are both told.
      const errors: Record<string, string> = {}
      if (!ok) errors['current-password'] = p.w.account.wrongPassword
      // The current password is this change's proof that it is them (confirm.ts).
      else session.provedAt = recordProof({ ctx: people, input: { sessionId: session.id } })
      const fresh = judgeNewPassword(p.w, field(c.body, 'password'), user.email, errors)
      if (fresh === undefined) return account(p, c.person, set, 400, undefined, errors)
      const hash = await hashPassword(fresh, p.ip)
      setPassword({ ctx: people, input: { userId: user.id, passwordHash: hash, keepSession: session.id } })
      const opened = rotateSession({ ctx: people, input: { session } })
      return signedInTo(set, opened, '/admin/account?done=password')
    }),
    panelRoute({ method: 'post', path: '/admin/account/sessions/end-others', need: 'signedIn' }, (c) => {
      endOtherSessions({ ctx: people, input: { userId: c.person.user.id, keep: c.person.session.id } })
      return seeOther(c.set, '/admin/account')
    }),
    panelRoute({ method: 'post', path: '/admin/account/sessions/:id/end', need: 'signedIn' }, (c) => {
      // Only the person's own sessions: another person's id ends nothing.
      endSession({ ctx: people, input: { userId: c.person.user.id, sessionId: c.params.id } })
      return seeOther(c.set, '/admin/account')
    }),
    panelRoute({ method: 'post', path: '/admin/account/two-step', need: 'signedIn' }, async (c) => {
      const held = await confirmFirst(env, c)
      if (held) return held
      const { p } = c
      const setup = startTotp({ ctx: people, input: { user: c.person.user, issuer: issuerOf(p) } })
      return render(p, c.set, 200, (f) => totpSetupPage(f, setup))
    }),
    panelRoute({ method: 'post', path: '/admin/account/two-step/confirm', need: 'signedIn' }, (c) => {
      const { p } = c
      const set = c.set
      const { user, session } = c.person
      let codes: string[]
      try {
        codes = confirmTotp({ ctx: people, input: { user, code: field(c.body, 'code') } })
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e
        const setup = pendingTotp({ ctx: people, input: { user, issuer: issuerOf(p) } })
        if (!setup) return seeOther(set, '/admin/account')
        return render(p, set, 400, (f) => totpSetupPage(f, setup, f.w.signin.wrongCode))
      }
      const opened = rotateSession({ ctx: people, input: { session } })
      return render(p, set, 200, (f) => recoveryCodesPage(f, codes), { 'set-cookie': sessionCookie(opened.token) })
    }),
    panelRoute({ method: 'post', path: '/admin/account/two-step/disable', need: 'signedIn' }, async (c) => {
      const held = await confirmFirst(env, c)
      if (held) return held
      disableTotp({ ctx: people, input: { userId: c.person.user.id } })
      const opened = rotateSession({ ctx: people, input: { session: c.person.session } })
      return signedInTo(c.set, opened, '/admin/account?done=saved')
    }),
  ])
  return app

  /**
   * "Set a password" for a person who has none (signed in by a one-time link): the new password
   * twice, no current one, and only while the session's proof is recent (a sign-in by link counts).
   */
  async function firstPassword(c: PanelCall<unknown, Person, Ctx | undefined>) {
    const held = await confirmFirst(env, c)
    if (held) return held
    const { p } = c
    const set = c.set
    const { user, session } = c.person
    const password = field(c.body, 'password')
    const errors: Record<string, string> = {}
    const fresh = judgeNewPassword(p.w, password, user.email, errors)
    if (field(c.body, 'password2') !== password) errors['new-password-2'] = p.w.signin.passwordsDiffer
    if (fresh === undefined || errors['new-password-2']) return account(p, c.person, set, 400, undefined, errors)
    const hash = await hashPassword(fresh, p.ip)
    // Guarded: two racing posts set one password; the second finds one set and changes nothing.
    if (!setFirstPassword({ ctx: people, input: { userId: user.id, passwordHash: hash, keepSession: session.id } }))
      return seeOther(set, '/admin/account')
    const opened = rotateSession({ ctx: people, input: { session } })
    return signedInTo(set, opened, '/admin/account?done=password-set')
  }

  function account(
    p: PanelRequest,
    person: Person,
    set: Req['set'],
    status: number,
    message?: string,
    errors?: Record<string, string>,
    extra?: Record<string, string>,
  ) {
    const { user, session } = person
    const fresh = accountOf({ ctx: people, input: { userId: user.id } }) ?? user
    return render(
      p,
      set,
      status,
      (f) =>
        accountPage(f, {
          name: fresh.name,
          email: fresh.email,
          hasPassword: fresh.passwordHash !== null,
          language: fresh.language,
          notice: message,
          errors,
          passkeys: passkeysOf(people, user.id).map((k) => ({
            id: k.id,
            name: k.name,
            createdAt: iso(k.createdAt),
            lastUsedAt: k.lastUsedAt ? iso(k.lastUsedAt) : null,
          })),
          twoStep: { on: fresh.totpEnabledAt !== null, codesLeft: recoveryCodesLeft(people, user.id) },
          sessions: listSessions({ ctx: people, input: { userId: user.id } }).map((s) => ({
            id: s.id,
            device: deviceName(s.userAgent, f.w.account.unknownDevice),
            lastSeen: iso(s.lastSeenAt),
            network: s.ipPrefix,
            current: s.id === session.id,
          })),
          sections: [notificationsOf(env, f, user.id), accountAppsSection(env, user.id, f)],
        }),
      extra,
    )
  }

  /**
   * The new password checked by the people module's rules; its message goes into `errors` at the
   * new-password field and nothing is returned when it fails, or when another field already did.
   */
  function judgeNewPassword(w: Words, password: string | undefined, email: string, errors: Record<string, string>) {
    try {
      const checked = checkNewPassword(password, email)
      return Object.keys(errors).length ? undefined : checked
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e
      errors['new-password'] = passwordMessage(w, e)
      return undefined
    }
  }

  function notice(w: Words, done: string | undefined): string | undefined {
    return done === 'saved'
      ? w.common.saved
      : done === 'password'
        ? w.account.passwordChanged
        : done === 'passkey'
          ? w.account.passkeyAdded
          : done === 'password-set'
            ? w.signin.passwordSet
            : undefined
  }
}
