/**
 * The inbox's "new" marker is per person: an order stays new to each person until THAT
 * person opens it — in the inbox, the dashboard's latest orders and the live stream's rows (which
 * the tab title counts) — and the marks stay bounded: nothing placed before a person joined or
 * more than 30 days ago is new, and a person's first opening of an order prunes their marks past that window.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { makeApp, type TestApp } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { NEW_FOR_MS } from '../../src/modules/orders'
import { readUntil } from '../helpers/stream'

let t: TestApp
let shop: Awaited<ReturnType<typeof makeOwnerShop>>
let cat: ReturnType<typeof makeCatalog>
let ana: PanelClient
let bruno: PanelClient
const client = () => new PanelClient((r) => t.app.handle(r))

beforeAll(async () => {
  t = makeApp()
  shop = await makeOwnerShop(t.deps)
  cat = makeCatalog(t.deps, shop.store.id)
  ana = client()
  await signIn(ana, shop.email)
  bruno = client()
  await signIn(bruno, (await makeMember(t.deps, shop.store.id, 'staff')).email)
})
afterAll(() => t.close())

const order = () => placeOrder(t.deps, orderBody(shop.store.id, cat)).body
const isNewIn = (text: string, id: string) => {
  const at = text.indexOf(`id="order-${id}"`)
  if (at < 0) throw new Error(`order ${id} not on the page`)
  return /class="order is-new" $/.test(text.slice(Math.max(0, at - 40), at))
}
const newCount = (text: string) => text.split('class="order is-new"').length - 1

test("one person opening an order does not clear it for another; each person's own opening does", async () => {
  const o = order()
  expect(isNewIn((await ana.get('/admin/orders')).text, o.id)).toBe(true)
  expect(isNewIn((await bruno.get('/admin/orders')).text, o.id)).toBe(true)
  const before = newCount((await bruno.get('/admin/orders')).text)

  expect((await ana.get(`/admin/orders/${o.id}`)).status).toBe(200)
  expect(isNewIn((await ana.get('/admin/orders')).text, o.id)).toBe(false)
  const brunoPage = (await bruno.get('/admin/orders')).text
  expect(isNewIn(brunoPage, o.id)).toBe(true)
  // What the tab title starts from (the page's new rows) follows the person too.
  expect(newCount(brunoPage)).toBe(before)
  expect(isNewIn((await bruno.get('/admin')).text, o.id)).toBe(true)
  expect(isNewIn((await ana.get('/admin')).text, o.id)).toBe(false)

  await bruno.get(`/admin/orders/${o.id}`)
  expect(isNewIn((await bruno.get('/admin/orders')).text, o.id)).toBe(false)
  expect(newCount((await bruno.get('/admin/orders')).text)).toBe(before - 1)
})

test('the live row of a status move is new for the person who has not opened it, not for one who has', async () => {
  const o = order()
  await ana.get(`/admin/orders/${o.id}`)
  const open = (c: PanelClient) =>
    t.app.handle(new Request(`${c.origin}/admin/orders/live`, { headers: { cookie: `__Host-sid=${c.sid}` } }))
  const readers = await Promise.all([open(ana), open(bruno)].map(async (r) => (await r).body!.getReader()))
  await ana.get(`/admin/orders/${o.id}`)
  await ana.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed' })
  const [forAna, forBruno] = await Promise.all(
    readers.map((r) => readUntil(r, (s) => s.includes('"status":"confirmed"'))),
  )
  const dataOf = (text: string) =>
    JSON.parse(/data: (\{.*"status":"confirmed".*\})/.exec(text)![1]!) as { isNew: boolean; html: string }
  expect(dataOf(forAna!).isNew).toBe(false)
  expect(dataOf(forAna!).html).not.toContain('is-new')
  expect(dataOf(forBruno!).isNew).toBe(true)
  expect(dataOf(forBruno!).html).toContain('class="order is-new"')
  await Promise.all(readers.map((r) => r.cancel()))
})

test(
  'bounded: orders from before a person joined or older than the window are not new; ' +
    'opening prunes marks past the window',
  async () => {
    const old = order()
    const carla = client()
    const { user } = await makeMember(t.deps, shop.store.id, 'viewer')
    // Carla joined after `old` was placed.
    t.deps.db.$client.run('UPDATE memberships SET created_at = ? WHERE user_id = ?', [t.clock.now() + 1, user.id])
    await signIn(
      carla,
      t.deps.db.$client.query<{ email: string }, [string]>('SELECT email FROM users WHERE id = ?').get(user.id)!.email,
    )
    const fresh = order()
    t.deps.db.$client.run('UPDATE orders SET created_at = ? WHERE id = ?', [t.clock.now() + 2, fresh.id])
    const page = (await carla.get('/admin/orders')).text
    expect(isNewIn(page, old.id)).toBe(false)
    expect(isNewIn(page, fresh.id)).toBe(true)

    // A month-old order is not new to anyone, and its mark is pruned when the person opens another.
    const aging = order()
    await ana.get(`/admin/orders/${aging.id}`)
    const marks = () =>
      t.deps.db.$client
        .query<{ n: number }, [string]>('SELECT count(*) AS n FROM order_opened WHERE order_id = ?')
        .get(aging.id)!.n
    expect(marks()).toBe(1)
    t.deps.db.$client.run('UPDATE orders SET created_at = created_at - ? WHERE id = ?', [NEW_FOR_MS + 1000, aging.id])
    t.deps.db.$client.run('UPDATE order_opened SET order_created_at = order_created_at - ? WHERE order_id = ?', [
      NEW_FOR_MS + 1000,
      aging.id,
    ])
    expect(isNewIn((await bruno.get('/admin/orders')).text, aging.id)).toBe(false)
    await ana.get(`/admin/orders/${order().id}`)
    expect(marks()).toBe(0)
  },
)

test('opening an order again writes nothing: one mark, and the pruning waits for a first opening', async () => {
  const seen = order()
  await ana.get(`/admin/orders/${seen.id}`)
  const aging = order()
  await ana.get(`/admin/orders/${aging.id}`)
  const rows = (id: string) =>
    t.deps.db.$client
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM order_opened WHERE order_id = ?')
      .get(id)!.n
  t.deps.db.$client.run('UPDATE order_opened SET order_created_at = order_created_at - ? WHERE order_id = ?', [
    NEW_FOR_MS + 1000,
    aging.id,
  ])
  // A reload and a page opened again after a move: no write, so the mark past the window is still there.
  for (let i = 0; i < 2; i++) expect((await ana.get(`/admin/orders/${seen.id}`)).status).toBe(200)
  expect(rows(seen.id)).toBe(1)
  expect(rows(aging.id)).toBe(1)
  expect(isNewIn((await ana.get('/admin/orders')).text, seen.id)).toBe(false)
  // The person's next first opening prunes it.
  await ana.get(`/admin/orders/${order().id}`)
  expect(rows(aging.id)).toBe(0)
  expect(rows(seen.id)).toBe(1)
})
