/**
 * The bulk edit of prices and stock (the panel's grid): a page of the catalog as rows — each
 * active variant, and each product without active variants — and the verb that applies changed
 * cells in one transaction or none. A cell's product goes through changeProductTx with a body the
 * API's ProductUpdate schema checks first, so a stock of -1 or 1.5, a negative price or a
 * compare-at price at or under the new price is refused as over the API.
 */
import { asc, eq } from 'drizzle-orm'
import type { Ctx } from '../../kernel/context'
import { variants } from '../../db/schema'
import { checkBody } from '../../lib/check-body'
import { ValidationError } from '../../lib/errors'
import { toMajor } from '../../lib/money'
import { allOrNothing } from './batch'
import { ProductUpdate } from './model'
import { changeProductTx, ownProduct } from './service'
import { activeVariantsOf, countProducts, pageOfProducts } from './sql'

export interface GridRow {
  productId: string
  productName: string
  variantId?: string
  variantName?: string
  /** Major units. */
  price: number
  stock: number | null
}

/** A page of products (newest first, as the list) as grid rows: their active variants, or the product itself. */
export function priceStockGrid(ctx: Ctx, page: { limit: number; offset: number }): { total: number; rows: GridRow[] } {
  const client = ctx.db.$client
  const f = { storeId: ctx.store.id }
  const products = pageOfProducts(client, f, page.limit, page.offset)
  const vs = activeVariantsOf(
    client,
    products.map((p) => p.id),
  )
  const currency = ctx.store.currency
  const rows = products.flatMap((p): GridRow[] => {
    const own = vs.get(p.id)
    if (!own?.length)
      return [{ productId: p.id, productName: p.name, price: toMajor(p.price, currency), stock: p.stock }]
    return own.map((v) => ({
      productId: p.id,
      productName: p.name,
      variantId: v.id,
      variantName: v.name,
      price: toMajor(v.price, currency),
      stock: v.stock,
    }))
  })
  return { total: countProducts(client, f), rows }
}

/**
 * A changed cell pair. `price` and `stock` are what the person typed, read as a number when it
 * is one (text stays text, so the schema refuses it at its field); absent = unchanged; a stock
 * of null = not tracked.
 */
export interface PriceStockChange {
  productId: string
  variantId?: string
  price?: number | string
  stock?: number | string | null
}

/** Applies every change in one transaction, or none: BatchRefused names each refused change by its index. */
export function editPricesAndStock({ ctx, input }: { ctx: Ctx; input: PriceStockChange[] }): { products: number } {
  const byProduct = new Map<string, number[]>()
  input.forEach((c, i) => byProduct.set(c.productId, [...(byProduct.get(c.productId) ?? []), i]))
  return allOrNothing<{ products: number }, number>(ctx, (tx, fx, refuse) => {
    for (const [productId, indexes] of byProduct) {
      const changes = indexes.map((i) => input[i]!)
      let order: (string | undefined)[] = []
      try {
        ownProduct(ctx, productId)
        const body: Record<string, unknown> = {}
        for (const c of changes.filter((c) => !c.variantId)) Object.assign(body, pick(c))
        if (changes.some((c) => c.variantId)) {
          // The whole variant list, as stored, with the changed cells: changeProductTx keeps only what it is sent.
          const all = tx
            .select()
            .from(variants)
            .where(eq(variants.productId, productId))
            .orderBy(asc(variants.position), asc(variants.createdAt))
            .all()
          order = all.map((v) => v.id)
          for (const c of changes)
            if (c.variantId && !order.includes(c.variantId))
              throw new ValidationError('variantId', 'not_found', 'The variant is not one of this product')
          body.variants = all.map((v) => ({
            id: v.id,
            name: v.name,
            price: toMajor(v.price, ctx.store.currency),
            stock: v.stock,
            isActive: v.isActive,
            ...pick(changes.find((c) => c.variantId === v.id) ?? {}),
          }))
        }
        changeProductTx(ctx, tx, fx, { id: productId, ...checkBody(ProductUpdate, body) })
      } catch (error) {
        // `variants[2].price` is the third variant's cell; anything else is every cell of the product.
        const at =
          error instanceof ValidationError ? /^variants\[(\d+)\]/.exec(String(error.details?.field ?? '')) : null
        const variantId = at ? order[Number(at[1])] : undefined
        const own = variantId ? indexes.filter((i) => input[i]!.variantId === variantId) : []
        for (const i of own.length ? own : indexes) refuse(i, error)
      }
    }
    return { products: byProduct.size }
  })
}

const pick = (c: Partial<PriceStockChange>) => ({
  ...(c.price !== undefined ? { price: c.price } : {}),
  ...(c.stock !== undefined ? { stock: c.stock } : {}),
})
