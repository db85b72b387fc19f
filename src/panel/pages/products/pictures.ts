import { deleteImage, getProduct, ImageMove, moveImage, stageUploads } from '../../../modules/products'
import { checkBody } from '../../../plugins/validation-errors'
import { json } from '../../respond'
import { layout } from '../../views'
import { numberField, problemOf, tokenOk, type PageReq, type PageRoute } from '../kit'
import { addPictures, pickedParts, type Added } from './add-pictures'
import { pictureProblem } from './picture-problems'
import { pictureDeleteBody, pictureItems } from './pictures-view'
import type { productRenderer } from './render'
import type { PanelEnv } from '../../env'

type Renderer = ReturnType<typeof productRenderer>

const wantsJson = (c: PageReq) => (c.request.headers.get('accept') ?? '').includes('application/json')
const editorUrl = (id: string, query: string, hash: string) =>
  `/admin/products/${encodeURIComponent(id)}?${query}#${hash}`

/** What the editor's pictures section says after a redirect here (`?done=…`, `?added=n`). */
export function picturesDone(c: PageReq): string | undefined {
  const w = c.p.w
  const added = Number(c.query.added)
  if (Number.isInteger(added) && added > 0 && added <= 1000) return w.products.picturesAdded(added)
  if (c.query.done === 'moved') return w.products.pictureMoved(Number(c.query.to) || 1, Number(c.query.of) || 1)
  if (c.query.done === 'picture-deleted') return w.products.pictureDeleted
  return undefined
}

export function picturePages(kit: PanelEnv, r: Renderer): PageRoute[] {
  const { config, uploads } = kit.deps

  /** The list as it now stands, for the script: the fragment and a sentence for the live region. */
  function fragment(
    c: PageReq,
    id: string,
    status: number,
    extra: { ok: boolean; announce?: string; error?: string; upgradeUrl?: string },
  ) {
    const product = getProduct({ ctx: c.ctx, input: { id } })
    return json(c.set, status, {
      ...extra,
      html: pictureItems(r.picturesOf(c.p, product)).value,
      count: product.images.length,
    })
  }

  async function upload(c: PageReq): Promise<Response> {
    const p = c.p
    const ctx = c.ctx
    const id = c.params.id!
    const w = p.w
    let release: () => void
    try {
      release = uploads.admitRequest(ctx.store.id, c.request, c.set.headers)
    } catch (e) {
      const problem = pictureProblem(e, p.w, config)!
      return wantsJson(c)
        ? fragment(c, id, 429, { ok: false, error: problem.message })
        : r.stored(c, 429, id, { pictures: { errors: [problem.message] } })
    }
    try {
      let staged
      try {
        staged = await stageUploads(c.request, config.dataDir, config.mediaMaxBytes, config.maxProductImages)
      } catch (e) {
        const problem = pictureProblem(e, p.w, config)
        if (!problem) throw e
        return wantsJson(c)
          ? fragment(c, id, problem.status, { ok: false, error: problem.message })
          : r.stored(c, problem.status, id, { pictures: { errors: [problem.message] } })
      }
      try {
        if (!tokenOk(c, staged.fields)) return r.forbidden(c)
        const parts = pickedParts(staged.files)
        let result: Added
        try {
          result = await addPictures(kit, c, ctx, id, parts.length ? parts : [undefined])
        } catch (e) {
          const page = r.missing(c, e)
          if (page) return page
          throw e
        }
        const { added, errors, status, upgradeUrl } = result
        if (wantsJson(c))
          return fragment(c, id, errors.length ? status : 201, {
            ok: errors.length === 0,
            error: errors[0],
            upgradeUrl,
            announce: added ? w.products.picturesAdded(added) : undefined,
          })
        if (errors.length)
          return r.stored(c, status, id, {
            pictures: { errors, upgradeUrl, done: added ? w.products.picturesAdded(added) : undefined },
          })
        return kit.seeOther(c.set, editorUrl(id, `added=${added}`, 'pictures'))
      } finally {
        await staged.remove()
      }
    } finally {
      release()
    }
  }

  function move(c: PageReq): Response | Promise<Response> {
    const id = c.params.id!
    const imageId = c.params.imageId!
    try {
      const { position } = checkBody(ImageMove, { position: numberField(c.body, 'position') })
      moveImage({ ctx: c.ctx, input: { productId: id, imageId, position } })
      const count = getProduct({ ctx: c.ctx, input: { id } }).images.length
      if (wantsJson(c))
        return fragment(c, id, 200, { ok: true, announce: c.p.w.products.pictureMoved(position + 1, count) })
      return kit.seeOther(c.set, editorUrl(id, `done=moved&to=${position + 1}&of=${count}`, `picture-${imageId}`))
    } catch (e) {
      const page = r.missing(c, e)
      if (page) return page
      // A stale page (another tab deleted a picture): the position is out of range. Show the list as it is.
      const problem = problemOf(e, c.p.w)
      if (!problem) throw e
      if (wantsJson(c)) return fragment(c, id, 400, { ok: false, error: problem.message })
      return r.stored(c, 400, id, { problem: { message: problem.message } })
    }
  }

  /** The image and its place, or the 404/403 page. */
  function found(c: PageReq) {
    try {
      const product = getProduct({ ctx: c.ctx, input: { id: c.params.id! } })
      const n = product.images.findIndex((i) => i.id === c.params.imageId)
      return n === -1 ? r.notFound(c) : { product, image: product.images[n]!, n: n + 1 }
    } catch (e) {
      const page = r.missing(c, e)
      if (page) return page
      throw e
    }
  }

  const write = { need: 'products:write', owns: 'products' } as const
  return [
    { method: 'post', path: '/admin/products/:id/pictures', ...write, upload: true, handler: upload },
    { method: 'post', path: '/admin/products/:id/pictures/:imageId/move', ...write, handler: move },
    {
      method: 'get',
      path: '/admin/products/:id/pictures/:imageId/delete',
      ...write,
      handler: (c) => {
        const got = found(c)
        if (got instanceof Response || got instanceof Promise) return got
        return kit.render(c.p, c.set, 200, (f) =>
          layout(
            f,
            f.w.products.deletePictureTitle(got.n),
            pictureDeleteBody(r.picturesOf(f, got.product), got.image, got.n),
            { narrow: true },
          ),
        )
      },
    },
    {
      method: 'post',
      path: '/admin/products/:id/pictures/:imageId/delete',
      ...write,
      handler: async (c) => {
        const id = c.params.id!
        try {
          await deleteImage({ ctx: c.ctx, input: { productId: id, imageId: c.params.imageId! } })
        } catch (e) {
          const page = r.missing(c, e)
          if (page) return page
          throw e
        }
        return kit.seeOther(c.set, editorUrl(id, 'done=picture-deleted', 'pictures'))
      },
    },
  ]
}
