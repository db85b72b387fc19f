/** The account page: name and language, password (or a first one), two-step with recovery codes, devices. */
import { Elysia } from 'elysia'
import { users } from '../db/schema'
import { inArray } from 'drizzle-orm'
import { ValidationError } from '../lib/errors'
import { iso } from '../lib/time'
import { access } from '../plugins/access'
import {
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
import type { PanelRequest } from './gate'
import type { PanelWords } from './i18n'
import { accountPage, recoveryCodesPage, totpSetupPage } from './views'

import { type Req, panelOf, field, seeOther, passwordMessage, minutes, deviceName } from './respond'
import type { PanelEnv } from './env'
import { notificationsOf, pushNotice } from './push/account'
import { confirmFirst } from './confirm'
import { accountAppsSection } from './apps-routes'

export function accountRoutes(env: PanelEnv) {
  const { db, limiter, people, render, signedInTo, hidden, issuerOf } = env
  const app = new Elysia({ name: 'accountRoutes' })
    .use(access)
    // ------------------------------------------------------------ account
    .get(
      '/admin/account',
      (c) =>
        account(
          panelOf(c),
          c.set as Req['set'],
          200,
          notice(panelOf(c).w, c.query.done) ?? pushNotice(panelOf(c).lang, c.query.done),
        ),
      {
        access: { panel: 'signedIn' },
        ...hidden,
      },
    )
    .post(
      '/admin/account/profile',
      (c) => {
        const p = panelOf(c)
        try {
          updateProfile({
            ctx: people,
            input: {
              userId: p.person!.user.id,
              name: field(c.body, 'name'),
              language: field(c.body, 'language') ?? '',
            },
          })
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          return account(p, c.set as Req['set'], 400, undefined, { profile: p.w.nameRequired })
        }
        return seeOther(c.set as Req['set'], '/admin/account?done=saved')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/password',
      async (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const { user, session } = p.person!
        if (!user.passwordHash) return firstPassword(c)
        // Counted before the hash, given back when it was right (people/throttle.ts).
        const { wait, ok } = await throttledCheck(limiter, p.ip, user.email, () =>
          verifyPassword(field(c.body, 'current') ?? '', user.passwordHash, p.ip),
        )
        if (wait > 0)
          return account(
            p,
            set,
            429,
            undefined,
            { password: p.w.tooManyAttempts(minutes(wait)) },
            { 'retry-after': String(wait) },
          )
        if (!ok) return account(p, set, 400, undefined, { password: p.w.wrongPassword })
        // The current password is this change's proof that it is them (confirm.ts).
        session.provedAt = recordProof({ ctx: people, input: { sessionId: session.id } })
        let hash: string
        try {
          hash = await hashPassword(checkNewPassword(field(c.body, 'password'), user.email), p.ip)
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          return account(p, set, 400, undefined, { password: passwordMessage(p.w, e) })
        }
        setPassword({ ctx: people, input: { userId: user.id, passwordHash: hash, keepSession: session.id } })
        const opened = rotateSession({ ctx: people, input: { session } })
        return signedInTo(set, opened, '/admin/account?done=password')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/sessions/end-others',
      (c) => {
        const p = panelOf(c)
        endOtherSessions({ ctx: people, input: { userId: p.person!.user.id, keep: p.person!.session.id } })
        return seeOther(c.set as Req['set'], '/admin/account')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/sessions/:id/end',
      (c) => {
        const p = panelOf(c)
        // Only the person's own sessions: another person's id ends nothing.
        endSession({ ctx: people, input: { userId: p.person!.user.id, sessionId: c.params.id } })
        return seeOther(c.set as Req['set'], '/admin/account')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/two-step',
      async (c) => {
        const held = await confirmFirst(env, c)
        if (held) return held
        const p = panelOf(c)
        const setup = startTotp({ ctx: people, input: { user: p.person!.user, issuer: issuerOf(p) } })
        return render(p, c.set as Req['set'], 200, (f) => totpSetupPage(f, setup))
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/two-step/confirm',
      (c) => {
        const p = panelOf(c)
        const set = c.set as Req['set']
        const { user, session } = p.person!
        let codes: string[]
        try {
          codes = confirmTotp({ ctx: people, input: { user, code: field(c.body, 'code') } })
        } catch (e) {
          if (!(e instanceof ValidationError)) throw e
          const setup = pendingTotp({ ctx: people, input: { user, issuer: issuerOf(p) } })
          if (!setup) return seeOther(set, '/admin/account')
          return render(p, set, 400, (f) => totpSetupPage(f, setup, f.w.wrongCode))
        }
        const opened = rotateSession({ ctx: people, input: { session } })
        return render(p, set, 200, (f) => recoveryCodesPage(f, codes), { 'set-cookie': sessionCookie(opened.token) })
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
    .post(
      '/admin/account/two-step/disable',
      async (c) => {
        const held = await confirmFirst(env, c)
        if (held) return held
        const p = panelOf(c)
        disableTotp({ ctx: people, input: { userId: p.person!.user.id } })
        const opened = rotateSession({ ctx: people, input: { session: p.person!.session } })
        return signedInTo(c.set as Req['set'], opened, '/admin/account?done=saved')
      },
      { access: { panel: 'signedIn' }, ...hidden },
    )
  return app

  /**
   * "Set a password" for a person who has none (signed in by a one-time link): the new password
   * twice, no current one, and only while the session's proof is recent (a sign-in by link counts).
   */
  async function firstPassword(c: Req) {
    const held = await confirmFirst(env, c)
    if (held) return held
    const p = panelOf(c)
    const set = c.set as Req['set']
    const { user, session } = p.person!
    const password = field(c.body, 'password')
    let hash: string
    try {
      const checked = checkNewPassword(password, user.email)
      if (field(c.body, 'password2') !== password)
        return account(p, set, 400, undefined, { password: p.w.passwordsDiffer })
      hash = await hashPassword(checked, p.ip)
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e
      return account(p, set, 400, undefined, { password: passwordMessage(p.w, e) })
    }
    // Guarded: two racing posts set one password; the second finds one set and changes nothing.
    if (!setFirstPassword({ ctx: people, input: { userId: user.id, passwordHash: hash, keepSession: session.id } }))
      return seeOther(set, '/admin/account')
    const opened = rotateSession({ ctx: people, input: { session } })
    return signedInTo(set, opened, '/admin/account?done=password-set')
  }

  function account(
    p: PanelRequest,
    set: Req['set'],
    status: number,
    message?: string,
    errors?: { profile?: string; password?: string },
    extra?: Record<string, string>,
  ) {
    const { user, session } = p.person!
    const fresh =
      db
        .select()
        .from(users)
        .where(inArray(users.id, [user.id]))
        .get() ?? user
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
            device: deviceName(s.userAgent, f.w.unknownDevice),
            lastSeen: iso(s.lastSeenAt),
            network: s.ipPrefix,
            current: s.id === session.id,
          })),
          sections: [notificationsOf(env, f, user.id), accountAppsSection(env, p, f)],
        }),
      extra,
    )
  }

  function notice(w: PanelWords, done: string | undefined): string | undefined {
    return done === 'saved'
      ? w.saved
      : done === 'password'
        ? w.passwordChanged
        : done === 'passkey'
          ? w.passkeyAdded
          : done === 'password-set'
            ? w.passwordSet
            : undefined
  }
}
