/**
 * The consent page of /oauth/authorize, its 400 page, and the "Connected apps" section of the
 * Account page (the person's own) and of the Team page (every app of the store, for owners).
 * The client's name is the client's own claim: escaped like any stored text, shown beside the
 * host it will be sent back to, which is what the person can check.
 */
import { html, raw, type Html } from '../../shop/html'
import type { AppsWords } from '../i18n/apps'
import { type Frame, form, layout } from './frame'
import { shownAt } from './time'

export interface ConsentData {
  a: AppsWords
  client: string
  redirectHost: string
  /** The authorization request's parameters, posted back with the answer. */
  fields: Record<string, string>
  stores: { storeId: string; name: string; role: string }[]
  storeId: string
  /** The scopes the chosen store's role allows of those asked for. */
  scopes: string[]
}

export function consentPage(f: Frame, d: ConsentData): string {
  const { a } = d
  const hidden = Object.entries(d.fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)
  const store =
    d.stores.length > 1
      ? html`<label for="consent-store">${a.consentStore}</label>
        <select id="consent-store" name="store">${d.stores.map((s) => html`<option value="${s.storeId}"${raw(s.storeId === d.storeId ? ' selected' : '')}>${s.name} · ${f.w.roles[s.role]}</option>`)}</select>`
      : html`<p><strong>${a.consentStore}:</strong> ${d.stores[0]?.name ?? ''}</p><input type="hidden" name="store" value="${d.storeId}">`
  return layout(
    f,
    a.consentTitle(d.client),
    html`<section>
      <p>${a.consentIntro(d.client, d.redirectHost)}</p>
      ${form(
        f,
        '/oauth/authorize',
        html`${hidden}${store}
        <h2 id="consent-scopes">${a.consentScopes}</h2>
        ${d.scopes.length ? html`<ul aria-labelledby="consent-scopes">${d.scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul>` : html`<p>${a.consentNoScopes}</p>`}
        <p class="hint">${a.consentCapped}</p>
        <p class="hint">${a.consentNotice}</p>
        <div class="actions">
          <button type="submit" name="decision" value="allow">${a.allow}</button>
          <button type="submit" name="decision" value="deny" class="secondary">${a.deny}</button>
        </div>`,
      )}
    </section>`,
    { narrow: true },
  )
}

export function badAuthorizePage(f: Frame, a: AppsWords, reason: string): string {
  return layout(f, a.badRequestTitle, html`<p>${reason}</p><p>${a.badRequestHint}</p>`, { narrow: true })
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
  a: AppsWords,
  rows: AppRow[],
  opts: { intro: string; action: (id: string) => string; showPerson?: boolean },
): Html {
  return html`<section aria-labelledby="apps-h"><h2 id="apps-h">${a.connectedApps}</h2>
    <p>${opts.intro}</p>
    ${
      rows.length === 0
        ? html`<p>${a.noApps}</p>`
        : html`<div class="table"><table>
      <thead><tr><th scope="col">${a.app}</th><th scope="col">${a.consentStore}</th>${opts.showPerson ? html`<th scope="col">${a.personCol}</th>` : ''}<th scope="col">${a.permissions}</th><th scope="col">${a.lastUsed}</th><th scope="col"><span class="sr-only">${a.disconnect}</span></th></tr></thead>
      <tbody>${rows.map(
        (
          r,
        ) => html`<tr><td>${r.client}</td><td>${r.storeName}</td>${opts.showPerson ? html`<td>${r.person ?? ''}</td>` : ''}
        <td>${r.scopes.join(', ') || '-'}</td>
        <td>${r.lastUsedAt ? html`<time datetime="${r.lastUsedAt}">${shownAt(f, r.lastUsedAt)}</time>` : a.neverUsed}</td>
        <td>${form(f, opts.action(r.id), html`<button type="submit" class="danger" aria-label="${a.disconnectApp(r.client)}">${a.disconnect}</button>`)}</td></tr>`,
      )}</tbody></table></div>`
    }
  </section>`
}
