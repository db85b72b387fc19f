/** What every panel view is drawn from (the frame), who may see what, and forms that carry the session's token. */
import type { Role } from '../../modules/people'
import { roleHas, type PanelNeed } from '../../modules/people'
import { html, raw, type Html } from '../../shop/html'
import type { PanelAssets } from '../assets'
import type { PanelLanguage, Words } from '../words'

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
  w: Words
  lang: PanelLanguage
  assets: PanelAssets
  /** The request's path, for aria-current. */
  path: string
  person?: FramePerson
  /** A form token without a signed-in person (the two-step page's pending session). */
  formToken?: string
  /** Counts shown on navigation links: reviews waiting for approval. */
  badges?: { reviews?: number }
  /**
   * The new-order alerts, for a person whose role reads orders: the orders new to them (on the
   * Orders link and in the title) and the order log's head read with it, where the page's one
   * stream resumes (`data-stream` on <body>, assets/live-stream.ts).
   */
  live?: { unseen: number; after: number }
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

/** A confirmation's two ways out: the danger button that posts the form, and a link back that changes nothing. */
export const confirmOrBack = (confirm: string, back: string, cancel: string): Html => {
  const backLink = html`<a class="button secondary" href="${back}">${cancel}</a>`
  return html`<div class="actions"><button type="submit" class="danger">${confirm}</button>${backLink}</div>`
}

/** A button that copies the element `target` (the panel's script shows it, and says `done` once copied). */
export const copyButton = (target: string, done: string, label: string): Html =>
  html`<button type="button" class="secondary" data-copy="${target}" data-done="${done}" hidden>${label}</button>`

/** Where the copy button of `target` says it copied. */
export const copyStatus = (target: string): Html => html`<span id="${target}-status" role="status"></span>`

/** A submit button that shows `text` and is named for what it acts on (`label`, read by screen readers). */
export const submitFor = (cls: string, label: string, text: string): Html =>
  html`<button type="submit" class="${cls}" aria-label="${label}">${text}</button>`

/** A link styled `cls` that shows `text` and is named for what it acts on (`label`). */
export const linkFor = (cls: string, href: string, label: string, text: string): Html =>
  html`<a class="${cls}" href="${href}" aria-label="${label}">${text}</a>`

/** A POST form with the token; `attrs` is markup the code itself wrote. */
export const form = (f: Frame, action: string, body: Html | Html[], attrs = ''): Html =>
  html`<form method="post" action="${action}"${raw(attrs ? ` ${attrs}` : '')}>${tokenField(f)}${body}</form>`
