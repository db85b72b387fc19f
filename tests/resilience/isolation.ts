/**
 * Store isolation, generated from tests/helpers/protected-routes.ts:
 * - every route with an `own` creator × a record of store B, called with store A's key → 403
 *   FORBIDDEN, and the body holds none of B's identifying values (ids, names, slugs, codes,
 *   phones, URLs — every text value of B's rows that A's rows don't share);
 * - every list (and A's own records by id) read with A's key holds none of them either, while
 *   the same lists read with B's key do (so the scanner is shown to see them);
 * - A's writes that name B's records (a category, variants, a shipping option, a discount code,
 *   a product for a review, a delivery) are refused and link nothing;
 * - afterwards B's rows are exactly what they were (no write slipped through a 403).
 */
import { drainOutbox } from '../helpers/outbox'
import type { Database } from 'bun:sqlite'
import { makeApp, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { PROTECTED_ROUTES } from '../helpers/protected-routes'
import { addDiscount, makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { makeReview } from '../helpers/factories'
import { startReceiver } from '../helpers/webhook-receiver'
import { ctxFor } from '../../src/kernel/context'
import { getStore } from '../../src/modules/platform-stores/service'
import { createCategory } from '../../src/modules/categories/service'
import { createWebhook } from '../../src/modules/webhooks/service'
import { fail, newResult, timed, type CaseResult } from './lib'

/** Values that are the same for every store (enums, defaults): never evidence of a leak. */
const COMMON = new Set([
  'pending',
  'confirmed',
  'shipped',
  'delivered',
  'cancelled',
  'approved',
  'rejected',
  'percentage',
  'fixed',
  'active',
  'suspended',
  'succeeded',
  'sending',
  'failed',
  'order.created',
  'order.updated',
  'review.created',
  'lifetime',
])

/** Every row that belongs to a store: tables with store_id, plus variants and order items through their parents. */
export function storeRows(db: Database, storeId: string): Record<string, Record<string, unknown>[]> {
  const tables = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'",
    )
    .all()
    .map((r) => r.name)
  const out: Record<string, Record<string, unknown>[]> = {
    stores: db.query('SELECT * FROM stores WHERE id = ?').all(storeId) as Record<string, unknown>[],
  }
  for (const t of tables) {
    const cols = db
      .query<{ name: string }, []>(`PRAGMA table_info("${t}")`)
      .all()
      .map((c) => c.name)
    if (cols.includes('store_id'))
      out[t] = db.query(`SELECT * FROM "${t}" WHERE store_id = ? ORDER BY rowid`).all(storeId) as Record<
        string,
        unknown
      >[]
  }
  out.variants = db
    .query('SELECT v.* FROM variants v JOIN products p ON p.id = v.product_id WHERE p.store_id = ? ORDER BY v.rowid')
    .all(storeId) as Record<string, unknown>[]
  out.order_items = db
    .query('SELECT i.* FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.store_id = ? ORDER BY i.rowid')
    .all(storeId) as Record<string, unknown>[]
  return out
}

function textValues(rows: Record<string, Record<string, unknown>[]>): Set<string> {
  const out = new Set<string>()
  for (const list of Object.values(rows))
    for (const row of list) for (const v of Object.values(row)) if (typeof v === 'string') out.add(v)
  return out
}

/** B's identifying values: text values of B's rows, not shared with A, not enums, not payload blobs. */
export function secretsOf(db: Database, b: string, a: string): string[] {
  const mine = textValues(storeRows(db, a))
  return [...textValues(storeRows(db, b))].filter(
    (v) =>
      v.length >= 6 && v.length <= 300 && !mine.has(v) && !COMMON.has(v) && !v.startsWith('{') && !v.startsWith('['),
  )
}

/** A snapshot of B's rows for the "nothing changed" check (minus columns that move on their own). */
function snapshot(db: Database, storeId: string): string {
  const rows = storeRows(db, storeId)
  delete rows.webhook_deliveries
  delete rows.webhook_outbox
  delete rows.catalog_visits
  delete rows.visit_stats_daily
  for (const k of rows.api_keys ?? []) delete k.last_used_at
  return JSON.stringify(rows)
}

export async function runIsolation(): Promise<CaseResult> {
  const r = newResult('isolation (other store → 403, no leaks)')
  const receiver = startReceiver()
  const t: TestApp = makeApp({
    rateLimitKey: 1_000_000,
    rateLimitOrders: 1_000_000,
    rateLimitReviews: 1_000_000,
    rateLimitStoreReads: 1_000_000,
    webhookAllowPrivate: true,
    webhookTimeoutMs: 1000,
  })
  const sql = t.deps.db.$client

  await timed(r, async () => {
    const deps = t.deps
    // Both stores get the same kinds of data (names made unique per call by the factories).
    const fill = async (storeId: string) => {
      const ctx = ctxFor(deps, getStore({ ctx: { db: deps.db }, input: { id: storeId } })!)
      const cat = makeCatalog(deps, storeId)
      const category = createCategory({ ctx, input: { name: `Category ${storeId}` } })
      const discount = addDiscount(deps, storeId)
      const review = makeReview(deps, storeId, { productId: cat.mug.id, customerName: `Reviewer ${storeId}` })
      const hook = await createWebhook({
        ctx,
        input: { url: `${receiver.url}/${storeId}`, events: ['order.created', 'order.updated', 'review.created'] },
      })
      const orders = [0, 1].map(
        (i) =>
          placeOrder(deps, orderBody(storeId, cat, { name: `Buyer ${i} ${storeId}`, address: `Street ${storeId}` }))
            .body.id,
      )
      // the delivery log's ids exist once the outbox is moved (the dispatcher moves it; GET …/deliveries only reads)
      drainOutbox(sql)
      const delivery = sql
        .query<{ id: string }, [string]>('SELECT id FROM webhook_deliveries WHERE webhook_id = ?')
        .get(hook.id)!.id
      return { cat, category, discount, review, hook, orders, delivery }
    }
    const A = makeShop(deps, { plan: 'pro' })
    const B = makeShop(deps, { plan: 'pro' })
    const a = await fill(A.store.id)
    const b = await fill(B.store.id)

    const call = async (method: string, path: string, body: unknown, key: string | undefined) => {
      const [res, json] = await t.api.call(method, path, body, { key })
      r.tried++
      if (res.status >= 500) {
        r.fiveXx++
        fail(r, `${method} ${path}: ${res.status}`)
      }
      return [res, json, JSON.stringify(json)] as const
    }

    // Records of B made by each route's own creator (before the secrets are collected).
    const targets: { route: (typeof PROTECTED_ROUTES)[number]; id: string }[] = []
    for (const route of PROTECTED_ROUTES) if (route.own) targets.push({ route, id: await route.own(deps, B.store.id) })
    // A's own records (read back in part 2), made the same way, so shared constants are known as shared.
    const mineById: { path: string; id: string }[] = []
    for (const route of PROTECTED_ROUTES.filter((x) => x.method === 'GET' && x.own))
      mineById.push({ path: route.path, id: await route.own!(deps, A.store.id) })
    await Bun.sleep(50) // let B's webhook deliveries settle before the snapshot
    const secrets = secretsOf(sql, B.store.id, A.store.id)
    if (secrets.length < 20)
      fail(r, `only ${secrets.length} identifying values of store B: the scan would prove little`)
    const leaksIn = (where: string, text: string) => {
      const found = secrets.filter((s) => text.includes(s))
      if (found.length) {
        r.leaks += found.length
        fail(
          r,
          `${where} shows store B's ${found
            .slice(0, 3)
            .map((s) => JSON.stringify(s))
            .join(', ')}`,
        )
      }
    }
    const before = snapshot(sql, B.store.id)

    // 1. The matrix: A's key on B's records.
    for (const { route, id } of targets) {
      const path = route.path.replace(':deliveryId', b.delivery).replace(':id', id)
      const [res, body, text] = await call(route.method, path, route.body, A.key)
      if (res.status !== 403 || body?.code !== 'FORBIDDEN')
        fail(r, `${route.method} ${route.path} on store B's record: ${res.status} ${text.slice(0, 200)}`)
      leaksIn(`${route.method} ${route.path} (B's record)`, text)
    }

    // 2. Lists and A's own records, read by A: nothing of B. The same lists read by B: B's data.
    const lists = PROTECTED_ROUTES.filter((x) => x.method === 'GET' && !x.path.includes(':'))
    const queries = [
      '',
      '?limit=100',
      '?isActive=all',
      '?status=pending',
      `?productId=${b.cat.mug.id}`,
      '?createdSince=2000-01-01T00:00:00Z',
    ]
    let controlSeen = 0
    for (const route of lists) {
      for (const q of queries) {
        const [res, , text] = await call('GET', route.path + q, undefined, A.key)
        if (res.status === 200) leaksIn(`GET ${route.path}${q}`, text)
      }
      const [, , controlText] = await call('GET', `${route.path}?limit=100`, undefined, B.key)
      if (secrets.some((s) => controlText.includes(s))) controlSeen++
    }
    if (controlSeen < lists.length - 2)
      fail(r, `only ${controlSeen} of ${lists.length} lists show store B its own data: the scanner may be blind`)
    for (const { path, id } of mineById) {
      const [res, , text] = await call('GET', path.replace(':id', id), undefined, A.key)
      if (res.status !== 200) fail(r, `GET ${path} on A's own record: ${res.status}`)
      leaksIn(`GET ${path} (A's record)`, text)
    }
    const [storefrontRes, , storefront] = await call('GET', `/api/v1/stores/${A.store.slug}`, undefined, undefined)
    if (storefrontRes.status !== 200) fail(r, `storefront of A: ${storefrontRes.status}`)
    leaksIn('GET /api/v1/stores/:slug (A)', storefront)
    const [, , deliveries] = await call('GET', `/api/v1/webhooks/${a.hook.id}/deliveries`, undefined, A.key)
    leaksIn("A's delivery log", deliveries)

    // 3. A's writes naming B's records: refused, nothing linked.
    const refused = async (label: string, method: string, path: string, body: unknown, key?: string) => {
      const [res, , text] = await call(method, path, body, key)
      if (res.status < 400) fail(r, `${label}: accepted (${res.status}) ${text.slice(0, 200)}`)
      leaksIn(label, text)
    }
    await refused(
      "product with B's category",
      'POST',
      '/api/v1/products',
      { name: 'X', price: 1, categoryId: b.category.id },
      A.key,
    )
    await refused(
      "product moved into B's category",
      'PUT',
      `/api/v1/products/${a.cat.mug.id}`,
      { categoryId: b.category.id },
      A.key,
    )
    const [vres, vbody] = await call(
      'PUT',
      `/api/v1/products/${a.cat.shirt.id}`,
      { variants: [{ id: b.cat.large.id, name: 'Hijacked', price: 0.01 }] },
      A.key,
    )
    if (vres.status === 200 && (vbody.data.variants as { id: string }[]).some((v) => v.id === b.cat.large.id))
      fail(r, "A's product adopted B's variant")
    await refused("order with B's variant", 'POST', '/api/orders', {
      ...orderBody(A.store.id, a.cat),
      items: [{ variantId: b.cat.large.id, quantity: 1 }],
    })
    await refused("order with B's product", 'POST', '/api/orders', {
      ...orderBody(A.store.id, a.cat),
      items: [{ productId: b.cat.mug.id, quantity: 1 }],
    })
    await refused(
      "order with B's shipping option",
      'POST',
      '/api/orders',
      orderBody(A.store.id, a.cat, { shippingOptionId: b.cat.courier.id }),
    )
    await refused(
      "order with B's discount code",
      'POST',
      '/api/orders',
      orderBody(A.store.id, a.cat, { discountCode: b.discount.code }),
    )
    await refused("review of B's product on A", 'POST', '/api/reviews', {
      storeId: A.store.id,
      productId: b.cat.mug.id,
      customerName: 'Eve',
      rating: 1,
    })
    await refused(
      "retry of B's delivery through A's webhook",
      'POST',
      `/api/v1/webhooks/${a.hook.id}/deliveries/${b.delivery}/retry`,
      undefined,
      A.key,
    )
    const linked = sql
      .query<{ n: number }, [string, string]>(
        `SELECT (SELECT count(*) FROM products WHERE store_id = ?1 AND category_id IN (SELECT id FROM categories
        WHERE store_id = ?2))
              + (SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id
              JOIN products p ON p.id = i.product_id WHERE o.store_id = ?1 AND p.store_id = ?2)
              + (SELECT count(*) FROM reviews rv JOIN products p ON p.id = rv.product_id WHERE rv.store_id = ?1
              AND p.store_id = ?2)
              + (SELECT count(*) FROM variants v JOIN products p ON p.id = v.product_id WHERE p.store_id = ?1
              AND v.id IN (SELECT v2.id FROM variants v2 JOIN products p2 ON p2.id = v2.product_id
              WHERE p2.store_id = ?2)) AS n`,
      )
      .get(A.store.id, B.store.id)!.n
    if (linked) fail(r, `${linked} rows of A reference store B's records`)

    // 4. B untouched.
    if (snapshot(sql, B.store.id) !== before) fail(r, "store B's rows changed during the cross-store calls")
    r.notes.push(
      `${targets.length} cross-store routes, ${lists.length} lists ` +
        `× ${queries.length} queries, ${secrets.length} identifying values of B scanned for`,
    )
  })

  receiver.stop()
  t.close()
  return r
}
