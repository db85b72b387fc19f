import { and, asc, count, eq, max, type SQL } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { categories, products, type Category } from '../../db/schema'
import { Conflict, isUniqueViolation } from '../../lib/errors'
import { slugify } from '../../lib/slug'
import { iso } from '../../lib/time'
import { enforceCap } from '../plans'
import { activeFilter, page, sinceFilters } from '../shared'
import { owned } from '../shared'
import { write } from '../../kernel/write'
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

export function listCategories({ ctx, input: q }: { ctx: Ctx; input: CategoryListQuery }) {
  const { limit, offset } = page(q)
  const where: SQL[] = [eq(categories.storeId, ctx.store.id), ...sinceFilters(q, categories)]
  const active = activeFilter(q.isActive, 'all')
  if (active !== undefined) where.push(eq(categories.isActive, active))
  const cond = and(...where)
  const rows = ctx.db
    .select()
    .from(categories)
    .where(cond)
    .orderBy(asc(categories.position), asc(categories.createdAt))
    .limit(limit)
    .offset(offset)
    .all()
  const total = ctx.db.select({ n: count() }).from(categories).where(cond).get()!.n
  return { data: rows.map(categoryView), total, limit, offset }
}

/** The store's category, 404 when missing, 403 when another store's. */
export const ownCategory = (ctx: Ctx, id: string): Category =>
  owned(ctx, ctx.db.select().from(categories).where(eq(categories.id, id)).get(), 'Category')

/** One category of the store: 404 when missing, 403 when another store's. */
export const getCategory = ({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) =>
  categoryView(ownCategory(ctx, id))

const duplicateSlug = (slug: string) =>
  new Conflict('DUPLICATE_SLUG', `A category with slug '${slug}' already exists`, { field: 'slug', slug })

export function createCategory({ ctx, input }: { ctx: Ctx; input: CategoryCreate }) {
  const slug = input.slug ?? slugify(input.name)
  const now = ctx.clock.now()
  try {
    const row = write(ctx, (tx) => {
      const { n, last } = tx
        .select({ n: count(), last: max(categories.position) })
        .from(categories)
        .where(eq(categories.storeId, ctx.store.id))
        .get()!
      enforceCap(ctx, 'categoryLimit', n + 1, n)
      // Without a position a new category goes last, so the list keeps creation order.
      const position = input.position ?? (last === null ? 0 : last + 1)
      return tx
        .insert(categories)
        .values({
          storeId: ctx.store.id,
          name: input.name,
          slug,
          position,
          isActive: input.isActive ?? true,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get()
    })
    return categoryView(row)
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSlug(slug)
    throw err
  }
}

export function updateCategory({ ctx, input: { id, ...input } }: { ctx: Ctx; input: { id: string } & CategoryUpdate }) {
  const set: Partial<typeof categories.$inferInsert> = {}
  if (input.name !== undefined) set.name = input.name
  if (input.slug !== undefined) set.slug = input.slug
  if (input.position !== undefined) set.position = input.position
  if (input.isActive !== undefined) set.isActive = input.isActive
  try {
    const row = write(ctx, (tx) => {
      ownCategory(ctx, id)
      return tx
        .update(categories)
        .set({ ...set, updatedAt: ctx.clock.now() })
        .where(eq(categories.id, id))
        .returning()
        .get()!
    })
    return categoryView(row)
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSlug(input.slug ?? '')
    throw err
  }
}

/** Its products stay, with `categoryId` set to null (contract); soft-deleted ones too. */
export function deleteCategory({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  write(ctx, (tx) => {
    ownCategory(ctx, id)
    tx.update(products).set({ categoryId: null, updatedAt: ctx.clock.now() }).where(eq(products.categoryId, id)).run()
    tx.delete(categories).where(eq(categories.id, id)).run()
  })
  return { id, deleted: true as const }
}
