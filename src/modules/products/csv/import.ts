/**
 * The catalog CSV import. The apply (importCatalog) writes every row in one transaction or none
 * (batch.ts), planning again inside it: nothing read before it is trusted. The dry run
 * (checkCatalogImport) does the same work by the same rules — every cell's rule (cells.ts), the
 * API's schema, then insertProductTx / changeProductTx (caps, compare-at price, category, slug) —
 * a slice of products at a time (at most 25, and at most about 2 ms of work), each slice in its
 * own transaction rolled back, with a turn of the event loop between slices: a 10,000-row check
 * never holds the process (or the database's write lock) for long, and what it reports — products to create, to update
 * (matched by slug, with each value's old → new), unchanged, and every fault of every line — is what the apply will do.
 * Two things span slices and are carried from one to the next: the plan's product count and the slugs already created.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Ctx } from '../../../kernel/context'
import type { Tx } from '../../../db/client'
import { categories, products, variants, type Variant } from '../../../db/schema'
import { AppError, ValidationError } from '../../../lib/errors'
import { slugify } from '../../../lib/slug'
import { write, type Fx } from '../../../kernel/write'
import { capFor, enforceCap } from '../../plans'
import { allOrNothing, BatchRefused, type ItemProblem } from '../batch'
import { ProductCreate } from '../model'
import { changeProductTx, insertProductTx } from '../service'
import { checkBody } from '../../../lib/check-body'
import { readGroup } from './cells'
import { changesOf, columnsOf, type CsvChange } from './changes'
import type { CsvColumn } from './format'
import type { CsvRow } from './parse'
import { groupRows, placeOf, type CsvGroup, type CsvProblem } from './plan'
import { liveProductCount } from './sql'
import { nextTurn } from './turns'

export interface ImportReport {
  rows: number
  create: { line: number; slug?: string; name: string }[]
  update: { line: number; slug: string; name: string; columns: CsvColumn[]; changes: CsvChange[] }[]
  unchanged: number
}

/** Refused lines, in file order; the plan's upgrade link rides on a PLAN_REQUIRED error. */
export type ImportPlace = { line: number; column?: CsvColumn }

/**
 * A dry run's slice ends after this many products, or sooner once it has worked DRY_RUN_SLICE_MS
 * (by the context's clock): on a busy machine a product takes longer, and the slice stays short.
 */
export const DRY_RUN_SLICE = 25
export const DRY_RUN_SLICE_MS = 2

/** What spans a dry run's slices: creates in earlier (rolled back) slices, for the plan's cap and for slugs. */
interface Carried {
  live: number
  created: number
  slugs: Set<string>
}

type Refuse = (key: ImportPlace, error: unknown) => void

/**
 * The products of `groups` planned and written in `tx` (the caller commits or rolls back), in order,
 * until `enough` says stop (checked after each product): the number of groups done.
 */
function runGroups(
  ctx: Ctx,
  tx: Tx,
  fx: Fx,
  groups: CsvGroup[],
  refused: Set<number>,
  report: ImportReport,
  refuse: Refuse,
  carried?: Carried,
  enough: () => boolean = () => false,
): number {
  const stored = storedOf(ctx, tx, groups)
  const cats = categoriesOf(ctx, tx)
  let done = 0
  for (const g of groups) {
    if (done > 0 && enough()) break
    done++
    if (g.rows.some((r) => refused.has(r.line))) continue
    const line = g.rows[0]!.line
    const { body: raw, faults } = readGroup(g, cats.find, ctx.store.currency)
    if (faults.length > 0) {
      for (const f of faults) refuse({ line: f.line, ...(f.column ? { column: f.column } : {}) }, f.error)
      continue
    }
    try {
      const body = checkBody(ProductCreate, raw)
      const current = g.slug ? stored.products.get(g.slug) : undefined
      if (!current) {
        if (carried) {
          const slug = body.slug ?? slugify(body.name)
          if (carried.slugs.has(slug))
            throw new AppError('DUPLICATE_SLUG', `A product with slug '${slug}' already exists`, { field: 'slug' })
          if (capFor(ctx.config, ctx.store.plan, 'productLimit') !== Infinity)
            enforceCap(ctx, 'productLimit', carried.live + carried.created + 1, carried.live + carried.created)
          carried.created++
          carried.slugs.add(slug)
        }
        insertProductTx(ctx, tx, fx, body)
        report.create.push({ line, ...(g.slug ? { slug: g.slug } : {}), name: body.name })
        continue
      }
      const { update, changes } = changesOf(
        ctx.store.currency,
        cats.name,
        body,
        current,
        stored.variants.get(current.id) ?? [],
      )
      if (changes.length === 0) {
        report.unchanged++
        continue
      }
      changeProductTx(ctx, tx, fx, { id: current.id, ...update })
      report.update.push({ line, slug: current.slug, name: body.name, columns: columnsOf(changes), changes })
    } catch (error) {
      const at =
        error instanceof AppError && error.code === 'DUPLICATE_SLUG'
          ? { line, column: 'slug' as const }
          : placeOf(g, error instanceof AppError ? error.details?.field : undefined)
      refuse(at, error)
    }
  }
  return done
}

