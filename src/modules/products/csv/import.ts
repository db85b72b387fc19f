/**
 * The catalog CSV import: every row in one transaction or none (batch.ts). A dry run does the
 * same work against the same state and rolls back, so what it reports — products to create, to
 * update (matched by slug), unchanged, and each refused line — is what the apply will do, checked
 * by the same rules: the API's schema, then insertProduct / changeProduct (caps, compare-at price,
 * category). The apply plans again inside its transaction: nothing read before it is trusted.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Ctx } from '../../../kernel/context'
import type { Tx } from '../../../db/client'
import { categories, products, variants, type Product, type Variant } from '../../../db/schema'
import { checkBody } from '../../../lib/check-body'
import { AppError, ValidationError } from '../../../lib/errors'
import { toMinor } from '../../../lib/money'
import { allOrNothing } from '../batch'
import { ProductCreate, type ProductUpdate } from '../model'
import { changeProduct, insertProduct } from '../service'
import type { CsvColumn } from './format'
import type { CsvRow } from './parse'
import { bodyOf, groupRows, placeOf, type CsvGroup, type CsvProblem } from './plan'

export interface ImportReport {
  rows: number
  create: { line: number; slug?: string; name: string }[]
  update: { line: number; slug: string; name: string; columns: CsvColumn[] }[]
  unchanged: number
}

/** Refused lines, in file order; the plan's upgrade link rides on a PLAN_REQUIRED error. */
export type ImportPlace = { line: number; column?: CsvColumn }

export function importCatalog({ ctx, input }: { ctx: Ctx; input: { rows: CsvRow[]; dryRun: boolean } }): ImportReport {
  // Nothing to create or update: the apply writes nothing (not even an activity line).
  const dryRun = (r: ImportReport) => input.dryRun || r.create.length + r.update.length === 0
  return allOrNothing<ImportReport, ImportPlace>(
    ctx,
    (tx, fx, refuse) => {
      const problems: CsvProblem[] = []
      const groups = groupRows(input.rows, problems)
      const refused = new Set(problems.map((p) => p.line))
      for (const p of problems) refuse({ line: p.line, ...(p.column ? { column: p.column } : {}) }, p.error)
      const report: ImportReport = { rows: input.rows.length, create: [], update: [], unchanged: 0 }
      const stored = storedOf(ctx, tx, groups)
      const category = categoryFinder(ctx, tx)
      for (const g of groups) {
        if (g.rows.some((r) => refused.has(r.line))) continue
        const line = g.rows[0]!.line
        try {
          const categoryId = category(g.rows[0]!.cells.category)
          const body = checkBody(ProductCreate, bodyOf(g, categoryId))
          const current = g.slug ? stored.products.get(g.slug) : undefined
          if (!current) {
            insertProduct(ctx, tx, fx, body)
            report.create.push({ line, ...(g.slug ? { slug: g.slug } : {}), name: body.name })
            continue
          }
          const { update, columns } = changesOf(ctx, body, current, stored.variants.get(current.id) ?? [])
          if (columns.length === 0) {
            report.unchanged++
            continue
          }
          changeProduct(ctx, tx, fx, { id: current.id, ...update })
          report.update.push({ line, slug: current.slug, name: body.name, columns })
        } catch (error) {
          const at =
            error instanceof AppError && error.code === 'DUPLICATE_SLUG'
              ? { line, column: 'slug' as const }
              : placeOf(g, error instanceof AppError ? error.details?.field : undefined)
          refuse(at, error)
        }
      }
      return report
    },
    { dryRun },
  )
}

/** The store's live products named by the file's slugs, and all their variants by position. */
function storedOf(ctx: Ctx, tx: Tx, groups: CsvGroup[]) {
  const slugs = JSON.stringify(groups.flatMap((g) => (g.slug ? [g.slug] : [])))
  const rows = tx
    .select()
    .from(products)
    .where(
      and(
        eq(products.storeId, ctx.store.id),
        isNull(products.deletedAt),
        sql`${products.slug} IN (SELECT value FROM json_each(${slugs}))`,
      ),
    )
    .all()
  const ids = JSON.stringify(rows.map((p) => p.id))
  const vs = tx
    .select()
    .from(variants)
    .where(sql`${variants.productId} IN (SELECT value FROM json_each(${ids}))`)
    .orderBy(asc(variants.productId), asc(variants.position), asc(variants.createdAt))
    .all()
  const byProduct = new Map<string, Variant[]>()
  for (const v of vs) byProduct.set(v.productId, [...(byProduct.get(v.productId) ?? []), v])
  return { products: new Map(rows.map((p) => [p.slug, p])), variants: byProduct }
}

