import { and, count, eq, isNull } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import type { Runner } from '../../db/client'
import { categories, products, variants, type Product } from '../../db/schema'
import { Conflict, ValidationError, isUniqueViolation } from '../../lib/errors'
import { toMinor } from '../../lib/money'
import { slugify } from '../../lib/slug'
import { imagesOf } from './images/views'
import { checkImageUrl } from './image-url'
import { crossesLowStock } from './low-stock'
import { capFor, enforceCap } from '../plans'
import { activeFilter, isoParam, page } from '../shared'
import { activeVariantsOf, countProducts, pageOfProducts, productById, type ProductFilter } from './sql'
import { owned } from '../shared'
import { write, type Fx } from '../../kernel/write'
import type { ProductCreate, ProductListQuery, ProductUpdate } from './model'
import { productView } from './view'

export { productView }

/** The list's filter from its query (400 on a bad date). */
export const productFilter = (ctx: Ctx, q: ProductListQuery): ProductFilter => ({
  storeId: ctx.store.id,
  isActive: activeFilter(q.isActive, 'true'),
  createdSince: isoParam(q.createdSince, 'createdSince'),
  updatedSince: isoParam(q.updatedSince, 'updatedSince'),
})

/** The list built whole from the database: the route serves `listProductsJson` (fragments.ts), which equals it. */
export function listProducts({ ctx, input: q }: { ctx: Ctx; input: ProductListQuery }) {
  const { limit, offset } = page(q)
  const f = productFilter(ctx, q)
  const client = ctx.db.$client
  const rows = pageOfProducts(client, f, limit, offset)
  const total = countProducts(client, f)
  const ids = rows.map((r) => r.id)
  const vs = activeVariantsOf(client, ids)
  const imgs = imagesOf(ctx.db, ids, ctx.config.publicUrl)
  return {
    data: rows.map((p) => productView(p, vs.get(p.id) ?? [], ctx.store.currency, imgs.get(p.id))),
    total,
    limit,
    offset,
  }
}

/**
 * The store's live product: 404 when missing or deleted, 403 when another store's. `_tx` is
 * accepted for callers inside a transaction: the read runs on the same connection either way.
 */
export function ownProduct(ctx: Ctx, id: string): Product {
  const row = productById(ctx.db.$client, id)
  return owned(ctx, row?.deletedAt === null ? row : undefined, 'Product')
}

