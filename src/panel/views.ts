/**
 * The panel's pages as functions of what the verbs return. Every piece of stored text (names,
 * e-mails, store names) goes through `html` (escaped). Forms POST and work without the script;
 * each form of a signed-in person carries the session's form token (`_csrf`).
 */
import type { Role } from '../db/schema'
import { roleHas, type PanelNeed } from '../modules/people'
import { escapeHtml, html, raw, type Html } from '../shop/html'
import type { PanelAssets } from './assets'
import type { PanelLanguage, PanelWords } from './i18n'
import { PANEL_LANGUAGES, panelWords } from './i18n'
import { NAV } from './nav'

export interface FramePerson {
  name: string
  email: string
  formToken: string
  stores: { storeId: string; name: string; role: Role }[]
  storeId?: string
  storeName?: string
  role?: Role
}

export interface Frame {
  w: PanelWords
  lang: PanelLanguage
  assets: PanelAssets
  /** The request's path, for aria-current. */
  path: string
  person?: FramePerson
  /** A form token without a signed-in person (the two-step page's pending session). */
  formToken?: string
  /** Counts shown on navigation links: reviews waiting for approval. */
  badges?: { reviews?: number }
}

export const can = (f: Frame, need: PanelNeed): boolean => {
  const role = f.person?.role
  if (!role) return false
  return need === 'member' || need === 'signedIn' || need === 'anonymous' || roleHas(role, need)
}

const tokenField = (f: Frame) => {
  const t = f.person?.formToken ?? f.formToken
  return t ? html`<input type="hidden" name="_csrf" value="${t}">` : ''
}

/** A POST form with the token; `attrs` is markup the code itself wrote. */
export const form = (f: Frame, action: string, body: Html | Html[], attrs = ''): Html =>
  html`<form method="post" action="${action}"${raw(attrs ? ' ' + attrs : '')}>${tokenField(f)}${body}</form>`

function header(f: Frame): Html {
  const p = f.person
  if (!p) return html`<header class="top"><span class="brand">${f.w.panel}</span></header>`
  const switcher =
    p.stores.length > 1
      ? form(
          f,
          '/admin/store',
          html`<label for="store-switch">${f.w.store}</label>
            <select id="store-switch" name="storeId">${p.stores.map((s) => html`<option value="${s.storeId}"${raw(s.storeId === p.storeId ? ' selected' : '')}>${s.name}</option>`)}</select>
            <button type="submit" class="secondary">${f.w.switchStore}</button>`,
        )
      : p.storeName
        ? html`<span class="brand">${p.storeName}</span>`
        : html`<span class="brand">${f.w.panel}</span>`
  return html`<header class="top">
    ${switcher}
    <div class="actions">
      <a href="/admin/account"${raw(f.path === '/admin/account' ? ' aria-current="page"' : '')}>${f.w.account}</a>
      ${form(f, '/admin/logout', html`<button type="submit" class="secondary">${f.w.signOut}</button>`)}
    </div>
  </header>`
}

function nav(f: Frame): Html | '' {
  if (!f.person?.role) return ''
  const items = NAV.filter((n) => can(f, n.need))
  return html`<nav class="nav" aria-label="${f.w.nav}"><ul>${items.map(
    (n) => {
      const count = n.key === 'reviews' ? f.badges?.reviews : undefined
      // The count is part of the link's name, said in words: "Reviews, 3 waiting for approval".
      const badge = count ? html` <span class="badge" aria-hidden="true">${count}</span><span class="sr-only">, ${f.w.pendingReviews.replace('{n}', String(count))}</span>` : ''
      return html`<li><a href="${n.path}"${raw(f.path === n.path ? ' aria-current="page"' : '')}>${f.w[n.key]}${badge}</a></li>`
    },
  )}</ul></nav>`
}

