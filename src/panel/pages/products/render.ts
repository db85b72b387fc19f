/**
 * How the product pages answer: the editor (with the stored product's pictures), its 404 and 403
 * pages, and the pictures fragment the editor's script swaps in. Shared by the product routes
 * (routes.ts) and the picture routes (pictures.ts).
 */
import { getProduct, variantsForEditing, type ImageView } from '../../../modules/products'
import { listCategories } from '../../../modules/categories'
import { AppError } from '../../../lib/errors'
import type { Ctx } from '../../../kernel/context'
import { can, forbiddenPage, messagePage, type Frame } from '../../views'
import type { PanelRequest } from '../../gate'
import type { PageReq } from '../kit'
import { editorPage, type EditorData } from './editor'
import { formOf } from './form'
import type { PicturesView } from './pictures-view'
import type { PanelEnv } from '../../env'

export type EditorInput = Omit<EditorData, 'categories' | 'currency' | 'errors' | 'pictures' | 'maxMb'> & {
  errors?: Record<string, string>
  /** Shown in the pictures section: the last upload's problems, a plan's upgrade link, what was done. */
  pictures?: Pick<PicturesView, 'errors' | 'upgradeUrl' | 'done'>
}

const MB = 1024 * 1024

export function productRenderer(kit: PanelEnv) {
  const categoriesOf = (ctx: Ctx) =>
    listCategories({ ctx, input: { limit: 100 } }).data.map((c) => ({ id: c.id, name: c.name }))
  const maxMb = Math.floor(kit.deps.config.mediaMaxBytes / MB)

  /** The pictures of a stored product as the person sees them (a page's frame, or the request for a fragment). */
  function picturesOf(
    who: Frame | PanelRequest,
    product: { id: string; name: string; images: ImageView[] },
    extra: EditorInput['pictures'] = {},
  ): PicturesView {
    const writable = 'assets' in who ? can(who, 'products:write') : true
    const token = 'assets' in who ? (who.person?.formToken ?? '') : (who.formToken ?? '')
    return {
      w: who.w,
      token,
      writable,
      productId: product.id,
      productName: product.name,
      images: product.images,
      maxMb,
      ...extra,
    }
  }

  function editor(c: PageReq, status: number, d: EditorInput) {
    const ctx = c.ctx
    // The pictures are the stored product's, whatever the form being re-shown says.
    const stored = d.id ? getProduct({ ctx, input: { id: d.id } }) : undefined
    return kit.render(c.p, c.set, status, (f) =>
      editorPage(f, {
        ...d,
        errors: d.errors ?? {},
        categories: categoriesOf(ctx),
        currency: ctx.store.currency,
        maxMb,
        pictures: stored ? picturesOf(f, stored, d.pictures) : undefined,
      }),
    )
  }

  const notFound = (c: PageReq) =>
    kit.render(c.p, c.set, 404, (f) => messagePage(f, f.w.errors.notFoundTitle, f.w.errors.notFoundText))
  const forbidden = (c: PageReq) => kit.render(c.p, c.set, 403, (f) => forbiddenPage(f))

  /** A verb's 404 or 403 (not a plan's) as its page; undefined for anything else. */
  function missing(c: PageReq, e: unknown) {
    if (e instanceof AppError && e.status === 404) return notFound(c)
    if (e instanceof AppError && e.status === 403 && e.code !== 'PLAN_REQUIRED') return forbidden(c)
    return undefined
  }

  /** The stored product in its editor (GET, and after a picture action). */
  function stored(
    c: PageReq,
    status: number,
    id: string,
    extra: Pick<EditorInput, 'done' | 'pictures' | 'problem'> = {},
  ) {
    const ctx = c.ctx
    try {
      const product = getProduct({ ctx, input: { id } })
      return editor(c, status, {
        id,
        title: c.p.w.products.editProduct(product.name),
        form: formOf(product, variantsForEditing({ ctx, input: { productId: id } }), ctx.store.currency),
        ...extra,
      })
    } catch (e) {
      const page = missing(c, e)
      if (page) return page
      throw e
    }
  }

  return { editor, notFound, forbidden, missing, stored, picturesOf }
}
