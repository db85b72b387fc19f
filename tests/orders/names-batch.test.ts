/**
 * The name search's index written once per checkout batch (drizzle/0024, decision 013): the
 * same orders posted together over HTTP (one batch, two of them refused in the middle) and one
 * at a time (a batch each) leave the same index rows, rollups and counters; the panel's search
 * finds the batch's orders; a writer other than checkout is still indexed by the trigger.
 */
import { expect, test } from 'bun:test'
import type { Database } from 'bun:sqlite'
import { appForFile, expectStatus } from '../helpers/app'
import { makeCatalog, orderBody } from '../helpers/factories'
import { makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { fixedClock } from '../../src/lib/time'
import { orders } from '../../src/db/schema'

const clock = fixedClock(Date.UTC(2026, 5, 1))
const t = appForFile({ rateLimitKey: 100_000, rateLimitOrders: 100_000 }, { clock })
const NAMES = ['Zoë Álvarez', 'Mateo Núñez', 'Zoë Álvarez', 'Priya Raman', 'Li Wei']

/** A shop with NAMES' orders, plus an unknown variant (400) and a repeat of the first (409) after the second. */
async function shopWith(together: boolean) {
  const shop = await makeOwnerShop(t.deps)
  const cat = makeCatalog(t.deps, shop.store.id)
  const bodies = NAMES.map((name, i) =>
    orderBody(shop.store.id, cat, { name, phone: `+1415555${i}${together ? 1 : 2}00` }),
  )
  bodies.splice(2, 0, orderBody(shop.store.id, cat, { items: [{ variantId: 'nope', quantity: 1 }] }), bodies[0]!)
  const post = (b: unknown) => t.api.post('/api/orders', b)
  const answers = together
    ? await Promise.all(bodies.map(post))
    : await (async () => {
        const a = []
        for (const b of bodies) a.push(await post(b))
        return a
      })()
  expect(answers.map(([res]) => res.status)).toEqual([201, 201, 400, 409, 201, 201, 201])
  return shop
}

/** What the orders of `storeId` left behind, with nothing that differs between two stores (ids, numbers aside). */
function storedFor(db: Database, storeId: string) {
  const all = <T>(sql: string) => db.query(sql).all(storeId) as T[]
  return {
    names: all(
      'SELECT n.name, n.name = o.customer_name AS same FROM orders o LEFT ' +
        'JOIN order_names n ON n.rowid = o.rowid AND n.store_id = o.store_id WHERE o.store_id = ? ' +
        'ORDER BY o.order_number',
    ),
    indexRows: all(`SELECT count(*) AS n FROM order_names WHERE store_id = ?`),
    orderStats: all(
      `SELECT day, status, orders, revenue FROM order_stats_daily WHERE store_id = ? ORDER BY day, status`,
    ),
    productStats: all(
      'SELECT p.name, s.day, s.quantity, s.revenue FROM product_stats_daily s ' +
        'JOIN products p ON p.id = s.product_id WHERE s.store_id = ? ORDER BY p.name',
    ),
    counts: all(`SELECT status, count FROM order_counts WHERE store_id = ? ORDER BY status`),
    customers: all(
      'SELECT name, substr(phone, 1, 9) AS phone, orders_count, total_spent, first_order_at, ' +
        'last_order_at FROM customers WHERE store_id = ? ORDER BY phone',
    ),
  }
}

test('orders posted together are indexed, rolled up and counted as orders posted one at a time', async () => {
  const db = t.deps.db.$client
  const one = await shopWith(false)
  const batch = await shopWith(true)
  const stored = storedFor(db, batch.store.id)
  expect(stored).toEqual(storedFor(db, one.store.id))
  expect(stored.names).toEqual(NAMES.map((name) => ({ name, same: 1 })))
  expect(stored.indexRows).toEqual([{ n: NAMES.length }])
  expect(db.query('SELECT count(*) AS n FROM order_names WHERE rowid NOT IN (SELECT rowid FROM orders)').get()).toEqual(
    { n: 0 },
  )
  expect(db.query('SELECT count(*) AS n FROM order_names_batch').get()).toEqual({ n: 0 })
  db.run("INSERT INTO order_names (order_names) VALUES ('integrity-check')")

  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, batch.email)
  const rows = async (q: string) =>
    ((await owner.get(`/admin/orders?q=${encodeURIComponent(q)}`)).text.match(/<li class="order/g) ?? []).length
  expect({
    zoe: await rows('zoe alv'),
    mateo: await rows('núñez'),
    priya: await rows('priya'),
    nobody: await rows('nobody-at-all'),
  }).toEqual({ zoe: 2, mateo: 1, priya: 1, nobody: 0 })
})

test('an order written by another writer than checkout is indexed by the trigger', async () => {
  const shop = await makeOwnerShop(t.deps)
  const [res, body] = await t.api.post(
    '/api/orders',
    orderBody(shop.store.id, makeCatalog(t.deps, shop.store.id), { name: 'Ximena Checkout' }),
  )
  expectStatus(res, body).toBe(201)
  const now = clock.now()
  t.deps.db
    .insert(orders)
    .values({
      storeId: shop.store.id,
      orderNumber: 'ORD-900001',
      status: 'pending',
      customerName: 'Yusuf Elsewhere',
      customerPhone: '+14155550999',
      currency: 'USD',
      itemsSubtotal: 100,
      total: 100,
      dedupHash: 'h',
      createdAt: now,
      updatedAt: now,
    })
    .run()
  const owner = new PanelClient((r) => t.app.handle(r))
  await signIn(owner, shop.email)
  for (const q of ['ximena', 'yusuf'])
    expect({
      q,
      rows: ((await owner.get(`/admin/orders?q=${q}`)).text.match(/<li class="order/g) ?? []).length,
    }).toEqual({ q, rows: 1 })
})
