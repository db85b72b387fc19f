/**
 * The raw read statements (products/, orders/, customers/, public-catalog/ sql.ts or sql/) return
 * exactly what the Drizzle queries they replaced returned, on seeded data with the awkward rows:
 * inactive and deleted products, inactive variants, tracked and untracked stock, images,
 * createdAt ties, other stores' rows, pending reviews, inactive shipping and categories; with
 * every filter and page. The Drizzle versions are kept here as the reference.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, count, desc, eq, gte, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addShipping, placeOrder, uniqPhone } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import type { Db } from '../../src/db/client'
import {
  categories,
  customers,
  orderItems,
  orders,
  productImages,
  products,
  reviews,
  shippingOptions,
  stores,
  variants,
} from '../../src/db/schema'
import { activeVariantsOf, countProducts, pageOfProducts, type ProductFilter } from '../../src/modules/products/sql'
import { listItemsOf, orderById, pageOfOrders } from '../../src/modules/orders/sql'
import { customerById } from '../../src/modules/customers/sql'
import {
  activeCategories,
  activeProducts,
  activeShipping,
  reviewStatsRows,
  storeBySlug,
} from '../../src/modules/public-catalog/sql'
import { productView } from '../../src/modules/products/service'
import { imagesOf } from '../../src/modules/products/images/views'

let t: TestApp
let db: Db
const clock = fixedClock(Date.UTC(2026, 4, 1))
const T0 = clock.now()
let shop: ReturnType<typeof makeShop>
let other: ReturnType<typeof makeShop>
const productIds: string[] = []

beforeAll(() => {
  t = makeApp({ rateLimitKey: 100_000, rateLimitOrders: 100_000 }, { clock })
  db = t.deps.db
  shop = makeShop(t.deps)
  other = makeShop(t.deps)
  for (const s of [shop, other]) {
    const cats = [true, false, true].map((isActive, i) =>
      db
        .insert(categories)
        .values({
          storeId: s.store.id,
          name: `C${i}`,
          slug: `c${i}`,
          position: 2 - i,
          isActive,
          createdAt: clock.now(),
          updatedAt: clock.now(),
        })
        .returning()
        .get(),
    )
    for (let i = 0; i < 14; i++) {
      // Pairs of products share a createdAt (ties); every 4th inactive, every 5th deleted.
      if (i % 2 === 0) clock.advance(1000)
      const p = db
        .insert(products)
        .values({
          storeId: s.store.id,
          name: `P${i}`,
          slug: `p${i}`,
          description: i % 3 ? `about ${i}` : null,
          price: 1000 + i,
          comparePrice: i % 2 ? 2000 : null,
          imageUrl: i % 6 === 0 ? `https://img.example/${i}.jpg` : null,
          isActive: i % 4 !== 3,
          stock: i % 3 === 0 ? i : null,
          deletedAt: i % 5 === 4 ? clock.now() : null,
          categoryId: cats[i % 3]!.id,
          createdAt: clock.now(),
          updatedAt: clock.now() + (i % 3) * 10_000,
        })
        .returning()
        .get()
      if (s === shop) productIds.push(p.id)
      for (let j = 0; j < i % 4; j++)
        db.insert(variants)
          .values({
            productId: p.id,
            name: `V${j}`,
            price: 1100 + j,
            isActive: j !== 1,
            position: (j * 7) % 3,
            stock: j === 2 ? 0 : j === 0 ? 5 : null,
            createdAt: clock.now(),
            updatedAt: clock.now(),
          })
          .run()
      if (i % 3 === 1)
        for (const pos of [1, 0])
          db.insert(productImages)
            .values({
              storeId: s.store.id,
              productId: p.id,
              position: pos,
              width: 1280,
              height: 960,
              widths: '320,640,1280',
              createdAt: clock.now(),
            })
            .run()
      if (i % 2 === 0)
        for (const [rating, status] of [
          [5, 'approved'],
          [2, 'approved'],
          [1, 'pending'],
        ] as const)
          db.insert(reviews)
            .values({
              storeId: s.store.id,
              productId: p.id,
              customerName: 'R',
              rating: rating + (i % 2),
              status,
              createdAt: clock.now(),
              updatedAt: clock.now(),
            })
            .run()
    }
    addShipping(t.deps, s.store.id, { price: 700, name: 'Slow' })
    addShipping(t.deps, s.store.id, { price: 300, name: 'Off', isActive: false })
    addShipping(t.deps, s.store.id, { price: 300, name: 'Cheap' })
  }
  // Orders: two customers in the shop (one with several orders), one in the other store.
  const courier = db
    .select()
    .from(shippingOptions)
    .where(and(eq(shippingOptions.storeId, shop.store.id), eq(shippingOptions.name, 'Cheap')))
    .get()!
  const sellable = ['Tea', 'Cup'].map((name) =>
    db
      .insert(products)
      .values({
        storeId: shop.store.id,
        name,
        slug: name.toLowerCase(),
        price: 450,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning()
      .get(),
  )
  const phones = [uniqPhone(), uniqPhone()]
  for (let i = 0; i < 7; i++) {
    clock.advance(i % 3 === 0 ? 0 : 500)
    const items = [
      { productId: sellable[i % sellable.length]!.id, quantity: 1 + i },
      ...(i % 2 ? [{ productId: sellable[(i + 1) % sellable.length]!.id, quantity: 1 }] : []),
    ]
    placeOrder(t.deps, {
      storeId: shop.store.id,
      name: `Buyer ${i}`,
      phone: phones[i % 2]!,
      address: 'Calle 1',
      items,
      shippingOptionId: i % 3 ? courier.id : undefined,
      notes: i % 2 ? 'door' : undefined,
    })
  }
})
afterAll(() => t.close())

// --- The Drizzle reference queries (what the code ran before the raw statements) ---------------

function drizzleProducts(f: ProductFilter, limit: number, offset: number) {
  const where: SQL[] = [eq(products.storeId, f.storeId), isNull(products.deletedAt)]
  if (f.isActive !== undefined) where.push(eq(products.isActive, f.isActive))
  if (f.createdSince !== undefined) where.push(gte(products.createdAt, f.createdSince))
  if (f.updatedSince !== undefined) where.push(gte(products.updatedAt, f.updatedSince))
  const cond = and(...where)
  const rows = db
    .select()
    .from(products)
    .where(cond)
    .orderBy(desc(products.createdAt), desc(sql`products.rowid`))
    .limit(limit)
    .offset(offset)
    .all()
  const total = db.select({ n: count() }).from(products).where(cond).get()!.n
  return { rows, total }
}

function drizzleVariants(ids: string[]) {
  const out = new Map<
    string,
    Pick<typeof variants.$inferSelect, 'id' | 'productId' | 'name' | 'price' | 'isActive' | 'stock'>[]
  >()
  if (ids.length === 0) return out
  const cols = {
    id: variants.id,
    productId: variants.productId,
    name: variants.name,
    price: variants.price,
    isActive: variants.isActive,
    stock: variants.stock,
  }
  for (const v of db
    .select(cols)
    .from(variants)
    .where(and(inArray(variants.productId, ids), eq(variants.isActive, true)))
    .orderBy(asc(variants.productId), asc(variants.position))
    .all()) {
    out.set(v.productId, [...(out.get(v.productId) ?? []), v])
  }
  return out
}

const FILTERS: Omit<ProductFilter, 'storeId'>[] = [
  {},
  { isActive: true },
  { isActive: false },
  { createdSince: T0 + 3000 },
  { updatedSince: T0 + 15_000, isActive: true },
  { createdSince: T0 + 2000, updatedSince: T0 + 5000 },
]

describe('products/sql.ts', () => {
  test('pages and totals equal Drizzle’s for each filter, page, offset (ties, inactive, deleted, other store)', () => {
    let compared = 0
    for (const f of FILTERS) {
      for (const [limit, offset] of [
        [50, 0],
        [3, 0],
        [3, 3],
        [4, 7],
        [5, 100],
      ] as const) {
        const filter = { storeId: shop.store.id, ...f }
        const ref = drizzleProducts(filter, limit, offset)
        expect(pageOfProducts(db.$client, filter, limit, offset)).toEqual(ref.rows)
        expect(countProducts(db.$client, filter)).toBe(ref.total)
        compared += ref.rows.length
      }
    }
    expect(compared).toBeGreaterThan(40)
    // isActive comes back as a boolean, as Drizzle maps it.
    expect(
      pageOfProducts(db.$client, { storeId: shop.store.id, isActive: false }, 50, 0).every((p) => p.isActive === false),
    ).toBe(true)
  })

  test('active variants of many products equal Drizzle’s, grouped and by position (stock null, 0 and counted)', () => {
    const ids = db
      .select({ id: products.id })
      .from(products)
      .all()
      .map((r) => r.id)
    const raw = activeVariantsOf(db.$client, ids)
    expect(raw).toEqual(drizzleVariants(ids))
    expect([...raw.values()].flat().length).toBeGreaterThan(10)
    expect(activeVariantsOf(db.$client, [productIds[3]!])).toEqual(drizzleVariants([productIds[3]!]))
    expect(activeVariantsOf(db.$client, []).size).toBe(0)
  })

  test('GET /api/v1/products equals the view of Drizzle’s rows (variants, images, stock), each filter', async () => {
    for (const [qs, f] of [
      ['?limit=50', { isActive: true }],
      ['?isActive=all&limit=4&offset=2', {}],
      ['?isActive=false', { isActive: false }],
      [`?createdSince=${new Date(T0 + 3000).toISOString()}&isActive=all`, { createdSince: T0 + 3000 }],
    ] as const) {
      const [res, body] = await t.api.get(`/api/v1/products${qs}`, { key: shop.key })
      expectStatus(res, body).toBe(200)
      const page = new URLSearchParams(qs.slice(1))
      const limit = Number(page.get('limit') ?? 50)
      const offset = Number(page.get('offset') ?? 0)
      const ref = drizzleProducts({ storeId: shop.store.id, ...f }, limit, offset)
      const vs = drizzleVariants(ref.rows.map((r) => r.id))
      const imgs = imagesOf(
        db,
        ref.rows.map((r) => r.id),
      )
      const expected = {
        data: ref.rows.map((p) => productView(p, vs.get(p.id) ?? [], 'USD', imgs.get(p.id))),
        total: ref.total,
        limit,
        offset,
      }
      expect(body).toEqual(JSON.parse(JSON.stringify(expected)))
    }
  })
})

describe('orders/ and customers/ sql', () => {
  test('a page of list-form orders and their items equal the Drizzle rows, by store, status and customer', () => {
    const LIST_ORDER = [
      'id',
      'orderNumber',
      'status',
      'customerName',
      'customerPhone',
      'total',
      'currency',
      'notes',
      'createdAt',
    ] as const
    const LIST_ITEM = ['orderId', 'productName', 'variantName', 'quantity', 'unitPrice', 'subtotal'] as const
    const pick = <T, K extends keyof T>(r: T, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, r[k]]))
    const customer = db
      .select()
      .from(customers)
      .where(eq(customers.storeId, shop.store.id))
      .orderBy(desc(customers.ordersCount))
      .get()!
    for (const [filter, cond] of [
      [{ storeId: shop.store.id }, eq(orders.storeId, shop.store.id)],
      [
        { storeId: shop.store.id, status: 'pending' as const },
        and(eq(orders.storeId, shop.store.id), eq(orders.status, 'pending')),
      ],
      [{ customerId: customer.id }, eq(orders.customerId, customer.id)],
    ] as const) {
      for (const [limit, offset] of [
        [50, 0],
        [2, 1],
      ]) {
        const ref = db
          .select()
          .from(orders)
          .where(cond)
          .orderBy(desc(orders.createdAt), desc(sql`orders.rowid`))
          .limit(limit!)
          .offset(offset!)
          .all()
        const rows = pageOfOrders(db, filter, limit!, offset!)
        expect(rows).toEqual(ref.map((o) => pick(o, LIST_ORDER)) as never)
        const ids = ref.map((o) => o.id)
        const refItems = db
          .select()
          .from(orderItems)
          .where(inArray(orderItems.orderId, ids.length ? ids : ['']))
          .orderBy(asc(orderItems.orderId), asc(orderItems.position))
          .all()
        expect([...listItemsOf(db.$client, ids).values()].flat()).toEqual(
          refItems.map((i) => pick(i, LIST_ITEM)) as never,
        )
      }
    }
    expect(pageOfOrders(db, { customerId: customer.id }, 50, 0).length).toBe(customer.ordersCount)
  })

  test('deep pages (past the shallow offset, through the covering subquery) equal Drizzle’s too', () => {
    const now = clock.now()
    const rows = Array.from({ length: 130 }, (_, i) => ({
      storeId: other.store.id,
      orderNumber: `D-${i}`,
      status: (i % 3 ? 'pending' : 'confirmed') as 'pending' | 'confirmed',
      customerName: `Deep ${i}`,
      customerPhone: '+14155550199',
      currency: 'USD',
      itemsSubtotal: 100 + i,
      total: 100 + i,
      dedupHash: `deep${i}`,
      createdAt: now + Math.floor(i / 3), // ties by threes
      updatedAt: now,
    }))
    db.insert(orders).values(rows).run()
    const LIST_ORDER = [
      'id',
      'orderNumber',
      'status',
      'customerName',
      'customerPhone',
      'total',
      'currency',
      'notes',
      'createdAt',
    ] as const
    for (const status of [undefined, 'pending' as const]) {
      for (const offset of [0, 95, 100, 101, 120, 200]) {
        const cond = status
          ? and(eq(orders.storeId, other.store.id), eq(orders.status, status))
          : eq(orders.storeId, other.store.id)
        const ref = db
          .select()
          .from(orders)
          .where(cond)
          .orderBy(desc(orders.createdAt), desc(sql`orders.rowid`))
          .limit(7)
          .offset(offset)
          .all()
        expect(pageOfOrders(db, { storeId: other.store.id, status }, 7, offset)).toEqual(
          ref.map((o) => Object.fromEntries(LIST_ORDER.map((k) => [k, o[k]]))) as never,
        )
      }
    }
  })

  test('an order row (every column, in the schema’s order) equals Drizzle’s; an unknown id is undefined', () => {
    const all = db.select().from(orders).all()
    expect(all.length).toBeGreaterThan(3)
    for (const o of all) {
      const row = orderById(db.$client, o.id)
      expect(row).toEqual(o)
      expect(Object.keys(row!)).toEqual(Object.keys(o))
    }
    expect(orderById(db.$client, 'nope')).toBeUndefined()
  })

  test('a customer row equals Drizzle’s; an unknown id is undefined', () => {
    for (const c of db.select().from(customers).all()) expect(customerById(db.$client, c.id)).toEqual(c)
    expect(customerById(db.$client, 'nope')).toBeUndefined()
  })
})

describe('public-catalog/sql.ts', () => {
  test('store by slug, categories, products, review stats and shipping equal the Drizzle queries', () => {
    for (const s of [shop, other]) {
      const id = s.store.id
      expect(storeBySlug(db.$client, s.store.slug)).toEqual(
        db.select().from(stores).where(eq(stores.slug, s.store.slug)).get(),
      )
      expect(activeCategories(db.$client, id)).toEqual(
        db
          .select({ id: categories.id, name: categories.name, slug: categories.slug, position: categories.position })
          .from(categories)
          .where(and(eq(categories.storeId, id), eq(categories.isActive, true)))
          .orderBy(asc(categories.position), asc(categories.createdAt))
          .all(),
      )
      const prods = db
        .select()
        .from(products)
        .where(and(eq(products.storeId, id), eq(products.isActive, true), isNull(products.deletedAt)))
        .orderBy(desc(products.createdAt), desc(sql`products.rowid`))
        .all()
      expect(activeProducts(db.$client, id)).toEqual(prods)
      expect(prods.length).toBeGreaterThan(5)
      const stats = db
        .select({ productId: reviews.productId, n: count(), avg: sql<number>`avg(${reviews.rating})` })
        .from(reviews)
        .where(and(eq(reviews.storeId, id), eq(reviews.status, 'approved')))
        .groupBy(reviews.productId)
        .all()
      expect(reviewStatsRows(db.$client, id)).toEqual(stats)
      expect(activeShipping(db.$client, id)).toEqual(
        db
          .select({
            id: shippingOptions.id,
            name: shippingOptions.name,
            price: shippingOptions.price,
            description: shippingOptions.description,
            estimatedDays: shippingOptions.estimatedDays,
          })
          .from(shippingOptions)
          .where(and(eq(shippingOptions.storeId, id), eq(shippingOptions.isActive, true)))
          .orderBy(asc(shippingOptions.price), asc(shippingOptions.createdAt))
          .all(),
      )
    }
    expect(storeBySlug(db.$client, 'no-such-store')).toBeUndefined()
  })
})