export function getProduct({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  const p = ownProduct(ctx, id)
  return productView(
    p,
    activeVariantsOf(ctx.db.$client, [id]).get(id) ?? [],
    ctx.store.currency,
    imagesOf(ctx.db, [id], ctx.config.publicUrl).get(id),
  )
}

function checkCategory(ctx: Ctx, db: Runner, categoryId: string | null | undefined): void {
  if (!categoryId) return
  const c = db.select({ storeId: categories.storeId }).from(categories).where(eq(categories.id, categoryId)).get()
  if (!c || c.storeId !== ctx.store.id)
    throw new ValidationError('categoryId', 'not_found', 'categoryId does not name a category of this store')
}

const duplicateSlug = (slug: string) =>
  new Conflict('DUPLICATE_SLUG', `A product with slug '${slug}' already exists`, { field: 'slug', slug })

function money(ctx: Ctx, amount: number, field: string) {
  return toMinor(amount, ctx.store.currency, field)
}

/** A "was" price at or under the price would show a discount that isn't one. */
function checkComparePrice(price: number, comparePrice: number | null): void {
  if (comparePrice !== null && comparePrice <= price)
    throw new ValidationError('comparePrice', 'out_of_range', "'comparePrice' must be greater than 'price' (or null)")
}

export function createProduct({ ctx, input }: { ctx: Ctx; input: ProductCreate }) {
  const id = slugTaken(input.slug ?? slugify(input.name), () =>
    write(ctx, (tx, fx) => insertProductTx(ctx, tx, fx, input)),
  )
  return getProduct({ ctx, input: { id } })
}

/** A unique-index refusal of the slug, as the API's 409. */
function slugTaken<T>(slug: string, fn: () => T): T {
  try {
    return fn()
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateSlug(slug)
    throw err
  }
}

/**
 * createProduct inside the caller's write, with every rule (caps, compare-at price, category):
 * batches (bulk edit, CSV import, batch.ts) run many in one transaction. Returns the new id.
 */
export function insertProductTx(ctx: Ctx, tx: Runner, fx: Fx, input: ProductCreate): string {
  const slug = input.slug ?? slugify(input.name)
  const price = money(ctx, input.price, 'price')
  const comparePrice = input.comparePrice == null ? null : money(ctx, input.comparePrice, 'comparePrice')
  checkComparePrice(price, comparePrice)
  checkImageUrl(input.imageUrl)
  const variantRows = (input.variants ?? []).map((v, i) => ({
    name: v.name,
    price: money(ctx, v.price, `variants[${i}].price`),
    isActive: v.isActive ?? true,
    stock: v.stock ?? null,
    position: i,
  }))
  const now = ctx.clock.now()
  // The count reads every live product of the store (~70 ns each here: creating 3,000 in one CSV
  // import spent ~0.4 s counting): only a finite cap needs it.
  if (capFor(ctx.config, ctx.store.plan, 'productLimit') !== Infinity) {
    const current = tx
      .select({ n: count() })
      .from(products)
      .where(and(eq(products.storeId, ctx.store.id), isNull(products.deletedAt)))
      .get()!.n
    enforceCap(ctx, 'productLimit', current + 1, current)
  }
  if (variantRows.length > 0) enforceCap(ctx, 'variants', variantRows.length, 0)
  checkCategory(ctx, tx, input.categoryId)
  const p = slugTaken(slug, () =>
    tx
      .insert(products)
      .values({
        storeId: ctx.store.id,
        name: input.name,
        slug,
        description: input.description ?? null,
        price,
        comparePrice,
        imageUrl: input.imageUrl ?? null,
        isActive: input.isActive ?? true,
        stock: input.stock ?? null,
        categoryId: input.categoryId ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: products.id })
      .get(),
  )
  if (variantRows.length)
    tx.insert(variants)
      .values(variantRows.map((v) => ({ ...v, productId: p.id, createdAt: now, updatedAt: now })))
      .run()
  fx.productsChanged([p.id])
  return p.id
}

/** The product changed since the editor read it (`ifUpdatedAt`): nothing of this save is applied. */
export const editConflict = () =>
  new Conflict('EDIT_CONFLICT', 'The product changed since it was read; read it again before saving', {
    field: 'updatedAt',
  })

/**
 * Partial update. A `variants` array updates the variants that carry an `id`, creates those
 * without, and deactivates the rest — never deletes them, since orders reference them; their
 * order in the array is their order (`position`). `ifUpdatedAt` (ms, the `updatedAt` the editor
 * read): checked inside the write transaction, so a save based on an older read is refused
 * whole (409 EDIT_CONFLICT) instead of dropping what another save added in between.
 */
export function updateProduct({
  ctx,
  input,
}: {
  ctx: Ctx
  input: { id: string; ifUpdatedAt?: number } & ProductUpdate
}) {
  slugTaken(input.slug ?? '', () => write(ctx, (tx, fx) => changeProductTx(ctx, tx, fx, input)))
  return getProduct({ ctx, input: { id: input.id } })
}

/** updateProduct inside the caller's write, with every rule (batch.ts runs many in one transaction). */
export function changeProductTx(
  ctx: Ctx,
  tx: Runner,
  fx: Fx,
  { id, ifUpdatedAt, ...input }: { id: string; ifUpdatedAt?: number } & ProductUpdate,
): void {
  const { variants: variantInput, ...fields } = input
  const set: Partial<typeof products.$inferInsert> = {}
  if (fields.name !== undefined) set.name = fields.name
  if (fields.slug !== undefined) set.slug = fields.slug
  if (fields.description !== undefined) set.description = fields.description
  if (fields.price !== undefined) set.price = money(ctx, fields.price, 'price')
  if (fields.comparePrice !== undefined)
    set.comparePrice = fields.comparePrice === null ? null : money(ctx, fields.comparePrice, 'comparePrice')
  if (fields.imageUrl !== undefined) checkImageUrl((set.imageUrl = fields.imageUrl))
  if (fields.isActive !== undefined) set.isActive = fields.isActive
  if (fields.stock !== undefined) set.stock = fields.stock
  if (fields.categoryId !== undefined) set.categoryId = fields.categoryId
  const wanted = variantInput?.map((v, i) => ({ ...v, price: money(ctx, v.price, `variants[${i}].price`) }))
  const now = ctx.clock.now()
  const current = ownProduct(ctx, id)
  if (ifUpdatedAt !== undefined && current.updatedAt !== ifUpdatedAt) throw editConflict()
  // Checked against the resulting values, only when this update touches either price.
  if (set.price !== undefined || set.comparePrice !== undefined)
    checkComparePrice(
      set.price ?? current.price,
      set.comparePrice === undefined ? current.comparePrice : set.comparePrice,
    )
  checkCategory(ctx, tx, fields.categoryId)
  // Strictly later than the version it replaces, even within one millisecond (or a fixed
  // clock): two saves never leave the same updatedAt, so `ifUpdatedAt` tells them apart.
  const at = Math.max(now, current.updatedAt + 1)
  slugTaken(fields.slug ?? '', () =>
    tx
      .update(products)
      .set({ ...set, updatedAt: at })
      .where(eq(products.id, id))
      .run(),
  )
  const crossed = wanted ? syncVariants(ctx, tx, id, wanted, at) : []
  if (crossesLowStock(current.stock, set.stock)) crossed.push(null)
  for (const variantId of crossed) fx.emit('stock.low', { productId: id, variantId })
  fx.productsChanged([id])
}

type VariantWanted = { id?: string; name: string; price: number; isActive?: boolean; stock?: number | null }

/** Returns the variants whose stock this took to the low-stock mark. */
function syncVariants(
  ctx: Ctx,
  tx: Runner,
  productId: string,
  wanted: VariantWanted[],
  now: number,
): (string | null)[] {
  const existing = new Map(
    tx
      .select()
      .from(variants)
      .where(eq(variants.productId, productId))
      .all()
      .map((v) => [v.id, v]),
  )
  const activeAfter = wanted.filter((v) => v.isActive !== false).length
  const activeBefore = [...existing.values()].filter((v) => v.isActive).length
  const adding = wanted.filter((v) => !v.id).length
  // Creating a variant (even an inactive one) or activating more than before needs the
  // plan's allowance; re-sending what a downgraded store already has does not.
  if (adding > 0 || activeAfter > activeBefore) enforceCap(ctx, 'variants', Math.max(activeAfter, adding), activeBefore)
  const kept = new Set<string>()
  const crossed: (string | null)[] = []
  wanted.forEach((v, i) => {
    if (v.id) {
      if (!existing.has(v.id))
        throw new ValidationError(`variants[${i}].id`, 'not_found', 'Variant id does not belong to this product')
      kept.add(v.id)
      // An absent `stock` keeps the count: a client that doesn't know about stock can't reset it.
      const stock = v.stock === undefined ? {} : { stock: v.stock }
      if (crossesLowStock(existing.get(v.id)!.stock, v.stock)) crossed.push(v.id)
      tx.update(variants)
        .set({ name: v.name, price: v.price, isActive: v.isActive ?? true, position: i, ...stock, updatedAt: now })
        .where(eq(variants.id, v.id))
        .run()
    } else {
      tx.insert(variants)
        .values({
          productId,
          name: v.name,
          price: v.price,
          isActive: v.isActive ?? true,
          stock: v.stock ?? null,
          position: i,
          createdAt: now,
          updatedAt: now,
        })
        .run()
    }
  })
  for (const v of existing.values()) {
    if (!kept.has(v.id) && v.isActive)
      tx.update(variants).set({ isActive: false, updatedAt: now }).where(eq(variants.id, v.id)).run()
  }
  return crossed
}

/** Soft delete: the row stays for orders and reviews; GET answers 404 afterwards. */
export function deleteProduct({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  write(ctx, (tx, fx) => {
    ownProduct(ctx, id)
    const now = ctx.clock.now()
    tx.update(products).set({ deletedAt: now, isActive: false, updatedAt: now }).where(eq(products.id, id)).run()
    fx.productsChanged([id])
  })
  return { id, deleted: true as const }
}
