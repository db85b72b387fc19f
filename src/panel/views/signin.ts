/** Signing in: the sign-in and two-step pages, opened links (invitation, reset, sign-in) and first-run setup. */
import { html, raw } from '../../shop/html'
import { type Frame, tokenField, form, layout, errorLine } from './frame'

/** ` aria-invalid` and the error's id, when the field was refused (its message sits at `<id>-error`). */
const invalidWith = (id: string, error: string | undefined) =>
  raw(error ? ` aria-invalid="true" aria-describedby="${id}-error"` : '')
/** The field's hint, and its error when it was refused. */
const hintedWith = (id: string, error: string | undefined) =>
  raw(` aria-describedby="${id}-hint${error ? ` ${id}-error` : ''}"${error ? ' aria-invalid="true"' : ''}`)
export function loginPage(
  f: Frame,
  opts: { email?: string; error?: string; passkeys: boolean; next?: string },
): string {
  const w = f.w
  const described = opts.error ? raw(' aria-describedby="login-error" aria-invalid="true"') : ''
  const email = opts.email ?? ''
  const emailAttrs = raw('type="email" autocomplete="username webauthn" required')
  const passkeyAttrs = html`id="passkey-signin" class="secondary" data-failed="${w.signin.passkeyFailed}" hidden`
  const passkeyButton = html`<button type="button" ${passkeyAttrs}>${w.signin.signInPasskey}</button>`
  return layout(
    f,
    w.signin.signIn,
    html`${errorLine('login-error', opts.error)}
    <section>
      <form method="post" action="/admin/login">
        ${tokenField(f)}
        ${opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''}
        <label for="email">${w.signin.email}</label>
        <input id="email" name="email" ${emailAttrs} value="${email}"${described}>
        <label for="password">${w.signin.password}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required${described}>
        <button type="submit">${w.signin.signIn}</button>
      </form>
      ${opts.passkeys ? html`${passkeyButton}<p id="passkey-status" class="error" role="status"></p>` : ''}
    </section>
    <details><summary>${w.signin.cantSignIn}</summary>
      <p>${w.signin.cantSignInMember}</p>
      <p>${w.signin.cantSignInOwner}</p>
      <p><code class="secret">bun run admin user:reset --email &lt;e-mail&gt;</code></p>
    </details>`,
    { narrow: true },
  )
}

export function twoStepPage(f: Frame, opts: { error?: string; next?: string }): string {
  const w = f.w
  const codeHinted = hintedWith('code', opts.error)
  return layout(
    f,
    w.signin.twoStep,
    html`${errorLine('code-error', opts.error)}
    <section>
      ${form(
        f,
        '/admin/login/two-step',
        html`${
          opts.next ? html`<input type="hidden" name="next" value="${opts.next}">` : ''
        }<p id="code-hint">${w.signin.twoStepIntro}</p>
        <label for="code">${w.common.code}</label>
        <input id="code" name="code" type="text" inputmode="text" autocomplete="one-time-code" required${codeHinted}>
        <button type="submit">${w.signin.verify}</button>`,
      )}
      ${form(f, '/admin/logout', html`<button type="submit" class="secondary">${w.common.cancel}</button>`)}
    </section>`,
    { narrow: true },
  )
}

export interface PasswordFormOpts {
  error?: string
  field?: 'name' | 'password' | 'email' | 'storeName' | 'timezone'
  name?: string
}

export const passwordField = (f: Frame, id: string, label: string, error?: string) =>
  html`<label for="${id}">${label}</label>
  <input id="${id}" name="password" type="password" autocomplete="new-password" required${hintedWith(id, error)}>
  <p id="${id}-hint" class="hint">${f.w.signin.passwordHint}</p>
  ${errorLine(`${id}-error`, error)}`

const nameInvalid = (error: string | undefined) => invalidWith('name', error)

export const nameField = (f: Frame, value: string | undefined, error?: string) =>
  html`<label for="name">${f.w.signin.yourName}</label>
  <input id="name" name="name" type="text" autocomplete="name" required value="${value ?? ''}"${nameInvalid(error)}>
  ${errorLine('name-error', error)}`

