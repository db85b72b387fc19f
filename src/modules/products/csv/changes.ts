/**
 * What a file's row changes in a stored product: the ProductUpdate to apply, and each changed
 * value as it is and as it will be (the dry run shows them: "price 20.00 → 23.00"), money in
 * major units with the currency's decimals, a category by name, a variant's values by its name.
 */
import type { Product, Variant } from '../../../db/schema'
import { minorDigits, toMajor, toMinor } from '../../../lib/money'
import type { ProductCreate, ProductUpdate } from '../model'
import type { CsvColumn } from './format'

/** One changed value: `variant` names the variant a variant's price or stock belongs to. */
export interface CsvChange {
  column: CsvColumn
  variant?: string
  from: string
  to: string
}

const SHOWN_TEXT = 60
const shortText = (s: string | null | undefined) => {
  const t = (s ?? '').replace(/\s+/g, ' ').trim()
  return t.length > SHOWN_TEXT ? `${t.slice(0, SHOWN_TEXT - 1)}…` : t
}

export function changesOf(
  currency: string,
  categoryName: (id: string | null | undefined) => string,
  body: ProductCreate,
  p: Product,
  vs: Variant[],
): { update: ProductUpdate; changes: CsvChange[] } {
  const update: ProductUpdate = {}
  const changes: CsvChange[] = []
  const minor = (n: number, field: string) => toMinor(n, currency, field)
  const money = (m: number | null | undefined) => (m == null ? '' : toMajor(m, currency).toFixed(minorDigits(currency)))
  const count = (n: number | null | undefined) => (n == null ? '' : String(n))
  const change = (column: CsvColumn, from: string, to: string, variant?: string) =>
    changes.push({ column, ...(variant === undefined ? {} : { variant }), from, to })
  // Names are compared as the file gives them: trimmed (a stored name with outer spaces is not a change).
  const named = (v: { name: string }) => v.name.trim()
  if (body.name !== named(p)) (update.name = body.name), change('name', p.name, body.name)
  if ((body.description ?? '') !== (p.description ?? '')) {
    update.description = body.description ?? null
    change('description', shortText(p.description), shortText(body.description))
  }
  const price = minor(body.price, 'price')
  if (price !== p.price) (update.price = body.price), change('price', money(p.price), money(price))
  const compare = body.comparePrice == null ? null : minor(body.comparePrice, 'comparePrice')
  if (compare !== p.comparePrice) {
    update.comparePrice = body.comparePrice ?? null
    change('comparePrice', money(p.comparePrice), money(compare))
  }
  if ((body.categoryId ?? null) !== p.categoryId) {
    update.categoryId = body.categoryId ?? null
    change('category', categoryName(p.categoryId), categoryName(body.categoryId))
  }
  if ((body.isActive ?? true) !== p.isActive) {
    update.isActive = body.isActive ?? true
    change('isActive', String(p.isActive), String(update.isActive))
  }
  const wanted = body.variants ?? []
  const active = vs.filter((v) => v.isActive)
  if (wanted.length === 0 && (body.stock ?? null) !== p.stock) {
    update.stock = body.stock ?? null
    change('stock', count(p.stock), count(update.stock))
  }
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
    for (const [i, w] of wanted.entries()) {
      const was = active.find((v) => named(v) === w.name)
      const to = minor(w.price, `variants[${i}].price`)
      if (!was) change('variant', '', w.name)
      if (!was || was.price !== to) change('variantPrice', money(was?.price), money(to), w.name)
      if (!was ? w.stock != null : (w.stock ?? null) !== was.stock)
        change('stock', count(was?.stock), count(w.stock), w.name)
    }
    for (const v of active) if (!wanted.some((w) => w.name === named(v))) change('variant', v.name, '')
    // Same variants in another order: the order is the change.
    if (changes.every((c) => c.variant === undefined && c.column !== 'variant') && wanted.length === active.length)
      change('variant', active.map(named).join(', '), wanted.map((w) => w.name).join(', '))
  }
  return { update, changes }
}

/** The columns a change list touches, in file order. */
export const columnsOf = (changes: CsvChange[]): CsvColumn[] => [...new Set(changes.map((c) => c.column))]
