/**
 * The seller's reads of the catalog (the panel's product list and editor): a name search with an
 * active/inactive filter and paging, and a product's variants including the inactive ones (the
 * API's product view lists only active variants; the editor shows all, since a removed variant is
 * kept inactive for the orders that name it).
 */
import { and, asc, count, desc, eq, inArray, isNull, min, sql, sum, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { products, variants } from '../../db/schema'
import { toMajor, toMajorOrNull } from '../../lib/money'
import { imagesOf } from './images/views'
import { ownProduct } from './service'

import { LOW_STOCK } from './low-stock'

export { LOW_STOCK }

interface VariantStock {
  active: number
  tracked: number
  units: number
  least: number | null
}

/** Per product, its active variants' stock: how many, how many tracked, their units and the fewest. */
function variantStockOf(ctx: Ctx, ids: string[]): Map<string, VariantStock> {
  if (ids.length === 0) return new Map()
  const rows = ctx.db
    .select({
      productId: variants.productId,
      active: count(),
      tracked: count(variants.stock),
      units: sum(variants.stock),
      least: min(variants.stock),
    })
    .from(variants)
    .where(and(inArray(variants.productId, ids), eq(variants.isActive, true)))
    .groupBy(variants.productId)
    .all()
  return new Map(rows.map((r) => [r.productId, { ...r, units: Number(r.units ?? 0) }]))
}

/**
 * What the list shows of a product's stock: the units of its tracked active variants (or its own
 * when it has none), null when nothing is tracked; low when a tracked item has LOW_STOCK or fewer.
 */
function stockOf(own: number | null, v: VariantStock | undefined): { stock: number | null; lowStock: boolean } {
  if (v && v.active > 0)
    return v.tracked === 0
      ? { stock: null, lowStock: false }
      : { stock: v.units, lowStock: v.least !== null && v.least <= LOW_STOCK }
  return { stock: own, lowStock: own !== null && own <= LOW_STOCK }
}

export interface ProductSearch {
  q?: string
  /** 'all' (default), 'active' or 'inactive'. */
  status?: 'all' | 'active' | 'inactive'
  limit: number
  offset: number
}

export function searchProducts({ ctx, input: s }: { ctx: Ctx; input: ProductSearch }) {
  const conds: SQL[] = [eq(products.storeId, ctx.store.id), isNull(products.deletedAt)]
  const q = s.q?.trim()
  // instr, not LIKE: the person's text has no wildcards. lower() folds ASCII only.
  if (q) conds.push(sql`instr(lower(${products.name}), ${q.slice(0, 200).toLowerCase()}) > 0`)
  if (s.status === 'active') conds.push(eq(products.isActive, true))
  if (s.status === 'inactive') conds.push(eq(products.isActive, false))
  const where = and(...conds)
  const rows = ctx.db
    .select()
    .from(products)
    .where(where)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(s.limit)
    .offset(s.offset)
    .all()
  const total = ctx.db.select({ n: count() }).from(products).where(where).get()!.n
  const currency = ctx.store.currency
  const ids = rows.map((p) => p.id)
  const stocks = variantStockOf(ctx, ids)
  const images = imagesOf(ctx.db, ids, ctx.config.publicUrl)
  return {
    total,
    data: rows.map((p) => {
      const first = images.get(p.id)?.[0]
      return {
        id: p.id,
        name: p.name,
        price: toMajor(p.price, currency),
        comparePrice: toMajorOrNull(p.comparePrice, currency),
        isActive: p.isActive,
        ...stockOf(p.stock, stocks.get(p.id)),
        /** The first picture's smallest rendition, for a thumbnail. */
        thumbnail: first ? (first.sizes[0] ?? { url: first.url, width: first.width }) : null,
      }
    }),
  }
}

/** Every variant of the store's product (active or not), by position. 404/403 like the API. */
export function variantsForEditing({ ctx, input: { productId } }: { ctx: Ctx; input: { productId: string } }) {
  ownProduct(ctx, productId)
  const currency = ctx.store.currency
  return ctx.db
    .select()
    .from(variants)
    .where(eq(variants.productId, productId))
    .orderBy(asc(variants.position), asc(variants.createdAt))
    .all()
    .map((v) => ({ id: v.id, name: v.name, price: toMajor(v.price, currency), stock: v.stock, isActive: v.isActive }))
}