export function layout(f: Frame, title: string, body: Html, opts: { narrow?: boolean } = {}): string {
  return `<!doctype html>${html`<html lang="${f.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · ${f.w.panel}</title>
<link rel="stylesheet" href="${f.assets.css.url}">
<link rel="icon" href="${f.assets.icon.url}">
<script type="module" src="${f.assets.js.url}"></script>
</head>
<body>
<a class="skip" href="#main">${f.w.skip}</a>
${header(f)}
${nav(f)}
<main id="main"${raw(opts.narrow ? ' class="narrow"' : '')}>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.value}`
}

const errorLine = (id: string, text: string | undefined) => (text ? html`<p id="${id}" class="error" role="alert">${text}</p>` : '')

// ---------------------------------------------------------------- sign-in

export function loginPage(f: Frame, opts: { email?: string; error?: string; passkeys: boolean; next?: string }): string {
  const w = f.w
  const described = opts.error ? raw(' aria-describedby="login-error" aria-invalid="true"') : ''
  return layout(
    f,
    w.signInTitle,
    html`${errorLine('login-error', opts.error)}
    <section>
      <form method="post" action="/admin/login">
        ${tokenField(f)}
        ${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
        <label for="email">${w.email}</label>
        <input id="email" name="email" type="email" autocomplete="username webauthn" required value="${opts.email ?? ''}"${described}>
        <label for="password">${w.password}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required${described}>
        <button type="submit">${w.signIn}</button>
      </form>
      ${opts.passkeys ? html`<button type="button" id="passkey-signin" class="secondary" data-failed="${w.passkeyFailed}" hidden>${w.signInPasskey}</button><p id="passkey-status" class="error" role="status"></p>` : ''}
    </section>`,
    { narrow: true },
  )
}

export function twoStepPage(f: Frame, opts: { error?: string }): string {
  const w = f.w
  return layout(
    f,
    w.twoStepTitle,
    html`${errorLine('code-error', opts.error)}
    <section>
      ${form(
        f,
        '/admin/login/two-step',
        html`<p id="code-hint">${w.twoStepIntro}</p>
        <label for="code">${w.code}</label>
        <input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" required aria-describedby="code-hint${opts.error ? ' code-error' : ''}"${raw(opts.error ? ' aria-invalid="true"' : '')}>
        <button type="submit">${w.verify}</button>`,
      )}
      ${form(f, '/admin/logout', html`<button type="submit" class="secondary">${w.cancel}</button>`)}
    </section>`,
    { narrow: true },
  )
}

export interface PasswordFormOpts {
  error?: string
  field?: 'name' | 'password' | 'email' | 'storeName'
  name?: string
}

const passwordField = (f: Frame, id: string, label: string, error?: string) =>
  html`<label for="${id}">${label}</label>
  <input id="${id}" name="password" type="password" autocomplete="new-password" required aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"${raw(error ? ' aria-invalid="true"' : '')}>
  <p id="${id}-hint" class="hint">${f.w.passwordHint}</p>
  ${errorLine(`${id}-error`, error)}`

const nameField = (f: Frame, value: string | undefined, error?: string) =>
  html`<label for="name">${f.w.yourName}</label>
  <input id="name" name="name" type="text" autocomplete="name" required value="${value ?? ''}"${raw(error ? ' aria-invalid="true" aria-describedby="name-error"' : '')}>
  ${errorLine('name-error', error)}`

/** An invitation, a reset or a sign-in link, opened. */
export function linkPage(
  f: Frame,
  link: { kind: 'invite' | 'reset' | 'signin'; token: string; email: string; storeName: string | null; existing: boolean; name?: string | null },
  opts: PasswordFormOpts = {},
): string {
  const w = f.w
  const action = `/admin/join?token=${encodeURIComponent(link.token)}`
  if (link.kind === 'signin') {
    return layout(f, w.signInLinkTitle, html`<section>${form(f, action, html`<p>${w.signInLinkIntro(link.email)}</p><button type="submit">${w.continue}</button>`)}</section>`, { narrow: true })
  }
  if (link.kind === 'reset') {
    return layout(f, w.resetTitle, html`<section>${form(f, action, html`<p>${link.email}</p>${passwordField(f, 'new-password', w.newPassword, opts.error)}<button type="submit">${w.continue}</button>`)}</section>`, { narrow: true })
  }
  const title = w.joinTitle(link.storeName ?? '')
  const body = link.existing
    ? html`<p>${w.existingAccount(link.email)}</p>
      <label for="password">${w.password}</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required${raw(opts.error ? ' aria-invalid="true" aria-describedby="password-error"' : '')}>
      ${errorLine('password-error', opts.error)}
      <button type="submit">${w.continue}</button>`
    : html`<p>${link.email}</p>
      ${nameField(f, opts.name ?? link.name ?? '', opts.field === 'name' ? opts.error : undefined)}
      ${passwordField(f, 'new-password', w.newPassword, opts.field === 'password' ? opts.error : undefined)}
      <button type="submit">${w.continue}</button>`
  return layout(f, title, html`<section>${form(f, action, body)}</section>`, { narrow: true })
}

export function setupPage(f: Frame, token: string, opts: PasswordFormOpts & { storeName?: string; email?: string } = {}): string {
  const w = f.w
  const err = (field: PasswordFormOpts['field']) => (opts.field === field ? opts.error : undefined)
  return layout(
    f,
    w.setupTitle,
    html`<p>${w.setupIntro}</p><section>${form(
      f,
      `/admin/setup?token=${encodeURIComponent(token)}`,
      html`<label for="store-name">${w.storeName}</label>
      <input id="store-name" name="storeName" type="text" required value="${opts.storeName ?? ''}"${raw(err('storeName') ? ' aria-invalid="true" aria-describedby="store-name-error"' : '')}>
      ${errorLine('store-name-error', err('storeName'))}
      ${nameField(f, opts.name, err('name'))}
      <label for="email">${w.email}</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${opts.email ?? ''}"${raw(err('email') ? ' aria-invalid="true" aria-describedby="email-error"' : '')}>
      ${errorLine('email-error', err('email'))}
      ${passwordField(f, 'new-password', w.password, err('password'))}
      <button type="submit">${w.createStore}</button>`,
    )}</section>`,
    { narrow: true },
  )
}

// ---------------------------------------------------------------- messages

export function messagePage(f: Frame, title: string, text: string, extra: Html | '' = ''): string {
  return layout(f, title, html`<p>${text}</p>${extra}`, { narrow: true })
}

export const forbiddenPage = (f: Frame, text = f.w.forbiddenText) =>
  messagePage(f, f.w.forbiddenTitle, text, f.person?.role ? html`<p><a href="/admin">${f.w.backToDashboard}</a></p>` : '')

export function suspendedPage(f: Frame, store: { name: string; suspendedReason: string | null }, upgradeUrl: string): string {
  const w = f.w
  return layout(
    f,
    w.suspendedTitle,
    html`<section><p>${w.suspendedText(store.name)}</p>${store.suspendedReason ? html`<p>${w.suspendedReason(store.suspendedReason)}</p>` : ''}
    <p><a class="button" href="${upgradeUrl}">${w.upgrade}</a></p></section>`,
  )
}

// ---------------------------------------------------------------- dashboard and placeholders

export interface DashboardData {
  currency: string
  periods: { label: string; orders: number; revenue: string }[]
  activeProducts: number
  shopUrl: string | null
}

export function dashboardPage(f: Frame, d: DashboardData): string {
  const w = f.w
  return layout(
    f,
    w.dashboardTitle,
    html`<div class="stats">${d.periods.map(
      (p) => html`<div class="stat"><h2>${p.label}</h2><p>${w.ordersCount}: <strong>${p.orders}</strong></p><p>${w.revenue}: <strong>${p.revenue}</strong></p></div>`,
    )}<div class="stat"><h2>${w.activeProducts}</h2><strong>${d.activeProducts}</strong></div></div>
    ${d.shopUrl ? html`<p><a href="${d.shopUrl}">${w.openShop}</a></p>` : ''}`,
  )
}

export const comingSoonPage = (f: Frame, title: string) => layout(f, title, html`<p>${f.w.comingSoon}</p>`)

// ---------------------------------------------------------------- account

export interface AccountData {
  name: string
  email: string
  language: PanelLanguage | null
  notice?: string
  errors?: { profile?: string; password?: string }
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
  twoStep: { on: boolean; codesLeft: number }
  sessions: { id: string; device: string; lastSeen: string; network: string | null; current: boolean }[]
}

export function accountPage(f: Frame, a: AccountData): string {
  const w = f.w
  const langOption = (l: PanelLanguage | '') =>
    html`<option value="${l}"${raw((a.language ?? '') === l ? ' selected' : '')}>${l ? panelWords(l).languageName : w.languageAuto}</option>`
  return layout(
    f,
    w.accountTitle,
    html`${a.notice ? html`<p class="notice" role="status">${a.notice}</p>` : ''}
    <section aria-labelledby="profile-h"><h2 id="profile-h">${w.profile}</h2>
      ${form(
        f,
        '/admin/account/profile',
        html`<p>${a.email}</p>
        <label for="name">${w.name}</label>
        <input id="name" name="name" type="text" autocomplete="name" required value="${a.name}"${raw(a.errors?.profile ? ' aria-invalid="true" aria-describedby="profile-error"' : '')}>
        ${errorLine('profile-error', a.errors?.profile)}
        <label for="language">${w.language}</label>
        <select id="language" name="language">${langOption('')}${PANEL_LANGUAGES.map(langOption)}</select>
        <button type="submit">${w.save}</button>`,
      )}
    </section>
    <section aria-labelledby="password-h"><h2 id="password-h">${w.changePassword}</h2>
      ${form(
        f,
        '/admin/account/password',
        html`<label for="current-password">${w.currentPassword}</label>
        <input id="current-password" name="current" type="password" autocomplete="current-password" required>
        ${passwordField(f, 'new-password', w.newPassword, a.errors?.password)}
        <button type="submit">${w.changePassword}</button>`,
      )}
    </section>
    <section aria-labelledby="passkeys-h"><h2 id="passkeys-h">${w.passkeys}</h2>
      ${a.passkeys.length === 0 ? html`<p>${w.noPasskeys}</p>` : html`<ul>${a.passkeys.map((p) => html`<li class="actions">${p.name} ${form(f, `/admin/account/passkeys/${encodeURIComponent(p.id)}/delete`, html`<button type="submit" class="danger" aria-label="${w.removePasskey(p.name)}">${w.remove}</button>`)}</li>`)}</ul>`}
      <p id="passkey-nojs" class="hint">${w.passkeysNeedJs}</p>
      ${form(
        f,
        '/admin/account/passkeys',
        html`<label for="passkey-name">${w.passkeyName}</label>
        <input id="passkey-name" name="name" type="text" maxlength="60" value="Passkey">
        <button type="submit">${w.addPasskey}</button>
        <p id="passkey-add-status" class="error" role="status"></p>`,
        `id="passkey-add" data-failed="${escapeHtml(f.w.passkeyFailed)}" hidden`,
      )}
    </section>
    <section aria-labelledby="two-step-h"><h2 id="two-step-h">${w.twoStep}</h2>
      ${a.twoStep.on
        ? html`<p>${w.twoStepOn} ${w.recoveryLeft(a.twoStep.codesLeft)}</p>${form(f, '/admin/account/two-step/disable', html`<button type="submit" class="danger">${w.disableTwoStep}</button>`)}`
        : html`<p>${w.twoStepOff}</p>${form(f, '/admin/account/two-step', html`<button type="submit">${w.enableTwoStep}</button>`)}`}
    </section>
    <section aria-labelledby="devices-h"><h2 id="devices-h">${w.devices}</h2>
      <div class="table"><table>
        <thead><tr><th scope="col">${w.device}</th><th scope="col">${w.lastSeen}</th><th scope="col">${w.network}</th><th scope="col"><span class="sr-only">${w.end}</span></th></tr></thead>
        <tbody>${a.sessions.map(
          (s) => html`<tr><td>${s.device}${s.current ? html` <strong>(${w.thisDevice})</strong>` : ''}</td><td><time datetime="${s.lastSeen}">${s.lastSeen.slice(0, 16).replace('T', ' ')}</time></td><td>${s.network ?? '-'}</td>
          <td>${s.current ? '' : form(f, `/admin/account/sessions/${encodeURIComponent(s.id)}/end`, html`<button type="submit" class="secondary" aria-label="${w.endDevice(s.device)}">${w.end}</button>`)}</td></tr>`,
        )}</tbody>
      </table></div>
      ${a.sessions.length > 1 ? form(f, '/admin/account/sessions/end-others', html`<button type="submit" class="danger">${w.endOthers}</button>`) : ''}
    </section>`,
  )
}

export function totpSetupPage(f: Frame, setup: { secret: string; uri: string }, error?: string): string {
  const w = f.w
  return layout(
    f,
    w.totpSetupTitle,
    html`<section><p>${w.totpSetupIntro}</p>
      <p><strong>${w.totpKey}</strong></p>
      <p><code id="totp-secret" class="secret">${setup.secret}</code></p>
      <p class="actions"><button type="button" class="secondary" data-copy="totp-secret" data-done="${w.copied}" hidden>${w.copy}</button><span id="totp-secret-status" role="status"></span></p>
      <p><a href="${setup.uri}">${w.totpLink}</a></p>
      ${errorLine('code-error', error)}
      ${form(
        f,
        '/admin/account/two-step/confirm',
        html`<label for="code">${w.code}</label>
        <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" required${raw(error ? ' aria-invalid="true" aria-describedby="code-error"' : '')}>
        <button type="submit">${w.verify}</button>`,
      )}
    </section>`,
  )
}

export function recoveryCodesPage(f: Frame, codes: string[]): string {
  const w = f.w
  return layout(
    f,
    w.recoveryTitle,
    html`<section><p>${w.recoveryIntro}</p>
      <ul id="recovery-codes" class="codes">${codes.map((c) => html`<li>${c}</li>`)}</ul>
      <p class="actions"><button type="button" class="secondary" data-copy="recovery-codes" data-done="${w.copied}" hidden>${w.copy}</button><span id="recovery-codes-status" role="status"></span></p>
      <p><a class="button" href="/admin/account">${w.done}</a></p>
    </section>`,
  )
}

// ---------------------------------------------------------------- team

export interface TeamData {
  members: { id: string; userId: string; email: string; name: string; role: Role; lastSignInAt: string | null }[]
  pending: { id: string; email: string; role: Role; expiresAt: string }[]
  myUserId: string
  error?: string
  email?: string
}

export function teamPage(f: Frame, t: TeamData): string {
  const w = f.w
  const roleSelect = (id: string, label: string, value: Role) =>
    html`<label for="${id}" class="sr-only">${label}</label><select id="${id}" name="role">${(['owner', 'staff', 'viewer'] as const).map(
      (r) => html`<option value="${r}"${raw(r === value ? ' selected' : '')}>${w.roles[r]}</option>`,
    )}</select>`
  return layout(
    f,
    w.teamTitle,
    html`${errorLine('team-error', t.error)}
    <section aria-labelledby="members-h"><h2 id="members-h">${w.teamTitle}</h2>
    <div class="table"><table>
      <thead><tr><th scope="col">${w.name}</th><th scope="col">${w.role}</th><th scope="col">${w.lastSignIn}</th><th scope="col"><span class="sr-only">${w.remove}</span></th></tr></thead>
      <tbody>${t.members.map((m) => {
        const who = m.name || m.email
        return html`<tr><td>${m.name}<br><span class="hint">${m.email}</span></td>
        <td>${form(f, `/admin/team/${encodeURIComponent(m.id)}/role`, html`<div class="inline">${roleSelect(`role-${m.id}`, w.changeRoleOf(who), m.role)}<button type="submit" class="secondary">${w.changeRole}</button></div>`)}</td>
        <td>${m.lastSignInAt ? html`<time datetime="${m.lastSignInAt}">${m.lastSignInAt.slice(0, 10)}</time>` : w.never}</td>
        <td>${form(f, `/admin/team/${encodeURIComponent(m.id)}/remove`, html`<button type="submit" class="danger" aria-label="${w.removeMember(who)}">${w.remove}</button>`)}</td></tr>`
      })}</tbody>
    </table></div></section>
    ${t.pending.length
      ? html`<section aria-labelledby="pending-h"><h2 id="pending-h">${w.pendingInvitations}</h2><div class="table"><table>
        <thead><tr><th scope="col">${w.email}</th><th scope="col">${w.role}</th><th scope="col">${w.expires}</th><th scope="col"><span class="sr-only">${w.revoke}</span></th></tr></thead>
        <tbody>${t.pending.map(
          (i) => html`<tr><td>${i.email}</td><td>${w.roles[i.role]}</td><td><time datetime="${i.expiresAt}">${i.expiresAt.slice(0, 16).replace('T', ' ')}</time></td>
          <td>${form(f, `/admin/team/invitations/${encodeURIComponent(i.id)}/revoke`, html`<button type="submit" class="secondary" aria-label="${w.revokeInvitation(i.email)}">${w.revoke}</button>`)}</td></tr>`,
        )}</tbody></table></div></section>`
      : ''}
    <section aria-labelledby="invite-h"><h2 id="invite-h">${w.invitePerson}</h2>
      ${form(
        f,
        '/admin/team/invite',
        html`<label for="invite-email">${w.email}</label>
        <input id="invite-email" name="email" type="email" required value="${t.email ?? ''}">
        <label for="invite-name">${w.nameOptional}</label>
        <input id="invite-name" name="name" type="text">
        <label for="invite-role">${w.role}</label>
        <select id="invite-role" name="role">${(['staff', 'viewer', 'owner'] as const).map((r) => html`<option value="${r}">${w.roles[r]}</option>`)}</select>
        <button type="submit">${w.invite}</button>`,
      )}
    </section>`,
  )
}

export function inviteReadyPage(f: Frame, i: { email: string; url: string; storeName: string }): string {
  const w = f.w
  const share = `https://wa.me/?text=${encodeURIComponent(w.whatsappInvite(i.storeName, i.url))}`
  return layout(
    f,
    w.inviteReady,
    html`<section><p>${w.inviteLinkIntro(i.email)}</p>
      <label for="invite-link">${w.inviteLink}</label>
      <input id="invite-link" type="text" readonly value="${i.url}">
      <p class="actions">
        <button type="button" class="secondary" data-copy="invite-link" data-done="${w.copied}" hidden>${w.copyLink}</button>
        <a class="button" href="${share}" rel="noopener noreferrer">${w.shareWhatsapp}</a>
        <span id="invite-link-status" role="status"></span>
      </p>
      <p><a href="/admin/team">${w.teamTitle}</a></p>
    </section>`,
  )
}

