/**
 * The consent page of /oauth/authorize, its 400 page, and the "Connected apps" section of the
 * Account page (the person's own) and of the Team page (every app of the store, for owners).
 * The client's name is the client's own claim: escaped like any stored text, shown beside the
 * host it will be sent back to, which is what the person can check.
 */
import { html, raw, type Html } from '../../shop/html'
import { type Frame, form, layout, submitFor } from './frame'
import { shownAt } from './time'
import type { Words } from '../words'

export interface ConsentData {
  client: string
  redirectHost: string
  /** The authorization request's parameters, posted back with the answer. */
  fields: Record<string, string>
  /** The person's stores, each with the scopes its role allows of those asked for. */
  stores: { storeId: string; name: string; role: string; scopes: string[] }[]
  /** The store chosen first (the one the person works in now). */
  storeId: string
}

const scopeList = (id: string, labelledBy: string, scopes: string[], none: string) =>
  scopes.length
    ? html`<ul id="${id}" aria-labelledby="${labelledBy}">${scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul>`
    : html`<p id="${id}">${none}</p>`

export function consentPage(f: Frame, d: ConsentData): string {
  const { w } = f
  const hidden = Object.entries(d.fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)
  const one = d.stores.length === 1 ? d.stores[0]! : undefined
  const storeField = (id: string) => html`<input type="hidden" name="store" value="${id}">`
  const storeOption = (s: ConsentData['stores'][number], i: number) => {
    const checked = raw(s.storeId === d.storeId ? ' checked' : '')
    const attrs = html`type="radio" value="${s.storeId}" aria-describedby="scopes-${i}"${checked}`
    const radio = html`<input id="store-${i}" name="store" ${attrs}>`
    return html`<div class="check">${radio}<label for="store-${i}">${s.name} · ${f.w.team.roles[s.role]}</label></div>
        <p class="hint" id="scopes-${i}">${w.apps.consentScopes} ${s.scopes.join(', ') || w.apps.consentNoScopes}</p>`
  }
  // Several stores: a choice, each option with what its role lets the app do there.
  const choice = one
    ? html`<p><strong>${w.common.store}:</strong> ${one.name}</p>${storeField(one.storeId)}
      <h2 id="consent-scopes">${w.apps.consentScopes}</h2>
      ${scopeList('scopes-only', 'consent-scopes', one.scopes, w.apps.consentNoScopes)}`
    : html`<fieldset><legend>${w.common.store}</legend>${d.stores.map(storeOption)}</fieldset>`
  return layout(
    f,
    w.apps.consentTitle(d.client),
    html`<section>
      <p>${w.apps.consentIntro(d.client, d.redirectHost)}</p>
      ${form(
        f,
        '/oauth/authorize',
        html`${hidden}${choice}
        <p class="hint">${w.apps.consentCapped}</p>
        <p class="hint">${w.apps.consentNotice}</p>
        <div class="actions">
          <button type="submit" name="decision" value="allow">${w.apps.allow}</button>
          <button type="submit" name="decision" value="deny" class="secondary">${w.apps.deny}</button>
        </div>`,
      )}
    </section>`,
    { narrow: true },
  )
}

export function badAuthorizePage(f: Frame, w: Words, reason: string): string {
  return layout(f, w.apps.badRequestTitle, html`<p>${reason}</p><p>${w.apps.badRequestHint}</p>`, { narrow: true })
}

export interface AppRow {
  id: string
  client: string
  storeName: string
  person?: string
  scopes: string[]
  lastUsedAt: string | null
}

/** The table of connected apps; `action(id)` is the Disconnect form's path. */
export function connectedAppsSection(
  f: Frame,
  w: Words,
  rows: AppRow[],
  opts: { intro: string; action: (id: string) => string; showPerson?: boolean },
): Html {
  const person = (r: AppRow) => (opts.showPerson ? html`<td>${r.person ?? ''}</td>` : '')
  return html`<section aria-labelledby="apps-h"><h2 id="apps-h">${w.apps.connectedApps}</h2>
    <p>${opts.intro}</p>
    ${
      rows.length === 0
        ? html`<p>${w.apps.noApps}</p>`
        : html`<div class="table"><table>
      <thead><tr><th scope="col">${w.apps.app}</th><th scope="col">${w.common.store}</th>${
        opts.showPerson ? html`<th scope="col">${w.common.person}</th>` : ''
      }<th scope="col">${w.apps.permissions}</th><th scope="col">${w.common.lastUsed}</th>
      <th scope="col"><span class="sr-only">${w.apps.disconnect}</span></th></tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr><td>${r.client}</td><td>${r.storeName}</td>${person(r)}
        <td>${r.scopes.join(', ') || '-'}</td>
        <td>${
          r.lastUsedAt ? html`<time datetime="${r.lastUsedAt}">${shownAt(f, r.lastUsedAt)}</time>` : w.apps.neverUsed
        }</td>
        <td>${form(
          f,
          opts.action(r.id),
          submitFor('danger', w.apps.disconnectApp(r.client), w.apps.disconnect),
        )}</td></tr>`,
      )}</tbody></table></div>`
    }
  </section>`
}