const emptyReport = (rows: number): ImportReport => ({ rows, create: [], update: [], unchanged: 0 })

/** The file's own checks (rows of one slug that disagree, widths): refused lines and the groups. */
function grouped(rows: CsvRow[], refuse: Refuse) {
  const problems: CsvProblem[] = []
  const groups = groupRows(rows, problems)
  for (const p of problems) refuse({ line: p.line, ...(p.column ? { column: p.column } : {}) }, p.error)
  return { groups, refused: new Set(problems.map((p) => p.line)) }
}

/** The apply: every row in one transaction, or none (BatchRefused with every refused line). */
export function importCatalog({ ctx, input }: { ctx: Ctx; input: { rows: CsvRow[]; dryRun: boolean } }): ImportReport {
  // Nothing to create or update: the apply writes nothing (not even an activity line).
  const dryRun = (r: ImportReport) => input.dryRun || r.create.length + r.update.length === 0
  return allOrNothing<ImportReport, ImportPlace>(
    ctx,
    (tx, fx, refuse) => {
      const { groups, refused } = grouped(input.rows, refuse)
      const report = emptyReport(input.rows.length)
      runGroups(ctx, tx, fx, groups, refused, report, refuse)
      return report
    },
    { dryRun },
  )
}

/** Rolls a dry run's slice back once it has run. */
class SliceDone {}

/**
 * The dry run, in slices: what importCatalog would do, or BatchRefused with every refused line.
 * `pause` runs between slices (a turn of the event loop; tests may hand their own).
 */
export async function checkCatalogImport({
  ctx,
  input,
  pause = nextTurn,
}: {
  ctx: Ctx
  input: { rows: CsvRow[] }
  pause?: () => Promise<void>
}): Promise<ImportReport> {
  const problems: ItemProblem<ImportPlace>[] = []
  const refuse: Refuse = (key, error) => {
    // A failure that is not the line's (the disk, a bug) ends the check as it is.
    if (!(error instanceof AppError) || error.status >= 500) throw error
    problems.push({ key, error })
  }
  const { groups, refused } = grouped(input.rows, refuse)
  const report = emptyReport(input.rows.length)
  const carried: Carried = { live: liveProductCount(ctx.db.$client, ctx.store.id), created: 0, slugs: new Set() }
  for (let i = 0; i < groups.length; ) {
    await pause()
    const until = ctx.clock.now() + DRY_RUN_SLICE_MS
    const enough = () => ctx.clock.now() >= until
    try {
      write(ctx, (tx, fx) => {
        i += runGroups(ctx, tx, fx, groups.slice(i, i + DRY_RUN_SLICE), refused, report, refuse, carried, enough)
        throw new SliceDone()
      })
    } catch (e) {
      if (!(e instanceof SliceDone)) throw e
    }
  }
  if (problems.length > 0) throw new BatchRefused(problems)
  return report
}

/** The store's live products named by the groups' slugs, and all their variants by position. */
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

/**
 * The store's categories: `find` turns a category cell into its id — by slug, else by name (case
 * aside); empty → none; unknown or ambiguous → refused, naming what the cell said — and `name`
 * an id back into its name for the dry run's old → new.
 */
function categoriesOf(ctx: Ctx, tx: Tx) {
  const all = tx
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .where(eq(categories.storeId, ctx.store.id))
    .all()
  const find = (cell: string): string | null => {
    const c = cell.trim()
    if (c === '') return null
    const bySlug = all.find((x) => x.slug === c)
    if (bySlug) return bySlug.id
    const named = all.filter((x) => x.name.trim().toLowerCase() === c.toLowerCase())
    if (named.length === 1) return named[0]!.id
    if (named.length > 1)
      throw new ValidationError('categoryId', 'duplicate', 'Several categories have this name: use its slug', {
        name: c,
      })
    throw new ValidationError('categoryId', 'not_found', `No category named ${c}`, { name: c })
  }
  const name = (id: string | null | undefined) => (id ? (all.find((x) => x.id === id)?.name ?? '') : '')
  return { find, name }
}
