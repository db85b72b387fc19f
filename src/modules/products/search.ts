/**
 * The seller's reads of the catalog (the panel's product list and editor): a name search with an
 * active/inactive filter and paging, and a product's variants including the inactive ones (the
 * API's product view lists only active variants; the editor shows all, since a removed variant is
 * kept inactive for the orders that name it).
 */
import { and, asc, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { products, variants } from '../../db/schema'
import { toMajor, toMajorOrNull } from '../../lib/money'
import { ownProduct } from './service'

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
  return {
    total,
    data: rows.map((p) => ({
      id: p.id,
      name: p.name,
      price: toMajor(p.price, currency),
      comparePrice: toMajorOrNull(p.comparePrice, currency),
      isActive: p.isActive,
      stock: p.stock,
    })),
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
