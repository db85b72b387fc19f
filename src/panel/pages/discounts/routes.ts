import type { AppError } from '../../../lib/errors'
import {
  createDiscount,
  deleteDiscount,
  discountFaults,
  DiscountCreate,
  DiscountUpdate,
  getDiscount,
  listDiscounts,
  updateDiscount,
} from '../../../modules/discounts'
import { checkAll } from '../../../plugins/validation-errors'
import { confirmPage, ctxOf, doneOf, guarded, refusal } from '../crud'
import { field, panelOf, type PageKit, type PageReq, type PageRoute, type Problem } from '../kit'
import { discountWords } from '../words/discounts'
import { at, bodyOf, editorPage, emptyForm, formOf, listPage, readForm, type DiscountForm } from './views'

export function discountPages(kit: PageKit): PageRoute[] {
  const w = (c: PageReq) => discountWords(panelOf(c))
  const editor = (
    c: PageReq,
    status: number,
    d: {
      id?: string
      title: string
      form: DiscountForm
      errors?: Record<string, string>
      problem?: Problem
      done?: string
    },
  ) =>
    kit.render(panelOf(c), c.set, status, (f) => editorPage(f, { errors: {}, ...d, currency: ctxOf(c).store.currency }))
  /** The module's words for its own refusals: a taken code, a percentage out of (0, 100]. */
  const special = (c: PageReq, form: DiscountForm) => (e: AppError) => {
    if (e.code === 'DUPLICATE_CODE') return { field: 'code', message: w(c).codeTaken }
    const d = e.details as { field?: string; reason?: string } | undefined
    if (d?.field === 'value' && d.reason === 'out_of_range' && form.type === 'percentage')
      return { field: 'value', message: w(c).percentRange }
    return undefined
  }

  /** The module's rules beside the schema's faults: a 150 % value shows with a malformed code. */
  const rules = (c: PageReq) => (v: Record<string, unknown>) => discountFaults(ctxOf(c).store.currency, v)

  return [
    {
      method: 'get',
      path: '/admin/discounts',
      need: 'discounts:read',
      handler: (c) => {
        const ctx = ctxOf(c)
        const rows = listDiscounts({ ctx, input: { limit: 100 } }).data
        return kit.render(panelOf(c), c.set, 200, (f) =>
          listPage(f, { rows, currency: ctx.store.currency, now: ctx.clock.now(), done: doneOf(c, w(c).done) }),
        )
      },
    },
    {
      method: 'get',
      path: '/admin/discounts/new',
      need: 'discounts:write',
      handler: (c) => editor(c, 200, { title: w(c).add, form: emptyForm() }),
    },
    {
      method: 'post',
      path: '/admin/discounts',
      need: 'discounts:write',
      handler: (c) => {
        const form = readForm(c.body)
        try {
          const made = createDiscount({ ctx: ctxOf(c), input: checkAll(DiscountCreate, bodyOf(form), rules(c)) })
          return kit.seeOther(c.set, `${at(made.id)}?done=saved`)
        } catch (e) {
          const r = refusal(c, e, special(c, form))
          if (!r) throw e
          return editor(c, r.status, { title: w(c).add, form, ...r })
        }
      },
    },
    {
      method: 'get',
      path: '/admin/discounts/:id',
      need: 'discounts:read',
      owns: 'discounts',
      handler: (c) =>
        guarded(kit, c, () => {
          const d = getDiscount({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return editor(c, 200, {
            id: d.id,
            title: w(c).editTitle(d.code),
            form: formOf(d, ctxOf(c).store.currency),
            done: doneOf(c, w(c).done),
          })
        }),
    },
    {
      method: 'post',
      path: '/admin/discounts/:id',
      need: 'discounts:write',
      owns: 'discounts',
      handler: (c) =>
        guarded(kit, c, () => {
          const ctx = ctxOf(c)
          const current = getDiscount({ ctx, input: { id: c.params.id! } })
          const form = readForm(c.body)
          try {
            updateDiscount({
              ctx,
              input: { id: current.id, ...checkAll(DiscountUpdate, bodyOf(form, current.expiresAt), rules(c)) },
            })
            return kit.seeOther(c.set, `${at(current.id)}?done=saved`)
          } catch (e) {
            const r = refusal(c, e, special(c, form))
            if (!r) throw e
            return editor(c, r.status, { id: current.id, title: w(c).editTitle(current.code), form, ...r })
          }
        }),
    },
    {
      method: 'post',
      path: '/admin/discounts/:id/active',
      need: 'discounts:write',
      owns: 'discounts',
      handler: (c) =>
        guarded(kit, c, () => {
          updateDiscount({ ctx: ctxOf(c), input: { id: c.params.id!, isActive: field(c.body, 'isActive') === '1' } })
          return kit.seeOther(c.set, '/admin/discounts?done=saved')
        }),
    },
    {
      method: 'get',
      path: '/admin/discounts/:id/delete',
      need: 'discounts:write',
      owns: 'discounts',
      handler: (c) =>
        guarded(kit, c, () => {
          const d = getDiscount({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return kit.render(panelOf(c), c.set, 200, (f) =>
            confirmPage(f, {
              title: w(c).removeTitle(d.code),
              text: w(c).removeText,
              action: `${at(d.id)}/delete`,
              back: '/admin/discounts',
            }),
          )
        }),
    },
    {
      method: 'post',
      path: '/admin/discounts/:id/delete',
      need: 'discounts:write',
      owns: 'discounts',
      handler: (c) =>
        guarded(kit, c, () => {
          deleteDiscount({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return kit.seeOther(c.set, '/admin/discounts?done=deleted')
        }),
    },
  ]
}
