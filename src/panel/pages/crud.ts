/**
 * What the store pages (categories, discounts, shipping) share: the person's ctx, the answer to a
 * verb's 404 or 403 (a page, as in the API), the problem of a refused form laid out per control,
 * and the confirmation page a delete asks on.
 */
import { AppError } from '../../lib/errors'
import { html, raw, type Html } from '../../shop/html'
import { confirmOrBack, forbiddenPage, form, layout, messagePage, type Frame } from '../views'
import { banner, notice } from './controls'
import { problemsOf, refusalOf, type PageReq, type Problem } from './kit'
import type { PanelEnv } from '../env'

/** Runs a handler; a verb's 404 becomes the not-found page, its 403 (not a plan's) the forbidden page. */
export async function guarded(kit: PanelEnv, c: PageReq, run: () => Response | Promise<Response>): Promise<Response> {
  try {
    return await run()
  } catch (e) {
    if (e instanceof AppError && e.status === 404)
      return kit.render(c.p, c.set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
    if (e instanceof AppError && e.status === 403 && e.code !== 'PLAN_REQUIRED')
      return kit.render(c.p, c.set, 403, (f) => forbiddenPage(f))
    throw e
  }
}

/**
 * A refused form: every fault's message per control id, the problem that belongs to no field, and
 * the status (undefined: not the person's to fix, so the error goes on).
 */
export function refusal(
  c: PageReq,
  e: unknown,
  special?: (e: AppError) => Problem | undefined,
): { problem?: Problem; errors: Record<string, string>; status: number } | undefined {
  const problems = problemsOf(e, c.p.w, special)
  if (!problems) return undefined
  return { ...refusalOf(problems), status: e instanceof AppError ? e.status : 400 }
}

/** "Delete X?" with a danger button that POSTs to `action` and a way back. */
export function confirmPage(f: Frame, o: { title: string; text: string; action: string; back: string }): string {
  const w = f.w
  return layout(
    f,
    o.title,
    html`<section><p>${o.text}</p>
    ${form(f, o.action, confirmOrBack(w.products.confirmDelete, o.back, w.common.cancel))}</section>`,
    { narrow: true },
  )
}

/** The `?done=` notice of a page after a POST redirected to it: "saved" is every page's one word. */
export const doneOf = (c: PageReq, words: Record<string, string>) =>
  c.query.done === 'saved' ? c.w.common.saved : words[c.query.done ?? '']

/**
 * A record's editor (new or existing): the notice of a redirect, the refused form's banner, the
 * controls (each on a line of its own: they start with a line break) in a fieldset disabled for a
 * person who may only read, "Save" (or the page's "Create"), "Delete" for an existing record, and
 * the way back to the list.
 */
export function crudEditor(
  f: Frame,
  o: {
    base: string
    id?: string
    title: string
    done?: string
    problem?: Problem
    errors: Record<string, string>
    writable: boolean
    words: { create: string; readOnly: string; back: string }
    controls: Html
  },
): string {
  const w = f.w
  const at = o.id ? `${o.base}/${encodeURIComponent(o.id)}` : o.base
  const submitLabel = o.id ? w.common.save : o.words.create
  const submit = o.writable ? html`<p><button type="submit">${submitLabel}</button></p>` : ''
  const legend = html`<legend class="sr-only">${o.title}</legend>`
  const fields = html`<fieldset class="plain"${raw(o.writable ? '' : ' disabled')}>${legend}${o.controls}</fieldset>
    ${submit}`
  const remove =
    o.id && o.writable ? html`<p><a class="button secondary" href="${at}/delete">${w.common.delete}</a></p>` : ''
  const readOnly = o.writable ? '' : html`<p class="hint">${o.words.readOnly}</p>`
  return layout(
    f,
    o.title,
    html`${notice(o.done)}${banner(w, o.problem, o.errors)}${readOnly}
    <section>${form(f, at, fields, 'novalidate')}</section>
    ${remove}
    <p><a href="${o.base}">${o.words.back}</a></p>`,
  )
}
