import {
  createShipping,
  deleteShipping,
  getShipping,
  listShipping,
  ShippingCreate,
  ShippingUpdate,
  updateShipping,
} from '../../modules/shipping'
import { checkBody } from '../../plugins/validation-errors'
import { html, raw } from '../../shop/html'
import { formatMoney } from '../../shop/i18n'
import { can, form, layout, type Frame } from '../views'
import { banner, checkbox, input, notice } from './controls'
import { doneOf } from './crud'
import { crudPages } from './crud-pages'
import { cw, amountText, field, numberField, ticked, type PageReq, type PageRoute, type Problem } from './kit'
import { shippingWords } from './words/shipping'
import type { PanelEnv } from '../env'

type Option = ReturnType<typeof getShipping>
interface ShippingForm {
  name: string
  price: string
  description: string
  days: string
  active: boolean
}
const at = (id: string) => `/admin/shipping/${encodeURIComponent(id)}`
const emptyForm = (): ShippingForm => ({ name: '', price: '', description: '', days: '', active: true })
const formOf = (o: Option, currency: string): ShippingForm => ({
  name: o.name,
  price: amountText(o.price, currency),
  description: o.description ?? '',
  days: o.estimatedDays === null ? '' : String(o.estimatedDays),
  active: o.isActive,
})
const readForm = (body: unknown): ShippingForm => ({
  name: field(body, 'name') ?? '',
  price: field(body, 'price') ?? '',
  description: field(body, 'description') ?? '',
  days: field(body, 'estimatedDays') ?? '',
  active: ticked(body, 'isActive'),
})
const num = (s: string) => numberField({ v: s }, 'v')
const bodyOf = (f: ShippingForm) => ({
  name: f.name.trim(),
  price: num(f.price) ?? '',
  description: f.description.trim() === '' ? null : f.description,
  estimatedDays: num(f.days) ?? null,
  isActive: f.active,
})

function listPage(f: Frame, d: { rows: Option[]; currency: string; done?: string }): string {
  const w = shippingWords(f)
  const writable = can(f, 'shipping:write')
  const rows = d.rows.map(
    (
      o,
    ) => html`<li><p><a href="${at(o.id)}" aria-label="${w.editOf(o.name)}"><strong>${o.name}</strong></a> · ${formatMoney(o.price, d.currency, f.w.locale)}${o.isActive ? '' : html` <span class="badge">${w.inactive}</span>`}</p>
    ${o.description || o.estimatedDays !== null ? html`<p class="hint">${[o.description ?? '', o.estimatedDays === null ? '' : w.daysOf(o.estimatedDays)].filter(Boolean).join(' · ')}</p>` : ''}
    ${writable ? html`<div class="actions"><a class="button secondary" href="${at(o.id)}/delete" aria-label="${w.removeOf(o.name)}">${w.remove}</a></div>` : ''}</li>`,
  )
  return layout(
    f,
    w.title,
    html`${notice(d.done)}${writable ? html`<p><a class="button" href="/admin/shipping/new">${w.add}</a></p>` : ''}
    ${d.rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>${w.none}</p>`}`,
  )
}

function editorPage(
  f: Frame,
  d: {
    id?: string
    title: string
    form: ShippingForm
    currency: string
    errors: Record<string, string>
    problem?: Problem
    done?: string
  },
): string {
  const w = shippingWords(f)
  const e = d.errors
  const writable = can(f, 'shipping:write')
  const fields = html`<fieldset class="plain"${raw(writable ? '' : ' disabled')}><legend class="sr-only">${d.title}</legend>
    ${input({ id: 'name', label: w.name, value: d.form.name, errors: e, attrs: 'required maxlength="200"' })}
    ${input({ id: 'price', label: `${w.price} (${d.currency})`, value: d.form.price, errors: e, attrs: 'required inputmode="decimal"' })}
    ${input({ id: 'description', label: w.description, value: d.form.description, hint: w.descriptionHint, errors: e, multiline: true, attrs: 'maxlength="2000"' })}
    ${input({ id: 'estimatedDays', label: w.days, value: d.form.days, hint: w.daysHint, errors: e, attrs: 'inputmode="numeric"' })}
    ${checkbox('isActive', 'isActive', w.active, d.form.active)}</fieldset>
    ${writable ? html`<p><button type="submit">${d.id ? w.save : w.create}</button></p>` : ''}`
  return layout(
    f,
    d.title,
    html`${notice(d.done)}${banner(cw(f), d.problem, e)}${writable ? '' : html`<p class="hint">${w.readOnly}</p>`}
    <section>${form(f, d.id ? at(d.id) : '/admin/shipping', fields, 'novalidate')}</section>
    ${d.id && writable ? html`<p><a class="button secondary" href="${at(d.id)}/delete">${w.remove}</a></p>` : ''}
    <p><a href="/admin/shipping">${w.back}</a></p>`,
  )
}

export function shippingPages(kit: PanelEnv): PageRoute[] {
  const w = (c: PageReq) => shippingWords(c.p)
  return crudPages<Option, ShippingForm>(kit, {
    base: '/admin/shipping',
    read: 'shipping:read',
    write: 'shipping:write',
    owns: 'shippingOptions',
    words: w,
    label: (o) => o.name,
    list: (c) => {
      const ctx = c.ctx
      const rows = listShipping({ ctx, input: { limit: 100 } }).data
      return kit.render(c.p, c.set, 200, (f) =>
        listPage(f, { rows, currency: ctx.store.currency, done: doneOf(c, w(c).done) }),
      )
    },
    editor: (c, status, d) =>
      kit.render(c.p, c.set, status, (f) => editorPage(f, { errors: {}, ...d, currency: c.ctx.store.currency })),
    emptyForm,
    readForm,
    formOf,
    get: (ctx, id) => getShipping({ ctx, input: { id } }),
    create: (c, form) => createShipping({ ctx: c.ctx, input: checkBody(ShippingCreate, bodyOf(form)) }),
    update: (c, current, form) => {
      updateShipping({ ctx: c.ctx, input: { id: current.id, ...checkBody(ShippingUpdate, bodyOf(form)) } })
    },
    remove: (ctx, id) => {
      deleteShipping({ ctx, input: { id } })
    },
  })
}