// ---------------------------------------------------------------- activity

export interface ActivityData {
  rows: { seq: number; at: string; who: string; verb: string; recordType: string; recordId: string | null }[]
  actors: { value: string; label: string }[]
  recordTypes: string[]
  actor?: string
  recordType?: string
  olderHref?: string
}

export function activityPage(f: Frame, a: ActivityData): string {
  const w = f.w
  return layout(
    f,
    w.activityTitle,
    html`<form method="get" action="/admin/activity" class="inline">
      <div><label for="actor">${w.person}</label><select id="actor" name="actor"><option value="">${w.anyone}</option>${a.actors.map(
        (o) => html`<option value="${o.value}"${raw(o.value === a.actor ? ' selected' : '')}>${o.label}</option>`,
      )}</select></div>
      <div><label for="record">${w.record}</label><select id="record" name="record"><option value="">${w.anyRecord}</option>${a.recordTypes.map(
        (r) => html`<option value="${r}"${raw(r === a.recordType ? ' selected' : '')}>${r}</option>`,
      )}</select></div>
      <button type="submit" class="secondary">${w.filter}</button>
    </form>
    ${a.rows.length === 0
      ? html`<p>${w.noActivity}</p>`
      : html`<div class="table"><table><thead><tr><th scope="col">${w.when}</th><th scope="col">${w.person}</th><th scope="col">${w.what}</th><th scope="col">${w.record}</th></tr></thead>
      <tbody>${a.rows.map(
        (r) => html`<tr><td><time datetime="${r.at}">${r.at.slice(0, 16).replace('T', ' ')}</time></td><td>${r.who}</td><td>${r.verb}</td><td>${r.recordType}${r.recordId ? html` <code>${r.recordId}</code>` : ''}</td></tr>`,
      )}</tbody></table></div>`}
    ${a.olderHref ? html`<p><a href="${a.olderHref}">${w.older}</a></p>` : ''}`,
  )
}
