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
import { confirmPage, ctxOf, doneOf, guarded, refusal } from './crud'
import {
  cw,
  amountText,
  field,
  numberField,
  panelOf,
  ticked,
  type PageKit,
  type PageReq,
  type PageRoute,
  type Problem,
} from './kit'
import { shippingWords } from './words/shipping'

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

export function shippingPages(kit: PageKit): PageRoute[] {
  const w = (c: PageReq) => shippingWords(panelOf(c))
  const editor = (
    c: PageReq,
    status: number,
    d: {
      id?: string
      title: string
      form: ShippingForm
      errors?: Record<string, string>
      problem?: Problem
      done?: string
    },
  ) =>
    kit.render(panelOf(c), c.set, status, (f) => editorPage(f, { errors: {}, ...d, currency: ctxOf(c).store.currency }))

  return [
    {
      method: 'get',
      path: '/admin/shipping',
      need: 'shipping:read',
      handler: (c) => {
        const ctx = ctxOf(c)
        const rows = listShipping({ ctx, input: { limit: 100 } }).data
        return kit.render(panelOf(c), c.set, 200, (f) =>
          listPage(f, { rows, currency: ctx.store.currency, done: doneOf(c, w(c).done) }),
        )
      },
    },
    {
      method: 'get',
      path: '/admin/shipping/new',
      need: 'shipping:write',
      handler: (c) => editor(c, 200, { title: w(c).add, form: emptyForm() }),
    },
    {
      method: 'post',
      path: '/admin/shipping',
      need: 'shipping:write',
      handler: (c) => {
        const form = readForm(c.body)
        try {
          const made = createShipping({ ctx: ctxOf(c), input: checkBody(ShippingCreate, bodyOf(form)) })
          return kit.seeOther(c.set, `${at(made.id)}?done=saved`)
        } catch (e) {
          const r = refusal(c, e)
          if (!r) throw e
          return editor(c, r.status, { title: w(c).add, form, ...r })
        }
      },
    },
    {
      method: 'get',
      path: '/admin/shipping/:id',
      need: 'shipping:read',
      owns: 'shippingOptions',
      handler: (c) =>
        guarded(kit, c, () => {
          const o = getShipping({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return editor(c, 200, {
            id: o.id,
            title: w(c).editTitle(o.name),
            form: formOf(o, ctxOf(c).store.currency),
            done: doneOf(c, w(c).done),
          })
        }),
    },
    {
      method: 'post',
      path: '/admin/shipping/:id',
      need: 'shipping:write',
      owns: 'shippingOptions',
      handler: (c) =>
        guarded(kit, c, () => {
          const ctx = ctxOf(c)
          const current = getShipping({ ctx, input: { id: c.params.id! } })
          const form = readForm(c.body)
          try {
            updateShipping({ ctx, input: { id: current.id, ...checkBody(ShippingUpdate, bodyOf(form)) } })
            return kit.seeOther(c.set, `${at(current.id)}?done=saved`)
          } catch (e) {
            const r = refusal(c, e)
            if (!r) throw e
            return editor(c, r.status, { id: current.id, title: w(c).editTitle(current.name), form, ...r })
          }
        }),
    },
    {
      method: 'get',
      path: '/admin/shipping/:id/delete',
      need: 'shipping:write',
      owns: 'shippingOptions',
      handler: (c) =>
        guarded(kit, c, () => {
          const o = getShipping({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return kit.render(panelOf(c), c.set, 200, (f) =>
            confirmPage(f, {
              title: w(c).removeTitle(o.name),
              text: w(c).removeText,
              action: `${at(o.id)}/delete`,
              back: '/admin/shipping',
            }),
          )
        }),
    },
    {
      method: 'post',
      path: '/admin/shipping/:id/delete',
      need: 'shipping:write',
      owns: 'shippingOptions',
      handler: (c) =>
        guarded(kit, c, () => {
          deleteShipping({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return kit.seeOther(c.set, '/admin/shipping?done=deleted')
        }),
    },
  ]
}
