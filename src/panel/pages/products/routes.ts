import { AppError } from '../../../lib/errors'
import {
  createProduct,
  deleteProduct,
  getProduct,
  searchProducts,
  updateProduct,
  type StagedParts,
} from '../../../modules/products'
import { formatMoney } from '../../../shop/i18n'
import { controlId, field, pageParam, tokenOk, problemsOf, refusalOf, type PageReq, type PageRoute } from '../kit'
import { addPictures, pickedParts } from './add-pictures'
import { deleteConfirmPage } from './editor'
import { applyRowAction, createInput, emptyForm, openedAt, readForm, updateInput, type ProductForm } from './form'
import { listPage, PAGE_SIZE } from './list'
import { picturePages, picturesDone } from './pictures'
import { pictureProblem } from './picture-problems'
import { productRenderer } from './render'
import { readNewProductBody } from './form-body'
import type { PanelEnv } from '../../env'

const DONE: Record<string, 'saved' | 'deleted'> = { saved: 'saved', deleted: 'deleted' }

/** An API field's control on this form (a duplicate slug is the name's doing). */
const productControl = (apiField: string) => (apiField === 'slug' ? 'name' : controlId(apiField))

export function productPages(kit: PanelEnv): PageRoute[] {
  const r = productRenderer(kit)
  const { editor } = r

  /** A verb's refusal, shown on the form that was sent; anything else is not the person's to fix. */
  function refused(c: PageReq, e: unknown, d: { id?: string; title: string; form: ProductForm }) {
    const page = r.missing(c, e)
    if (page) return page
    // Another save came between this form's read and its save: nothing was applied; say so, keep the person's values.
    if (e instanceof AppError && e.code === 'EDIT_CONFLICT') return editor(c, 409, { ...d, conflict: true })
    const problems = problemsOf(e, c.p.w)
    if (!problems) throw e
    return editor(c, e instanceof AppError ? e.status : 400, { ...d, ...refusalOf(problems, productControl) })
  }

  /** "Add variant", "Remove", "Move up/down" re-show the form (nothing saved); undefined for "Save". */
  function rowAction(c: PageReq, d: { id?: string; title: string; form: ProductForm }) {
    return applyRowAction(d.form, field(c.body, '_action') ?? 'save') ? editor(c, 200, d) : undefined
  }

  /**
   * A row button re-shows the form; "Save" runs `save` (the saved
   * product's id) and redirects to it, or shows the refusal on the form.
   */
  function submit(c: PageReq, d: { id?: string; title: string; form: ProductForm }, save: () => string) {
    const shown = rowAction(c, d)
    if (shown) return shown
    try {
      return kit.seeOther(c.set, `/admin/products/${encodeURIComponent(save())}?done=saved`)
    } catch (e) {
      return refused(c, e, d)
    }
  }

  const titleOf = (c: PageReq, name: string) => c.p.w.products.editProduct(name)

  /**
   * The new-product form: its fields and its picked pictures, staged like the picture form's
   * (a place among the store's uploads in flight first, files streamed to disk, each held to its
   * limit by the verb). A row button or a refusal shows the form again (the pictures must be picked
   * again); a created product gets its pictures in order, and a refused file is named on its editor.
   */
  async function create(c: PageReq): Promise<Response> {
    const ctx = c.ctx
    const p = c.p
    const { config, uploads } = kit.deps
    const title = p.w.products.newProduct
    const blank = (status: number, message: string) =>
      editor(c, status, { title, form: emptyForm(), problem: { message } })
    let release: () => void
    try {
      release = uploads.admitRequest(ctx.store.id, c.request, c.set.headers)
    } catch (e) {
      return blank(429, pictureProblem(e, p.w, config)!.message)
    }
    try {
      let staged: StagedParts
      try {
        staged = await readNewProductBody(c.request, config)
      } catch (e) {
        const problem = pictureProblem(e, p.w, config)
        if (!problem) throw e
        return blank(problem.status, problem.message)
      }
      try {
        if (!tokenOk(c, staged.fields)) return r.forbidden(c)
        const parts = pickedParts(staged.files)
        const d = { title, form: readForm(staged.fields), picked: parts.length }
        if (applyRowAction(d.form, staged.fields._action ?? 'save')) return editor(c, 200, d)
        let id: string
        try {
          id = createProduct({ ctx, input: createInput(d.form, ctx.store.currency) }).id
        } catch (e) {
          return refused(c, e, d)
        }
        const { added, errors, status, upgradeUrl } = await addPictures(kit, c, ctx, id, parts)
        if (errors.length)
          return r.stored(c, status, id, {
            done: p.w.common.saved,
            pictures: { errors, upgradeUrl, done: added ? p.w.products.picturesAdded(added) : undefined },
          })
        return kit.seeOther(
          c.set,
          `/admin/products/${encodeURIComponent(id)}?done=saved${added ? `&added=${added}` : ''}`,
        )
      } finally {
        await staged.remove()
      }
    } finally {
      release()
    }
  }

  return [
    ...picturePages(kit, r),
    {
      method: 'get',
      path: '/admin/products',
      need: 'products:read',
      handler: (c) => {
        const p = c.p
        const ctx = c.ctx
        const q = (c.query.q ?? '').slice(0, 200)
        const status = c.query.status === 'active' || c.query.status === 'inactive' ? c.query.status : 'all'
        const page = pageParam(c.query)
        const r = searchProducts({ ctx, input: { q, status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } })
        const done = c.query.done === 'deleted' ? p.w.products.deleted : undefined
        return kit.render(p, c.set, 200, (f) =>
          listPage(f, {
            q,
            status,
            page,
            total: r.total,
            done,
            rows: r.data.map((x) => ({ ...x, price: formatMoney(x.price, ctx.store.currency, f.w.shell.locale) })),
          }),
        )
      },
    },
    {
      method: 'get',
      path: '/admin/products/new',
      need: 'products:write',
      handler: (c) => editor(c, 200, { title: c.p.w.products.newProduct, form: emptyForm() }),
    },
    // The new product's fields and the pictures picked with them come in one streamed multipart body.
    { method: 'post', path: '/admin/products', need: 'products:write', upload: true, handler: (c) => create(c) },
    {
      method: 'get',
      path: '/admin/products/:id',
      need: 'products:read',
      owns: 'products',
      handler: (c) => {
        const pictures = { done: picturesDone(c) }
        return r.stored(c, 200, c.params.id!, {
          done: DONE[c.query.done ?? ''] === 'saved' ? c.p.w.common.saved : undefined,
          pictures,
        })
      },
    },
    {
      method: 'post',
      path: '/admin/products/:id',
      need: 'products:write',
      owns: 'products',
      handler: (c) => {
        const id = c.params.id!
        const form = readForm(c.body)
        const d = { id, title: titleOf(c, form.name), form }
        return submit(
          c,
          d,
          () =>
            updateProduct({
              ctx: c.ctx,
              input: { id, ...updateInput(form, c.ctx.store.currency), ifUpdatedAt: openedAt(form) },
            }).id,
        )
      },
    },
    {
      method: 'get',
      path: '/admin/products/:id/delete',
      need: 'products:write',
      owns: 'products',
      handler: (c) => {
        try {
          const product = getProduct({ ctx: c.ctx, input: { id: c.params.id! } })
          return kit.render(c.p, c.set, 200, (f) => deleteConfirmPage(f, product))
        } catch (e) {
          const page = r.missing(c, e)
          if (page) return page
          throw e
        }
      },
    },
    {
      method: 'post',
      path: '/admin/products/:id/delete',
      need: 'products:write',
      owns: 'products',
      handler: (c) => {
        try {
          deleteProduct({ ctx: c.ctx, input: { id: c.params.id! } })
        } catch (e) {
          const page = r.missing(c, e)
          if (page) return page
          throw e
        }
        return kit.seeOther(c.set, '/admin/products?done=deleted')
      },
    },
  ]
}
