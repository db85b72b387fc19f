/** "Confirm it's you": the proofs the person has, each a form that re-posts the held request (panel/confirm.ts). */
import { escapeHtml, html, raw } from '../../shop/html'
import { type Frame, form, layout, errorLine } from './frame'

export interface ConfirmData {
  /** The held request's own URL: the proof goes there with its fields. */
  action: string
  held: [string, string][]
  password: boolean
  code: boolean
  passkey: boolean
  error?: { text: string; field: 'password' | 'code' }
}

export function confirmPage(f: Frame, d: ConfirmData): string {
  const w = f.w
  const held = d.held.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  const invalid = (which: 'password' | 'code') =>
    d.error?.field === which ? raw(` aria-invalid="true" aria-describedby="confirm-${which}-error"`) : ''
  const none = !d.password && !d.code && !d.passkey
  const passkeyStatus = html`<p id="confirm-passkey-status" class="error" role="status"></p>`
  return layout(
    f,
    w.signin.confirmTitle,
    html`<section><p>${w.signin.confirmIntro}</p>
    ${
      d.password
        ? form(
            f,
            d.action,
            html`${held}<label for="confirm-password">${w.signin.password}</label>
      <input id="confirm-password" name="confirm_password" type="password" autocomplete="current-password"
        required${invalid('password')}>
      ${errorLine('confirm-password-error', d.error?.field === 'password' ? d.error.text : undefined)}
      <button type="submit">${w.common.confirm}</button>`,
          )
        : ''
    }
    ${
      d.code
        ? form(
            f,
            d.action,
            html`${held}<label for="confirm-code">${w.signin.twoStepCode}</label>
      <input id="confirm-code" name="confirm_code" type="text" inputmode="numeric" autocomplete="one-time-code"
        required${invalid('code')}>
      ${errorLine('confirm-code-error', d.error?.field === 'code' ? d.error.text : undefined)}
      <button type="submit"${raw(d.password ? ' class="secondary"' : '')}>${w.common.confirm}</button>`,
          )
        : ''
    }
    ${
      d.passkey
        ? form(
            f,
            d.action,
            html`${held}<button type="submit" class="secondary">${w.signin.usePasskey}</button>${passkeyStatus}`,
            `id="confirm-passkey" data-failed="${escapeHtml(f.w.signin.passkeyFailed)}" hidden`,
          )
        : ''
    }
    ${none ? html`<p>${w.signin.confirmNoProof}</p>` : ''}
    <p><a href="/admin">${w.common.cancel}</a></p></section>`,
    { narrow: true },
  )
}
