/**
 * The product editor's form as posted (strings, kept to re-render what the person typed) and its
 * translation into the API's ProductCreate / ProductUpdate body, which the same schema checks.
 */
import { ProductCreate, ProductUpdate, productFaults } from '../../../modules/products'
import { checkAll } from '../../../plugins/validation-errors'
import { amountText, field, numberField, ticked } from '../kit'

export const MAX_VARIANT_ROWS = 100

export interface VariantRow {
  id?: string
  name: string
  price: string
  stock: string
  active: boolean
}

export interface ProductForm {
  name: string
  description: string
  price: string
  comparePrice: string
  stock: string
  categoryId: string
  active: boolean
  variants: VariantRow[]
  /** The stored product's updatedAt (ms) when the form was opened: a save checks it (concurrent edits). */
  updatedAt: string
}

const str = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v))

/** The editor's form for a stored product and its variants. */
export function formOf(
  p: {
    name: string
    description: string | null
    price: number
    comparePrice: number | null
    stock: number | null
    categoryId: string | null
    isActive: boolean
    updatedAt: string
  },
  vs: { id: string; name: string; price: number; stock: number | null; isActive: boolean }[],
  currency: string,
): ProductForm {
  return {
    name: p.name,
    description: p.description ?? '',
    price: amountText(p.price, currency),
    comparePrice: amountText(p.comparePrice, currency),
    stock: str(p.stock),
    categoryId: p.categoryId ?? '',
    active: p.isActive,
    variants: vs.map((v) => ({
      id: v.id,
      name: v.name,
      price: amountText(v.price, currency),
      stock: str(v.stock),
      active: v.isActive,
    })),
    updatedAt: String(Date.parse(p.updatedAt)),
  }
}

export const emptyForm = (): ProductForm => ({
  name: '',
  description: '',
  price: '',
  comparePrice: '',
  stock: '',
  categoryId: '',
  active: true,
  variants: [],
  updatedAt: '',
})

/** The posted form. Rows are `v<i>-name`, `v<i>-price`, … up to `variantCount`. */
export function readForm(body: unknown): ProductForm {
  const count = Math.min(MAX_VARIANT_ROWS, Math.max(0, Number(field(body, 'variantCount')) || 0))
  const variants: VariantRow[] = []
  for (let i = 0; i < count; i++) {
    const id = field(body, `v${i}-id`)
    variants.push({
      ...(id ? { id } : {}),
      name: field(body, `v${i}-name`) ?? '',
      price: field(body, `v${i}-price`) ?? '',
      stock: field(body, `v${i}-stock`) ?? '',
      active: ticked(body, `v${i}-isActive`),
    })
  }
  return {
    name: field(body, 'name') ?? '',
    description: field(body, 'description') ?? '',
    price: field(body, 'price') ?? '',
    comparePrice: field(body, 'comparePrice') ?? '',
    stock: field(body, 'stock') ?? '',
    categoryId: field(body, 'categoryId') ?? '',
    active: ticked(body, 'isActive'),
    variants,
    updatedAt: field(body, 'updatedAt') ?? '',
  }
}

/** The version the form was opened on; absent (a hand-made post, an API-like client) means no check. */
export const openedAt = (f: ProductForm): number | undefined =>
  /^\d{1,16}$/.test(f.updatedAt) ? Number(f.updatedAt) : undefined

/**
 * The variant-row buttons, which re-show the form unsaved: "add", "remove-<i>", "up-<i>",
 * "down-<i>". The rows' order is the variants' order once saved (`position`). True when it acted.
 */
export function applyRowAction(f: ProductForm, action: string): boolean {
  if (action === 'add') {
    if (f.variants.length < MAX_VARIANT_ROWS) f.variants.push({ name: '', price: f.price, stock: '', active: true })
    return true
  }
  const m = /^(remove|up|down)-(\d{1,3})$/.exec(action)
  if (!m) return false
  const i = Number(m[2])
  const rows = f.variants
  if (i >= rows.length) return true
  if (m[1] === 'remove') rows.splice(i, 1)
  const j = m[1] === 'up' ? i - 1 : i + 1
  if (m[1] !== 'remove' && j >= 0 && j < rows.length) [rows[i], rows[j]] = [rows[j]!, rows[i]!]
  return true
}

const num = (s: string) => numberField({ v: s }, 'v')

/** The API body this form stands for; the API's schema refuses it at the same field. */
function bodyOf(f: ProductForm, create: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: f.name.trim(),
    description: f.description.trim() === '' ? null : f.description,
    price: num(f.price) ?? '',
    comparePrice: num(f.comparePrice) ?? null,
    stock: num(f.stock) ?? null,
    categoryId: f.categoryId === '' ? null : f.categoryId,
    isActive: f.active,
  }
  if (!create || f.variants.length > 0) {
    body.variants = f.variants.map((v) => ({
      ...(v.id ? { id: v.id } : {}),
      name: v.name.trim(),
      price: num(v.price) ?? '',
      stock: num(v.stock) ?? null,
      isActive: v.active,
    }))
  }
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k]
  if (Array.isArray(body.variants))
    for (const v of body.variants as Record<string, unknown>[])
      for (const [k, x] of Object.entries(v)) if (x === undefined) delete v[k]
  return body
}

/** The body, every fault at once: the schema's and the product's own rules (money decimals, compare-at above price). */
export const createInput = (f: ProductForm, currency: string) =>
  checkAll(ProductCreate, bodyOf(f, true), (v) => productFaults(currency, v))
export const updateInput = (f: ProductForm, currency: string) =>
  checkAll(ProductUpdate, bodyOf(f, false), (v) => productFaults(currency, v))
