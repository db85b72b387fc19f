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
import { html } from '../../shop/html'
import { formatMoney } from '../../shop/i18n'
import { can, layout, type Frame, linkFor } from '../views'
import { checkbox, input, notice } from './controls'
import { crudEditor, doneOf } from './crud'
import { crudPages } from './crud-pages'
import { amountText, field, numberField, ticked, type PageRoute, type Problem } from './kit'
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
  const w = f.w
  const writable = can(f, 'shipping:write')
  const edit = (o: Option) =>
    html`<a href="${at(o.id)}" aria-label="${w.shipping.editOf(o.name)}"><strong>${o.name}</strong></a>`
  const inactive = html` <span class="badge">${w.shipping.inactive}</span>`
  const price = (o: Option) => formatMoney(o.price, d.currency, f.w.shell.locale)
  const remove = (o: Option) =>
    linkFor('button secondary', `${at(o.id)}/delete`, w.shipping.removeOf(o.name), w.common.delete)
  const rows = d.rows.map(
    (o) => html`<li><p>${edit(o)} · ${price(o)}${o.isActive ? '' : inactive}</p>
    ${
      o.description || o.estimatedDays !== null
        ? html`<p class="hint">${[
            o.description ?? '',
            o.estimatedDays === null ? '' : w.shipping.daysOf(o.estimatedDays),
          ]
            .filter(Boolean)
            .join(' · ')}</p>`
        : ''
    }
    ${writable ? html`<div class="actions">${remove(o)}</div>` : ''}</li>`,
  )
  return layout(
    f,
    w.nav.shipping,
    html`${notice(d.done)}${
      writable ? html`<p><a class="button" href="/admin/shipping/new">${w.shipping.add}</a></p>` : ''
    }
    ${d.rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>${w.shipping.none}</p>`}`,
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
  const w = f.w
  const e = d.errors
  const writable = can(f, 'shipping:write')
  return crudEditor(f, {
    ...d,
    base: '/admin/shipping',
    writable,
    words: w.shipping,
    controls: html`
    ${input({ id: 'name', label: w.common.name, value: d.form.name, errors: e, attrs: 'required maxlength="200"' })}
    ${input({
      id: 'price',
      label: `${w.common.price} (${d.currency})`,
      value: d.form.price,
      errors: e,
      attrs: 'required inputmode="decimal"',
    })}
    ${input({
      id: 'description',
      label: w.common.description,
      value: d.form.description,
      hint: w.shipping.descriptionHint,
      errors: e,
      multiline: true,
      attrs: 'maxlength="2000"',
    })}
    ${input({
      id: 'estimatedDays',
      label: w.shipping.days,
      value: d.form.days,
      hint: w.shipping.daysHint,
      errors: e,
      attrs: 'inputmode="numeric"',
    })}
    ${checkbox('isActive', 'isActive', w.shipping.active, d.form.active)}`,
  })
}

export function shippingPages(kit: PanelEnv): PageRoute[] {
  return crudPages<Option, ShippingForm>(kit, {
    base: '/admin/shipping',
    read: 'shipping:read',
    write: 'shipping:write',
    owns: 'shippingOptions',
    words: (w) => w.shipping,
    label: (o) => o.name,
    list: (c) => {
      const ctx = c.ctx
      const rows = listShipping({ ctx, input: { limit: 100 } }).data
      return kit.render(c.p, c.set, 200, (f) =>
        listPage(f, { rows, currency: ctx.store.currency, done: doneOf(c, c.w.shipping.done) }),
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