/** A category cell → its id: by slug, else by name (case aside); empty → none; unknown or ambiguous → refused. */
function categoryFinder(ctx: Ctx, tx: Tx): (cell: string) => string | null {
  const all = tx
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .where(eq(categories.storeId, ctx.store.id))
    .all()
  return (cell) => {
    const c = cell.trim()
    if (c === '') return null
    const bySlug = all.find((x) => x.slug === c)
    if (bySlug) return bySlug.id
    const named = all.filter((x) => x.name.trim().toLowerCase() === c.toLowerCase())
    if (named.length === 1) return named[0]!.id
    if (named.length > 1)
      throw new ValidationError('categoryId', 'duplicate', 'Several categories have this name: use its slug')
    throw new ValidationError('categoryId', 'not_found', 'categoryId does not name a category of this store')
  }
}

/** What of a stored product the file's body changes, as a ProductUpdate, and the columns that differ. */
function changesOf(
  ctx: Ctx,
  body: ProductCreate,
  p: Product,
  vs: Variant[],
): { update: ProductUpdate; columns: CsvColumn[] } {
  const cur = ctx.store.currency
  const update: ProductUpdate = {}
  const columns = new Set<CsvColumn>()
  const minor = (n: number, field: string) => toMinor(n, cur, field)
  // Names are compared as the file gives them: trimmed (a stored name with outer spaces is not a change).
  const named = (v: { name: string }) => v.name.trim()
  if (body.name !== named(p)) (update.name = body.name), columns.add('name')
  if ((body.description ?? '') !== (p.description ?? ''))
    (update.description = body.description ?? null), columns.add('description')
  if (minor(body.price, 'price') !== p.price) (update.price = body.price), columns.add('price')
  const compare = body.comparePrice == null ? null : minor(body.comparePrice, 'comparePrice')
  if (compare !== p.comparePrice) (update.comparePrice = body.comparePrice ?? null), columns.add('comparePrice')
  if ((body.categoryId ?? null) !== p.categoryId) (update.categoryId = body.categoryId ?? null), columns.add('category')
  if ((body.isActive ?? true) !== p.isActive) (update.isActive = body.isActive ?? true), columns.add('isActive')
  const wanted = body.variants ?? []
  const active = vs.filter((v) => v.isActive)
  if (wanted.length === 0 && (body.stock ?? null) !== p.stock) (update.stock = body.stock ?? null), columns.add('stock')
  const sameVariants =
    wanted.length === active.length &&
    wanted.every(
      (w, i) =>
        w.name === named(active[i]!) &&
        minor(w.price, `variants[${i}].price`) === active[i]!.price &&
        (w.stock ?? null) === active[i]!.stock,
    )
  if (!sameVariants) {
    // Matched by name (an inactive one named again comes back); the rest are deactivated, as a PUT's list does.
    const free = [...active, ...vs.filter((v) => !v.isActive)]
    update.variants = wanted.map((w) => {
      const i = free.findIndex((v) => named(v) === w.name)
      const id = i === -1 ? undefined : free.splice(i, 1)[0]!.id
      return { ...(id ? { id } : {}), name: w.name, price: w.price, stock: w.stock ?? null, isActive: true }
    })
    if (wanted.length !== active.length || wanted.some((w, i) => w.name !== named(active[i]!))) columns.add('variant')
    if (
      wanted.some(
        (w, i) =>
          w.price !== undefined &&
          minor(w.price, `variants[${i}].price`) !== active.find((v) => named(v) === w.name)?.price,
      )
    )
      columns.add('variantPrice')
    if (wanted.some((w) => (w.stock ?? null) !== (active.find((v) => named(v) === w.name)?.stock ?? null)))
      columns.add('stock')
  }
  return { update, columns: [...columns] }
}
