import { and, asc, count, eq, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../context'
import { categories, products, type Category } from '../../db/schema'
import { Conflict, NotFound, OtherStore, isUniqueViolation } from '../../lib/errors'
import { slugify } from '../../lib/slug'
import { iso } from '../../lib/time'
import { enforceCap } from '../plans/caps'
import { activeFilter, page, sinceFilters } from '../shared/query'
import { write } from '../shared/write'
import type { CategoryCreate, CategoryListQuery, CategoryUpdate } from './model'

export const categoryView = (c: Category) => ({
  id: c.id,
  name: c.name,
  slug: c.slug,
  position: c.position,
  isActive: c.isActive,
  createdAt: iso(c.createdAt),
  updatedAt: iso(c.updatedAt),
})

export function listCategories(ctx: Ctx, q: CategoryListQuery) {
  const { limit, offset } = page(q)
  const where: SQL[] = [eq(categories.storeId, ctx.store.id), ...sinceFilters(q, categories)]
  const active = activeFilter(q.isActive, 'all')
  if (active !== undefined) where.push(eq(categories.isActive, active))
  const cond = and(...where)
  const rows = ctx.db.select().from(categories).where(cond).orderBy(asc(categories.position), asc(categories.createdAt)).limit(limit).offset(offset).all()
  const total = ctx.db.select({ n: count() }).from(categories).where(cond).get()!.n
  return { data: rows.map(categoryView), total, limit, offset }
}

/** The store's category, 404 when missing, 403 when another store's. */
export function ownCategory(ctx: Ctx, id: string): Category {
  const row = ctx.db.select().from(categories).where(eq(categories.id, id)).get()
  if (!row) throw new NotFound('Category')
  if (row.storeId !== ctx.store.id) throw new OtherStore('category')
  return row
}

const duplicateSlug = (slug: string) => new Conflict('DUPLICATE_SLUG', `A category with slug '${slug}' already exists`, { field: 'slug', slug })

export function createCategory(ctx: Ctx, input: CategoryCreate) {
  const slug = input.slug ?? slugify(input.name)
  const now = ctx.clock.now()
  try {
    const row = write(ctx, (tx) => {
      const current = tx.select({ n: count() }).from(categories).where(eq(categories.storeId, ctx.store.id)).get()!.n
      enforceCap(ctx, 'categoryLimit', current + 1)
      return tx
        .insert(categories)
        .values({ storeId: ctx.store.id, name: input.name, slug, position: input.position ?? 0, isActive: input.isActive ?? true, createdAt: now, updatedAt: now })
        .returning()
        .get()
    })
    return categoryView(row)
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSlug(slug)
    throw err
  }
}

export function updateCategory(ctx: Ctx, id: string, input: CategoryUpdate) {
  ownCategory(ctx, id)
  try {
    const row = write(ctx, (tx) =>
      tx
        .update(categories)
        .set({ ...input, updatedAt: ctx.clock.now() })
        .where(eq(categories.id, id))
        .returning()
        .get()!,
    )
    return categoryView(row)
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSlug(input.slug ?? '')
    throw err
  }
}

/** Its products stay, with `categoryId` set to null (contract). */
export function deleteCategory(ctx: Ctx, id: string) {
  ownCategory(ctx, id)
  write(ctx, (tx) => {
    tx.update(products).set({ categoryId: null, updatedAt: ctx.clock.now() }).where(eq(products.categoryId, id)).run()
    tx.delete(categories).where(eq(categories.id, id)).run()
  })
  return { id, deleted: true as const }
}
