/**
 * The product pages' routes: list, new, create, edit, update, delete (with a confirmation page).
 * Every write is the API's verb (createProduct, updateProduct, deleteProduct) on the person's ctx,
 * with the body the API's schema checks; its errors come back at their field.
 */
import { products } from '../../../db/schema'
import { AppError } from '../../../lib/errors'
import { createProduct, deleteProduct, getProduct, searchProducts, updateProduct, variantsForEditing } from '../../../modules/products'
import { listCategories } from '../../../modules/categories'
import { formatMoney } from '../../../shop/i18n'
import type { Ctx } from '../../../kernel/context'
import { forbiddenPage, messagePage } from '../../views'
import { controlId, cw, field, panelOf, problemOf, type PageKit, type PageReq, type PageRoute, type Problem } from '../kit'
import { deleteConfirmPage, editorPage, type EditorData } from './editor'
import { createInput, emptyForm, formOf, MAX_VARIANT_ROWS, readForm, updateInput, type ProductForm } from './form'
import { listPage, PAGE_SIZE } from './list'

const DONE: Record<string, 'saved' | 'deleted'> = { saved: 'saved', deleted: 'deleted' }
const categoriesOf = (ctx: Ctx) => listCategories({ ctx, input: { limit: 100 } }).data.map((c) => ({ id: c.id, name: c.name }))

/** The problem's field, in the form's terms (a duplicate slug is the name's doing). */
function errorsOf(problem: Problem | undefined): Record<string, string> {
  if (!problem?.field) return {}
  const id = problem.field === 'slug' ? 'name' : controlId(problem.field)
  return { [id]: problem.message }
}

export function productPages(kit: PageKit): PageRoute[] {
  const ctxOf = (c: PageReq) => panelOf(c).person!.ctx!

  function editor(c: PageReq, status: number, d: Omit<EditorData, 'categories' | 'currency' | 'errors'> & { errors?: Record<string, string> }) {
    const ctx = ctxOf(c)
    return kit.render(panelOf(c), c.set, status, (f) => editorPage(f, { ...d, errors: d.errors ?? {}, categories: categoriesOf(ctx), currency: ctx.store.currency }))
  }

  const notFound = (c: PageReq) => kit.render(panelOf(c), c.set, 404, (f) => messagePage(f, f.w.notFoundTitle, f.w.notFoundText))

  /** A verb's refusal, shown on the form that was sent; anything else is not the person's to fix. */
  function refused(c: PageReq, e: unknown, d: { id?: string; title: string; form: ProductForm }) {
    if (e instanceof AppError && e.status === 404) return notFound(c)
    if (e instanceof AppError && e.status === 403 && e.code !== 'PLAN_REQUIRED') return kit.render(panelOf(c), c.set, 403, (f) => forbiddenPage(f))
    const problem = problemOf(e, cw(panelOf(c)))
    if (!problem) throw e
    return editor(c, e instanceof AppError ? e.status : 400, { ...d, problem, errors: errorsOf(problem) })
  }

  /** "Add variant" and "Remove" re-show the form (nothing saved); undefined for "Save". */
  function rowAction(c: PageReq, d: { id?: string; title: string; form: ProductForm }) {
    const action = field(c.body, '_action') ?? 'save'
    if (action === 'add' && d.form.variants.length < MAX_VARIANT_ROWS) {
      d.form.variants.push({ name: '', price: d.form.price, stock: '', active: true })
      return editor(c, 200, d)
    }
    const remove = /^remove-(\d+)$/.exec(action)
    if (remove) {
      d.form.variants.splice(Number(remove[1]), 1)
      return editor(c, 200, d)
    }
    return undefined
  }

  const titleOf = (c: PageReq, name: string) => cw(panelOf(c)).editProduct(name)

  return [
    {
      method: 'get',
      path: '/admin/products',
      need: 'products:read',
      handler: (c) => {
        const p = panelOf(c)
        const ctx = ctxOf(c)
        const q = (c.query.q ?? '').slice(0, 200)
        const status = c.query.status === 'active' || c.query.status === 'inactive' ? c.query.status : 'all'
        const page = Math.min(1e6, Math.max(1, Math.floor(Number(c.query.page)) || 1))
        const r = searchProducts(ctx, { q, status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
        const done = c.query.done === 'deleted' ? cw(p).deleted : undefined
        return kit.render(p, c.set, 200, (f) =>
          listPage(f, { q, status, page, total: r.total, done, rows: r.data.map((x) => ({ ...x, price: formatMoney(x.price, ctx.store.currency, f.w.locale) })) }),
        )
      },
    },
    { method: 'get', path: '/admin/products/new', need: 'products:write', handler: (c) => editor(c, 200, { title: cw(panelOf(c)).newProduct, form: emptyForm() }) },
    {
      method: 'post',
      path: '/admin/products',
      need: 'products:write',
      handler: (c) => {
        const d = { title: cw(panelOf(c)).newProduct, form: readForm(c.body) }
        const shown = rowAction(c, d)
        if (shown) return shown
        try {
          const created = createProduct({ ctx: ctxOf(c), input: createInput(d.form) })
          return kit.seeOther(c.set, `/admin/products/${encodeURIComponent(created.id)}?done=saved`)
        } catch (e) {
          return refused(c, e, d)
        }
      },
    },
    {
      method: 'get',
      path: '/admin/products/:id',
      need: 'products:read',
      owns: products,
      handler: (c) => {
        const ctx = ctxOf(c)
        let d
        try {
          const product = getProduct({ ctx, input: { id: c.params.id! } })
          d = { id: product.id, title: titleOf(c, product.name), form: formOf(product, variantsForEditing(ctx, product.id)) }
        } catch (e) {
          if (e instanceof AppError && e.status === 404) return notFound(c)
          throw e
        }
        return editor(c, 200, { ...d, done: DONE[c.query.done ?? ''] === 'saved' ? cw(panelOf(c)).saved : undefined })
      },
    },
    {
      method: 'post',
      path: '/admin/products/:id',
      need: 'products:write',
      owns: products,
      handler: (c) => {
        const id = c.params.id!
        const form = readForm(c.body)
        const d = { id, title: titleOf(c, form.name), form }
        const shown = rowAction(c, d)
        if (shown) return shown
        try {
          updateProduct({ ctx: ctxOf(c), input: { id, ...updateInput(form) } })
          return kit.seeOther(c.set, `/admin/products/${encodeURIComponent(id)}?done=saved`)
        } catch (e) {
          return refused(c, e, d)
        }
      },
    },
    {
      method: 'get',
      path: '/admin/products/:id/delete',
      need: 'products:write',
      owns: products,
      handler: (c) => {
        try {
          const product = getProduct({ ctx: ctxOf(c), input: { id: c.params.id! } })
          return kit.render(panelOf(c), c.set, 200, (f) => deleteConfirmPage(f, product))
        } catch (e) {
          if (e instanceof AppError && e.status === 404) return notFound(c)
          throw e
        }
      },
    },
    {
      method: 'post',
      path: '/admin/products/:id/delete',
      need: 'products:write',
      owns: products,
      handler: (c) => {
        try {
          deleteProduct({ ctx: ctxOf(c), input: { id: c.params.id! } })
        } catch (e) {
          if (e instanceof AppError && e.status === 404) return notFound(c)
          throw e
        }
        return kit.seeOther(c.set, '/admin/products?done=deleted')
      },
    },
  ]
}
