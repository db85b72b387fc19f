/** The account page: name, password, passkeys, two-step and its recovery codes, devices. */
import { escapeHtml, html, raw, type Html } from '../../shop/html'
import { type Frame, copyButton, copyStatus, form, layout, errorLine, submitFor } from './frame'
import { banner, described, errorAt } from '../pages/controls'
import { qrCode } from './qr'
import { shownAt } from './time'
import { panelWords, type PanelLanguage, PANEL_LANGUAGES } from '../words'

export interface AccountData {
  name: string
  email: string
  /** False: signed in by one-time links only; the page offers "Set a password" instead of a change. */
  hasPassword: boolean
  language: PanelLanguage | null
  notice?: string
  /** The posted form's messages by control id (`name`, `current-password`, `new-password`, `new-password-2`). */
  errors?: Record<string, string>
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[]
  twoStep: { on: boolean; codesLeft: number }
  sessions: { id: string; device: string; lastSeen: string; network: string | null; current: boolean }[]
  /** Sections other areas add (connected apps: apps-routes.ts). */
  sections?: Html[]
}

export function accountPage(f: Frame, a: AccountData): string {
  const w = f.w
  const langOption = (l: PanelLanguage | '') =>
    html`<option value="${l}"${raw((a.language ?? '') === l ? ' selected' : '')}>${
      l ? panelWords(l).shell.languageName : w.account.languageAuto
    }</option>`
  const e = a.errors ?? {}
  return layout(
    f,
    w.account.accountTitle,
    html`${a.notice ? html`<p class="notice" role="status">${a.notice}</p>` : ''}${banner(f.w, undefined, e)}
    <section aria-labelledby="profile-h"><h2 id="profile-h">${w.account.profile}</h2>
      ${form(
        f,
        '/admin/account/profile',
        html`<p>${a.email}</p>
        <label for="name">${w.common.name}</label>
        <input id="name" name="name" type="text" autocomplete="name" required
          value="${a.name}"${described('name', undefined, e.name)}>
        ${errorAt('name', e.name)}
        <label for="language">${w.account.language}</label>
        <select id="language" name="language">${langOption('')}${PANEL_LANGUAGES.map(langOption)}</select>
        <button type="submit">${w.common.save}</button>`,
      )}
    </section>
    ${
      a.hasPassword
        ? html`<section aria-labelledby="password-h"><h2 id="password-h">${w.account.changePassword}</h2>
      ${form(
        f,
        '/admin/account/password',
        html`${secret('current-password', 'current', w.account.currentPassword, 'current-password', e)}
        ${secret('new-password', 'password', w.signin.newPassword, 'new-password', e, w.signin.passwordHint)}
        <button type="submit">${w.account.changePassword}</button>`,
      )}
    </section>`
        : html`<section aria-labelledby="password-h"><h2 id="password-h">${w.signin.setPassword}</h2>
      <p>${w.signin.setPasswordIntro}</p>
      ${form(
        f,
        '/admin/account/password',
        html`${secret('new-password', 'password', w.signin.newPassword, 'new-password', e, w.signin.passwordHint)}
        ${secret('new-password-2', 'password2', w.signin.repeatPassword, 'new-password', e)}
        <button type="submit">${w.signin.setPassword}</button>`,
      )}
    </section>`
    }
    <section aria-labelledby="passkeys-h"><h2 id="passkeys-h">${w.account.passkeys}</h2>
      ${
        a.passkeys.length === 0
          ? html`<p>${w.account.noPasskeys}</p>`
          : html`<ul>${a.passkeys.map(
              (p) =>
                html`<li class="actions">${p.name} ${form(
                  f,
                  `/admin/account/passkeys/${encodeURIComponent(p.id)}/delete`,
                  submitFor('danger', w.account.removePasskey(p.name), w.common.remove),
                )}</li>`,
            )}</ul>`
      }
      <p id="passkey-nojs" class="hint">${w.account.passkeysNeedJs}</p>
      ${form(
        f,
        '/admin/account/passkeys',
        html`<label for="passkey-name">${w.account.passkeyName}</label>
        <input id="passkey-name" name="name" type="text" maxlength="60" value="Passkey">
        <button type="submit">${w.account.addPasskey}</button>
        <p id="passkey-add-status" class="error" role="status"></p>`,
        `id="passkey-add" data-failed="${escapeHtml(f.w.signin.passkeyFailed)}" hidden`,
      )}
    </section>
    <section aria-labelledby="two-step-h"><h2 id="two-step-h">${w.signin.twoStep}</h2>
      ${
        a.twoStep.on
          ? html`<p>${w.account.twoStepOn} ${w.account.recoveryLeft(a.twoStep.codesLeft)}</p>${form(
              f,
              '/admin/account/two-step/disable',
              html`<button type="submit" class="danger">${w.account.disableTwoStep}</button>`,
            )}`
          : html`<p>${w.account.twoStepOff}</p>${form(
              f,
              '/admin/account/two-step',
              html`<button type="submit">${w.account.enableTwoStep}</button>`,
            )}`
      }
    </section>
    <section aria-labelledby="devices-h"><h2 id="devices-h">${w.account.devices}</h2>
      <div class="table"><table>
        <thead><tr><th scope="col">${w.account.device}</th><th scope="col">${w.account.lastSeen}</th>
        <th scope="col">${w.account.network}</th>
        <th scope="col"><span class="sr-only">${w.shell.signOut}</span></th></tr></thead>
        <tbody>${a.sessions.map(
          (s) => html`<tr><td>${s.device}${
            s.current ? html` <strong>(${w.account.thisDevice})</strong>` : ''
          }</td><td><time datetime="${s.lastSeen}">${shownAt(f, s.lastSeen)}</time></td><td>${s.network ?? '-'}</td>
          <td>${
            s.current
              ? ''
              : form(
                  f,
                  `/admin/account/sessions/${encodeURIComponent(s.id)}/end`,
                  submitFor('secondary', w.account.endDevice(s.device), w.shell.signOut),
                )
          }</td></tr>`,
        )}</tbody>
      </table></div>
      ${
        a.sessions.length > 1
          ? form(
              f,
              '/admin/account/sessions/end-others',
              html`<button type="submit" class="danger">${w.account.endOthers}</button>`,
            )
          : ''
      }
    </section>
    ${a.sections ?? ''}`,
  )
}

