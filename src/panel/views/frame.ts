/** Every page's frame: who is looking, the header, the navigation by role, the layout, forms with the token, and the short message pages. */
import type { Role } from '../../db/schema'
import { roleHas, type PanelNeed } from '../../modules/people'
import { html, raw, type Html } from '../../shop/html'
import type { PanelAssets } from '../assets'
import type { PanelLanguage, PanelWords } from '../i18n'
import { NAV } from '../nav'

export interface FramePerson {
  name: string
  email: string
  formToken: string
  stores: { storeId: string; name: string; role: Role }[]
  storeId?: string
  storeName?: string
  role?: Role
  /** The store's IANA time zone: every date the panel shows is on the store's clock. */
  zone?: string
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

/** The store's time zone, UTC without a store. */
export const zoneOf = (f: Frame): string => f.person?.zone ?? 'UTC'

export const can = (f: Frame, need: PanelNeed): boolean => {
  const role = f.person?.role
  if (!role) return false
  return need === 'member' || need === 'signedIn' || need === 'anonymous' || roleHas(role, need)
}

export const tokenField = (f: Frame) => {
  const t = f.person?.formToken ?? f.formToken
  return t ? html`<input type="hidden" name="_csrf" value="${t}">` : ''
}

/** A POST form with the token; `attrs` is markup the code itself wrote. */
export const form = (f: Frame, action: string, body: Html | Html[], attrs = ''): Html =>
  html`<form method="post" action="${action}"${raw(attrs ? ` ${attrs}` : '')}>${tokenField(f)}${body}</form>`

export function header(f: Frame): Html {
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

export function nav(f: Frame): Html | '' {
  if (!f.person?.role) return ''
  const items = NAV.filter((n) => can(f, n.need))
  return html`<nav class="nav" aria-label="${f.w.nav}"><ul>${items.map((n) => {
    const count = n.key === 'reviews' ? f.badges?.reviews : undefined
    // The count is part of the link's name, said in words: "Reviews, 3 waiting for approval".
    const badge = count
      ? html`<span class="sr-only">, ${f.w.pendingReviews.replace('{n}', String(count))}</span> <span class="badge" aria-hidden="true">${count}</span>`
      : ''
    // The panel script refreshes the count every half minute (GET /admin/badges): live without a reload.
    const live = n.key === 'reviews' ? html` data-badge="reviews" data-badge-words="${f.w.pendingReviews}"` : ''
    return html`<li><a href="${n.path}"${raw(f.path === n.path ? ' aria-current="page"' : '')}${live}>${f.w[n.key]}${badge}</a></li>`
  })}</ul></nav>`
}

/**
 * `noindex` on the pages anyone can reach (sign-in, two-step, one-time links, messages). A page
 * of a signed-in person is only ever sent to a request with a live session (a crawler gets the
 * sign-in page's redirect instead), so it needs none, and Lighthouse's SEO audit (a target for
 * the product editor) counts one against it.
 */
const robots = (f: Frame) => (f.person ? '' : html`<meta name="robots" content="noindex">`)

export function layout(f: Frame, title: string, body: Html, opts: { narrow?: boolean } = {}): string {
  return `<!doctype html>${
    html`<html lang="${f.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${robots(f)}
<title>${title} · ${f.w.panel}</title>
<meta name="description" content="${title} · ${f.w.panel}">
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
</html>`.value
  }`
}

export const errorLine = (id: string, text: string | undefined) =>
  text ? html`<p id="${id}" class="error" role="alert">${text}</p>` : ''

// ---------------------------------------------------------------- sign-in

export function messagePage(f: Frame, title: string, text: string, extra: Html | '' = ''): string {
  return layout(f, title, html`<p>${text}</p>${extra}`, { narrow: true })
}

export const forbiddenPage = (f: Frame, text = f.w.forbiddenText) =>
  messagePage(
    f,
    f.w.forbiddenTitle,
    text,
    f.person?.role ? html`<p><a href="/admin">${f.w.backToDashboard}</a></p>` : '',
  )

export function suspendedPage(
  f: Frame,
  store: { name: string; suspendedReason: string | null },
  upgradeUrl: string,
): string {
  const w = f.w
  return layout(
    f,
    w.suspendedTitle,
    html`<section><p>${w.suspendedText(store.name)}</p>${store.suspendedReason ? html`<p>${w.suspendedReason(store.suspendedReason)}</p>` : ''}
    <p><a class="button" href="${upgradeUrl}">${w.upgrade}</a></p></section>`,
  )
}

// ---------------------------------------------------------------- account