/** An invitation, a reset or a sign-in link, opened. */
export function linkPage(
  f: Frame,
  link: {
    kind: 'invite' | 'reset' | 'signin'
    token: string
    email: string
    storeName: string | null
    existing: boolean
    account?: JoinAccount
    name?: string | null
  },
  opts: PasswordFormOpts = {},
): string {
  const w = f.w
  const action = `/admin/join?token=${encodeURIComponent(link.token)}`
  if (link.kind === 'signin') {
    return layout(
      f,
      w.signin.signIn,
      html`<section>${form(
        f,
        action,
        html`<p>${w.signin.signInLinkIntro(link.email)}</p><button type="submit">${w.signin.continue}</button>`,
      )}</section>`,
      { narrow: true },
    )
  }
  if (link.kind === 'reset') {
    return layout(
      f,
      w.signin.resetTitle,
      html`<section>${form(
        f,
        action,
        html`<p>${link.email}</p>${passwordField(
          f,
          'new-password',
          w.signin.newPassword,
          opts.error,
        )}<button type="submit">${w.signin.continue}</button>`,
      )}</section>`,
      { narrow: true },
    )
  }
  const title = w.signin.joinTitle(link.storeName ?? '')
  const account = link.account
  const acceptButton = html`<button type="submit">${w.signin.acceptInvite}</button>`
  const passwordInvalid = invalidWith('password', opts.error)
  const body = !link.existing
    ? form(
        f,
        action,
        html`<p>${link.email}</p>
      ${nameField(f, opts.name ?? link.name ?? '', opts.field === 'name' ? opts.error : undefined)}
      ${passwordField(f, 'new-password', w.signin.newPassword, opts.field === 'password' ? opts.error : undefined)}
      <button type="submit">${w.signin.continue}</button>`,
      )
    : account?.accept
      ? form(
          f,
          action,
          html`<p>${w.signin.acceptAs(link.email)}</p><input type="hidden" name="accept" value="1">${acceptButton}`,
        )
      : html`${account?.signedInAs ? html`<p>${w.signin.signedInAsOther(account.signedInAs, link.email)}</p>` : ''}
      ${
        account?.password !== false
          ? form(
              f,
              action,
              html`<p>${w.signin.existingAccount(link.email)}</p>
      <label for="password">${w.signin.password}</label>
      <input id="password" name="password" type="password" autocomplete="current-password" required${passwordInvalid}>
      ${errorLine('password-error', opts.error)}
      <button type="submit">${w.signin.continue}</button>`,
            )
          : ''
      }
      ${
        account?.passkey
          ? html`<p><a href="/admin/login?next=${encodeURIComponent(action)}">${w.signin.signInAnotherWay}</a></p>`
          : ''
      }
      ${
        account && !account.password && !account.passkey
          ? html`${errorLine('join-error', opts.error)}<p>${w.signin.joinNeedsSession(link.email)}</p>`
          : ''
      }`
  return layout(f, title, html`<section>${body}</section>`, { narrow: true })
}

/** How the invited person's existing account may take an invitation (never by setting its credentials). */
export interface JoinAccount {
  /** The request is signed in as the invited account: one button accepts. */
  accept: boolean
  /** The account has a password (asked here, then two-step when it is on). */
  password: boolean
  /** The account has a passkey (sign in with it, then come back). */
  passkey: boolean
  /** Signed in as someone else: their e-mail. */
  signedInAs?: string
}

export function setupPage(
  f: Frame,
  token: string,
  opts: PasswordFormOpts & { storeName?: string; email?: string; timezone?: string } = {},
): string {
  const w = f.w
  const err = (field: PasswordFormOpts['field']) => (opts.field === field ? opts.error : undefined)
  const email = opts.email ?? ''
  const emailInvalid = invalidWith('email', err('email'))
  const storeNameInvalid = invalidWith('store-name', err('storeName'))
  const zoneHinted = hintedWith('timezone', err('timezone'))
  const zoneAttrs = raw('autocomplete="off" autocapitalize="off" spellcheck="false" maxlength="64" data-browser-zone')
  return layout(
    f,
    w.setup.setupTitle,
    html`<p>${w.setup.setupIntro}</p><section>${form(
      f,
      `/admin/setup?token=${encodeURIComponent(token)}`,
      html`<label for="store-name">${w.settings.storeName}</label>
      <input id="store-name" name="storeName" type="text" required value="${opts.storeName ?? ''}"${storeNameInvalid}>
      ${errorLine('store-name-error', err('storeName'))}
      <label for="timezone">${w.settings.timezone}</label>
      <p id="timezone-hint" class="hint">${w.setup.storeZoneHint}</p>
      <input id="timezone" name="timezone" type="text" ${zoneAttrs} value="${opts.timezone ?? ''}"${zoneHinted}>
      ${errorLine('timezone-error', err('timezone'))}
      ${nameField(f, opts.name, err('name'))}
      <label for="email">${w.signin.email}</label>
      <input id="email" name="email" type="email" autocomplete="username" required value="${email}"${emailInvalid}>
      ${errorLine('email-error', err('email'))}
      ${passwordField(f, 'new-password', w.signin.password, err('password'))}
      <button type="submit">${w.setup.createStore}</button>`,
    )}</section>`,
    { narrow: true },
  )
}

// ---------------------------------------------------------------- messages
