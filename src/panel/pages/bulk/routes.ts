/**
 * The bulk edit page (/admin/products/bulk): a page of the catalog's prices and stock, and its
 * save — the cells the person changed, applied by the products module's editPricesAndStock in one
 * transaction or none, each refused row shown with its reason in the person's language.
 */
import {
  BatchRefused,
  editPricesAndStock,
  priceStockGrid,
  type GridRow,
  type PriceStockChange,
} from '../../../modules/products'
import { AppError } from '../../../lib/errors'
import { ctxFor, type Ctx } from '../../../kernel/context'
import { field, numberField, pageParam, problemOf, type PageReq, type PageRoute, type Problem } from '../kit'
import { bulkPage, type BulkRow } from './view'
import type { PanelEnv } from '../../env'

/** Products a page (each with all its active variants): bounds the grid and the form it posts. */
export const BULK_PAGE_SIZE = 50
const MAX_ROWS = BULK_PAGE_SIZE * 100

/** The person's ctx with its activity line named for the whole batch (one line per save or import). */
export const noted = (ctx: Ctx, verb: string): Ctx =>
  ctxFor(ctx, ctx.store, ctx.actor, ctx.activity ? { ...ctx.activity, verb, recordType: 'product' } : undefined)

const keyOf = (r: GridRow) => (r.variantId ? `${r.productId}:${r.variantId}` : r.productId)
const text = (v: number | null) => (v === null ? '' : String(v))

/** The page's rows as stored. */
function gridRows(ctx: Ctx, page: number) {
  const g = priceStockGrid(ctx, { limit: BULK_PAGE_SIZE, offset: (page - 1) * BULK_PAGE_SIZE })
  const rows: BulkRow[] = g.rows.map((r) => ({
    key: keyOf(r),
    label: r.variantName ? `${r.productName} · ${r.variantName}` : r.productName,
    price: text(r.price),
    stock: text(r.stock),
  }))
  return { rows, pages: Math.max(1, Math.ceil(g.total / BULK_PAGE_SIZE)) }
}

interface Posted {
  key: string
  price: string
  stock: string
  wasPrice: string
  wasStock: string
}

function readPosted(body: unknown): Posted[] {
  const count = Math.min(MAX_ROWS, Math.max(0, Number(field(body, 'rowCount')) || 0))
  const out: Posted[] = []
  for (let i = 0; i < count; i++) {
    const key = field(body, `r${i}-key`)
    if (!key) continue
    const get = (n: string) => field(body, `r${i}-${n}`) ?? ''
    out.push({ key, price: get('price'), stock: get('stock'), wasPrice: get('price-was'), wasStock: get('stock-was') })
  }
  return out
}

/** The changed cells as the verb's input; a stock cell left empty means "not tracked". */
function changesOf(posted: Posted[]): { changes: PriceStockChange[]; keys: string[] } {
  const changes: PriceStockChange[] = []
  const keys: string[] = []
  for (const p of posted) {
    const priceChanged = p.price.trim() !== p.wasPrice.trim()
    const stockChanged = p.stock.trim() !== p.wasStock.trim()
    if (!priceChanged && !stockChanged) continue
    const [productId, variantId] = p.key.split(':')
    const c: PriceStockChange = { productId: productId!, ...(variantId ? { variantId } : {}) }
    if (priceChanged) c.price = numberField({ v: p.price }, 'v') ?? ''
    if (stockChanged) c.stock = numberField({ v: p.stock }, 'v') ?? null
    changes.push(c)
    keys.push(p.key)
  }
  return { changes, keys }
}

export function bulkPages(kit: PanelEnv): PageRoute[] {
  const pageOf = (c: PageReq) => pageParam(c.query)
  const where = (page: number, done: string) => `/admin/products/bulk?${page > 1 ? `page=${page}&` : ''}done=${done}`

  return [
    {
      method: 'get',
      path: '/admin/products/bulk',
      need: 'products:read',
      handler: (c) => {
        const p = c.p
        const ctx = c.ctx
        const page = pageOf(c)
        const { rows, pages } = gridRows(ctx, page)
        const n = Math.max(0, Math.floor(Number(c.query.n)) || 0)
        const w = p.w
        const done =
          c.query.done === 'saved' ? w.bulk.bulkSaved(n) : c.query.done === 'none' ? w.bulk.nothingChanged : undefined
        return kit.render(p, c.set, 200, (f) =>
          bulkPage(f, { page, pages, pageSize: BULK_PAGE_SIZE, currency: ctx.store.currency, rows, done }),
        )
      },
    },
    {
      method: 'post',
      path: '/admin/products/bulk',
      need: 'products:write',
      handler: (c) => {
        const p = c.p
        const ctx = noted(c.ctx, 'bulk-edit')
        const page = pageOf(c)
        const posted = readPosted(c.body)
        const { changes, keys } = changesOf(posted)
        if (changes.length === 0) return kit.seeOther(c.set, where(page, 'none'))
        try {
          const r = editPricesAndStock({ ctx, input: changes })
          return kit.seeOther(c.set, `${where(page, 'saved')}&n=${r.products}`)
        } catch (e) {
          if (!(e instanceof BatchRefused)) throw e
          const w = p.w
          const errors = new Map<string, string>()
          let problem: Problem | undefined
          for (const { key, error } of e.problems as { key: number; error: unknown }[]) {
            const shown = problemOf(error, w)
            if (shown?.upgradeUrl) problem = shown
            // A forged or vanished id (another store's, a deleted product) is not this store's to edit.
            const gone = error instanceof AppError && (error.status === 403 || error.status === 404)
            errors.set(keys[key]!, gone ? w.problems.err.not_found! : (shown?.message ?? w.problems.err.other!))
          }
          // The page as stored, with what the person typed in the rows they sent.
          const byKey = new Map(posted.map((x) => [x.key, x]))
          const { rows, pages } = gridRows(c.ctx, page)
          const shown = rows.map((r): BulkRow => {
            const x = byKey.get(r.key)
            return x
              ? {
                  ...r,
                  price: x.price,
                  stock: x.stock,
                  wasPrice: x.wasPrice,
                  wasStock: x.wasStock,
                  error: errors.get(r.key),
                }
              : r
          })
          return kit.render(p, c.set, 400, (f) =>
            bulkPage(f, {
              page,
              pages,
              pageSize: BULK_PAGE_SIZE,
              currency: c.ctx.store.currency,
              rows: shown,
              problem,
              refused: errors.size,
            }),
          )
        }
      },
    },
  ]
}
