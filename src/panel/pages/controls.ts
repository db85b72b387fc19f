/**
 * Form controls of the catalog pages: a label for every control, its hint and its error tied to it
 * (aria-describedby, aria-invalid), so an error from a module verb sits next to its field.
 */
import { html, raw, type Html } from '../../shop/html'
import type { Words } from '../words'

/** A problem to show: at a field (its form id), or for the whole form (a plan cap shows the upgrade link). */
export interface Problem {
  field?: string
  message: string
  upgradeUrl?: string
}

export interface InputOpts {
  id: string
  name?: string
  label: string
  value?: string | number | null
  type?: string
  hint?: string
  /** Errors by control id. */
  errors?: Record<string, string>
  /** Markup the code wrote (inputmode, maxlength, required…). */
  attrs?: string
  multiline?: boolean
}

export function described(id: string, hint: string | undefined, error: string | undefined): Html {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return raw(`${ids ? ` aria-describedby="${ids}"` : ''}${error ? ' aria-invalid="true"' : ''}`)
}

export const errorAt = (id: string, error: string | undefined) =>
  error ? html`<p id="${id}-error" class="error">${error}</p>` : ''
export const hintAt = (id: string, hint: string | undefined) =>
  hint ? html`<p id="${id}-hint" class="hint">${hint}</p>` : ''

export function input(o: InputOpts): Html {
  const error = o.errors?.[o.id]
  const value = o.value === null || o.value === undefined ? '' : String(o.value)
  const attrs = html`${described(o.id, o.hint, error)}${raw(o.attrs ? ` ${o.attrs}` : '')}`
  const name = o.name ?? o.id
  const control = o.multiline
    ? html`<textarea id="${o.id}" name="${name}" rows="4"${attrs}>${value}</textarea>`
    : html`<input id="${o.id}" name="${name}" type="${o.type ?? 'text'}" value="${value}"${attrs}>`
  return html`<label for="${o.id}">${o.label}</label>${control}${hintAt(o.id, o.hint)}${errorAt(o.id, error)}`
}

export function checkbox(id: string, name: string, label: string, checked: boolean, hint?: string): Html {
  const state = html`${raw(checked ? ' checked' : '')}${described(id, hint, undefined)}`
  const box = html`<input id="${id}" name="${name}" type="checkbox" value="1"${state}>`
  return html`<div class="check">${box}<label for="${id}">${label}</label></div>${hintAt(id, hint)}`
}

export function select(
  id: string,
  name: string,
  label: string,
  options: { value: string; label: string }[],
  selected: string,
  errors?: Record<string, string>,
): Html {
  const error = errors?.[id]
  const option = (o: { value: string; label: string }) =>
    html`<option value="${o.value}"${raw(o.value === selected ? ' selected' : '')}>${o.label}</option>`
  const list = html`<select id="${id}" name="${name}"${described(id, undefined, error)}>${options.map(option)}</select>`
  return html`<label for="${id}">${label}</label>${list}${errorAt(id, error)}`
}

/**
 * The error summary at the top of a refused form (the GOV.UK pattern): "There is a problem", the
 * problem that belongs to no field (with the plan's upgrade link), and every field's message as a
 * link to its control, in the form's order of ids given. Each message also sits at its field.
 */
export function banner(w: Words, p: Problem | undefined, errors: Record<string, string> = {}): Html | '' {
  const ids = Object.keys(errors)
  const general = p && !p.field ? p : undefined
  if (!general && ids.length === 0) return ''
  const summary = raw('role="alert" tabindex="-1" aria-labelledby="error-summary-title" data-error-summary')
  return html`<div class="alert error-summary" ${summary}>
    <h2 id="error-summary-title">${w.problems.problemTitle}</h2>
    ${general ? html`<p>${general.message}</p>` : ''}
    ${ids.length ? html`<ul>${ids.map((id) => html`<li><a href="#${id}">${errors[id]}</a></li>`)}</ul>` : ''}
    ${
      general?.upgradeUrl
        ? html`<p><a class="button" href="${general.upgradeUrl}">${w.problems.upgradePlan}</a></p>`
        : ''
    }</div>`
}

/**
 * A hidden "save" placed first in a form: Enter in a field submits the form's first button, so it
 * saves rather than pressing a row's "Remove".
 */
export const defaultSave = (w: Words) => html`<button type="submit" ${DEFAULT_SAVE}>${w.common.save}</button>`
const DEFAULT_SAVE = raw('name="_action" value="save" class="default-submit" tabindex="-1" aria-hidden="true"')

export const notice = (text: string | undefined) => (text ? html`<p class="notice" role="status">${text}</p>` : '')

/** Previous / "Page n of m" / next, for a list read a page at a time; `href` names a page's address. */
export function pager(w: Words, page: number, pages: number, href: (page: number) => string): Html {
  return html`<nav class="pager" aria-label="${w.products.pageOf(page, pages)}">
      ${page > 1 ? html`<a href="${href(page - 1)}" rel="prev">${w.products.previous}</a>` : html`<span></span>`}
      <span>${w.products.pageOf(page, pages)}</span>
      ${page < pages ? html`<a href="${href(page + 1)}" rel="next">${w.products.next}</a>` : html`<span></span>`}
    </nav>`
}