/** A password control with its hint and its message, tied to it (aria-describedby, aria-invalid). */
function secret(
  id: string,
  name: string,
  label: string,
  autocomplete: string,
  e: Record<string, string>,
  hint?: string,
) {
  return html`<label for="${id}">${label}</label>
        <input id="${id}" name="${name}" type="password" autocomplete="${autocomplete}"
          required${described(id, hint, e[id])}>
        ${hint ? html`<p id="${id}-hint" class="hint">${hint}</p>` : ''}${errorAt(id, e[id])}`
}

export function totpSetupPage(f: Frame, setup: { secret: string; uri: string }, error?: string): string {
  const w = f.w
  return layout(
    f,
    w.account.enableTwoStep,
    html`<section><p>${w.account.totpSetupIntro}</p>
      <figure>${qrCode(setup.uri, w.account.totpQr, { id: 'totp-qr-title', cache: false })}</figure>
      <p><strong>${w.account.totpKey}</strong></p>
      <p><code id="totp-secret" class="secret">${setup.secret}</code></p>
      <p class="actions">${copyButton('totp-secret', w.common.copied, w.common.copy)}${copyStatus('totp-secret')}</p>
      <p><a href="${setup.uri}">${w.account.totpLink}</a></p>
      ${errorLine('code-error', error)}
      ${form(
        f,
        '/admin/account/two-step/confirm',
        html`<label for="code">${w.common.code}</label>
        <input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code"
          required${raw(error ? ' aria-invalid="true" aria-describedby="code-error"' : '')}>
        <button type="submit">${w.signin.verify}</button>`,
      )}
    </section>`,
  )
}

export function recoveryCodesPage(f: Frame, codes: string[]): string {
  const w = f.w
  const copyCodes = html`${copyButton('recovery-codes', w.common.copied, w.common.copy)}${copyStatus('recovery-codes')}`
  return layout(
    f,
    w.account.recoveryTitle,
    html`<section><p>${w.account.recoveryIntro}</p>
      <ul id="recovery-codes" class="codes">${codes.map((c) => html`<li>${c}</li>`)}</ul>
      <p class="actions">${copyCodes}</p>
      <p><a class="button" href="/admin/account">${w.common.done}</a></p>
    </section>`,
  )
}

// ---------------------------------------------------------------- team
