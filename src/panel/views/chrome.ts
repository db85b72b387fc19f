/**
 * The chrome every signed-in page shares: the header, the side navigation (from 600 px a row of
 * links, from 900 px a column beside the page), the phone's bottom tabs (Orders, Products,
 * Dashboard, More) and the More page. CSS alone picks which navigation shows (panel.css), so all of
 * it works without the script; the script only keeps the counts live and drives the chime switch.
 */
import { html, raw, type Html } from '../../shop/html'
import { MORE_PATH, NAV, TABS, type NavItem } from '../nav'
import { can, form, type Frame } from './frame-base'

const current = (f: Frame, path: string) => raw(f.path === path ? ' aria-current="page"' : '')

/** "99+" past the counted cap (the count stops at 100: modules/orders/seen.ts). */
export const countText = (n: number) => (n >= 100 ? '99+' : String(n))

/**
 * A link's count: said in words as part of the link's name ("Orders, 2 new"), drawn as a badge the
 * screen reader skips. `data-badge` lets the script rewrite it when the count changes.
 */
function badge(f: Frame, key: NavItem['key']): { attrs: Html | ''; mark: Html | '' } {
  if (key === 'reviews') {
    const n = f.badges?.reviews
    return {
      attrs: html` data-badge="reviews" data-badge-words="${f.w.shell.pendingReviews}"`,
      mark: n ? marks(f.w.shell.pendingReviews, n) : '',
    }
  }
  if (key === 'orders' && f.live) {
    const n = f.live.unseen
    return {
      attrs: html` data-badge="orders" data-badge-words="${f.w.shell.unseenOrders}"`,
      mark: n ? marks(f.w.shell.unseenOrders, n) : '',
    }
  }
  return { attrs: '', mark: '' }
}

const marks = (words: string, n: number) => {
  const count = countText(n)
  const badge = html`<span class="badge" aria-hidden="true">${count}</span>`
  return html`<span class="sr-only"> ${words.replace('{n}', count)}</span> ${badge}`
}

const link = (f: Frame, n: NavItem, cls = '') => {
  const b = badge(f, n.key)
  return html`<a href="${n.path}"${raw(
    cls ? ` class="${cls}"` : '',
  )}${current(f, n.path)}${b.attrs}>${f.w.nav[n.key]}${b.mark}</a>`
}

/** The links this person's role may follow, in NAV's order. */
export const navItems = (f: Frame) => NAV.filter((n) => can(f, n.need))

/** The switch for the new-order chime: shown by the script (it needs it), remembered on the device. */
const chimeSwitch = (f: Frame) =>
  f.live
    ? html`<button type="button" id="chime-switch" class="icon secondary" aria-pressed="true" hidden>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
        <path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0" fill="none"
          stroke="currentColor" stroke-width="2"/>
        <path class="off" d="M4 4l16 16" stroke="currentColor" stroke-width="2"/></svg>
        <span class="label">${f.w.shell.chime}</span></button>`
    : ''

/** The store switcher's form (a person in several stores); `id` differs where a page shows two. */
export function storeSwitcher(f: Frame, id: string): Html | '' {
  const p = f.person
  if (!p || p.stores.length < 2) return ''
  const storeOption = (s: (typeof p.stores)[number]) =>
    html`<option value="${s.storeId}"${raw(s.storeId === p.storeId ? ' selected' : '')}>${s.name}</option>`
  return form(
    f,
    '/admin/store',
    html`<label for="${id}">${f.w.common.store}</label>
      <select id="${id}" name="storeId">${p.stores.map(storeOption)}</select>
      <button type="submit" class="secondary">${f.w.shell.switchStore}</button>`,
  )
}

export function header(f: Frame): Html {
  const p = f.person
  if (!p) return html`<header class="top"><span class="brand">${f.w.shell.panel}</span></header>`
  const name = p.storeName ?? f.w.shell.panel
  const switcher = storeSwitcher(f, 'store-switch')
  // On a phone the header holds the store's name and the chime; the rest is on the More page.
  return html`<header class="top">
    <span class="brand${raw(switcher ? ' phone-only' : '')}">${name}</span>
    ${switcher ? html`<div class="wide-only">${switcher}</div>` : ''}
    <div class="actions">
      ${chimeSwitch(f)}
      <a class="wide-only" href="/admin/account"${current(f, '/admin/account')}>${f.w.nav.account}</a>
      <div class="wide-only">${form(
        f,
        '/admin/logout',
        html`<button type="submit" class="secondary">${f.w.shell.signOut}</button>`,
      )}</div>
    </div>
  </header>`
}

/** Every link the role allows: a row from 600 px, a column beside the page from 900 px, hidden on a phone. */
export function sideNav(f: Frame): Html | '' {
  if (!f.person?.role) return ''
  return html`<nav class="nav side" aria-label="${f.w.shell.nav}"><ul>${navItems(f).map(
    (n) => html`<li>${link(f, n)}</li>`,
  )}</ul></nav>`
}

/**
 * The phone's bottom tabs (up to 600 px): the three daily pages the role allows, then More, whose
 * link is named "More pages" (a bare "More" tells a screen reader nothing of where it leads).
 */
export function tabs(f: Frame): Html | '' {
  if (!f.person?.role) return ''
  const items = TABS.map((key) => NAV.find((n) => n.key === key)!).filter((n) => can(f, n.need))
  return html`<nav class="tabs" aria-label="${f.w.shell.tabs}"><ul>${items.map(
    (n) => html`<li>${link(f, n, 'tab')}</li>`,
  )}<li><a class="tab" href="${MORE_PATH}"${current(
    f,
    MORE_PATH,
  )}>${f.w.shell.more}<span class="sr-only"> ${f.w.shell.morePages}</span></a></li></ul></nav>`
}

/** The More page's body: every link, the account, the store switcher and signing out (no script needed). */
export function moreBody(f: Frame): Html {
  return html`<p>${f.w.shell.moreIntro}</p>
    <ul class="more">${navItems(f).map((n) => html`<li>${link(f, n)}</li>`)}
      <li><a href="/admin/account">${f.w.nav.account}</a></li></ul>
    ${storeSwitcher(f, 'store-switch-more')}
    ${form(f, '/admin/logout', html`<button type="submit" class="secondary">${f.w.shell.signOut}</button>`)}`
}
