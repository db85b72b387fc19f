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
import { doneOf, guarded } from '../crud'
import { crudPages } from '../crud-pages'
import { field, type PageReq, type PageRoute } from '../kit'
import { bodyOf, editorPage, emptyForm, formOf, listPage, readForm, type DiscountForm } from './views'
import type { PanelEnv } from '../../env'

export function discountPages(kit: PanelEnv): PageRoute[] {
  /** The module's rules beside the schema's faults: a 150 % value shows with a malformed code. */
  const rules = (c: PageReq) => (v: Record<string, unknown>) => discountFaults(c.ctx.store.currency, v)
  type Discount = ReturnType<typeof getDiscount>

  const pages = crudPages<Discount, DiscountForm>(kit, {
    base: '/admin/discounts',
    read: 'discounts:read',
    write: 'discounts:write',
    owns: 'discounts',
    words: (w) => w.discounts,
    label: (d) => d.code,
    list: (c) => {
      const ctx = c.ctx
      const rows = listDiscounts({ ctx, input: { limit: 100 } }).data
      return kit.render(c.p, c.set, 200, (f) =>
        listPage(f, { rows, currency: ctx.store.currency, now: ctx.clock.now(), done: doneOf(c, c.w.discounts.done) }),
      )
    },
    editor: (c, status, d) =>
      kit.render(c.p, c.set, status, (f) => editorPage(f, { errors: {}, ...d, currency: c.ctx.store.currency })),
    emptyForm,
    readForm,
    formOf,
    get: (ctx, id) => getDiscount({ ctx, input: { id } }),
    create: (c, form) => createDiscount({ ctx: c.ctx, input: checkAll(DiscountCreate, bodyOf(form), rules(c)) }),
    update: (c, current, form) => {
      updateDiscount({
        ctx: c.ctx,
        input: { id: current.id, ...checkAll(DiscountUpdate, bodyOf(form, current.expiresAt), rules(c)) },
      })
    },
    remove: (ctx, id) => {
      deleteDiscount({ ctx, input: { id } })
    },
    /** The module's words for its own refusals: a taken code, a percentage out of (0, 100]. */
    special: (c, form) => (e: AppError) => {
      if (e.code === 'DUPLICATE_CODE') return { field: 'code', message: c.w.discounts.codeTaken }
      const d = e.details as { field?: string; reason?: string } | undefined
      if (d?.field === 'value' && d.reason === 'out_of_range' && form.type === 'percentage')
        return { field: 'value', message: c.w.discounts.percentRange }
      return undefined
    },
  })
  // Switching a discount on or off from the list, beside the folded pages.
  const active: PageRoute = {
    method: 'post',
    path: '/admin/discounts/:id/active',
    need: 'discounts:write',
    owns: 'discounts',
    handler: (c) =>
      guarded(kit, c, () => {
        updateDiscount({ ctx: c.ctx, input: { id: c.params.id ?? '', isActive: field(c.body, 'isActive') === '1' } })
        return kit.seeOther(c.set, '/admin/discounts?done=saved')
      }),
  }
  return [...pages, active]
}
