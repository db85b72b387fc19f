/**
 * The orders inbox, the order page and its moves, the packing slip and the live stream, over
 * HTTP: roles (a viewer sees no move and is refused one), another store's order,
 * search by number / phone in any format / name, "new" until opened, and an order committed
 * elsewhere reaching an open stream with its event id, resumable with Last-Event-ID.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeApp, type TestApp } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { searchOf } from '../../src/modules/orders'
import { readUntil } from '../helpers/stream'

let t: TestApp
const client = () => new PanelClient((r) => t.app.handle(r))
let shop: Awaited<ReturnType<typeof makeOwnerShop>>
let cat: ReturnType<typeof makeCatalog>
let owner: PanelClient
let viewer: PanelClient
let staff: PanelClient

beforeAll(async () => {
  t = makeApp()
  shop = await makeOwnerShop(t.deps, { name: 'Inbox <Shop>' })
  cat = makeCatalog(t.deps, shop.store.id)
  owner = client()
  await signIn(owner, shop.email)
  viewer = client()
  await signIn(viewer, (await makeMember(t.deps, shop.store.id, 'viewer')).email)
  staff = client()
  await signIn(staff, (await makeMember(t.deps, shop.store.id, 'staff')).email)
})
afterAll(() => t.close())

const order = (extra: Parameters<typeof orderBody>[2] = {}) =>
  placeOrder(t.deps, orderBody(shop.store.id, cat, extra)).body
const stockOf = (variantId: string) =>
  t.deps.db.$client.query<{ stock: number | null }, [string]>('SELECT stock FROM variants WHERE id = ?').get(variantId)!
    .stock
const statusOf = (id: string) =>
  t.deps.db.$client.query<{ status: string }, [string]>('SELECT status FROM orders WHERE id = ?').get(id)!.status

describe('the inbox', () => {
  test('newest first, each row with number, customer, total, status and "New" until opened', async () => {
    const a = order({ name: 'First <b>Buyer</b>' })
    const b = order({ name: 'Second Buyer' })
    const page = await owner.get('/admin/orders')
    expect(page.status).toBe(200)
    expect(page.text).toContain('<h1>Orders</h1>')
    expect(page.text.indexOf(b.orderNumber)).toBeLessThan(page.text.indexOf(a.orderNumber))
    expect(page.text).toContain('First &lt;b&gt;Buyer&lt;/b&gt;')
    expect(page.text).not.toContain('<b>Buyer')
    const rowOf = (id: string, text: string) =>
      /<li class="order[^"]*" id="order-([^"]+)"[\s\S]*?<\/li>/g.exec(
        text.slice(text.indexOf(`id="order-${id}"`) - 40),
      )![0]
    expect(rowOf(b.id, page.text)).toContain('>New<')
    expect(rowOf(b.id, page.text)).toContain('Pending')
    expect(rowOf(b.id, page.text)).toMatch(/\$3[4-9]\.00|\$\d+\.\d\d/)
    // Opening it marks it seen for the person who opened it (tests/panel/orders-new.test.ts: per person).
    expect((await owner.get(`/admin/orders/${b.id}`)).status).toBe(200)
    expect(rowOf(b.id, (await owner.get('/admin/orders')).text)).not.toContain('>New<')
    // A cross-site navigation does not.
    await owner.get(`/admin/orders/${a.id}`, { 'sec-fetch-site': 'cross-site' })
    expect(rowOf(a.id, (await owner.get('/admin/orders')).text)).toContain('>New<')
  })

  test('search by order number, by a phone typed with spaces and without "+", by name; filter by status', async () => {
    const o = order({ phone: '+14155550199', name: 'Zelda Quintana' })
    for (const q of [
      o.orderNumber,
      o.orderNumber.replace('ORD-', ''),
      String(Number(o.orderNumber.slice(4))),
      '1 415 555 0199',
      '(415) 555-0199'.replace('(', '+1 ('),
      'zelda quin',
    ]) {
      const page = await owner.get(`/admin/orders?q=${encodeURIComponent(q)}`)
      expect({
        q,
        found: page.text.includes(`id="order-${o.id}"`),
        rows: (page.text.match(/<li class="order/g) ?? []).length,
      }).toEqual({ q, found: true, rows: 1 })
    }
    expect((await owner.get('/admin/orders?q=nobody-at-all')).text).toContain('No orders match.')
    // Names: the trigram index (accents aside), and LIKE under 3 characters.
    const accented = order({ name: 'Íñigo Ñúñez' })
    for (const q of ['nunez', 'ÑÚÑ', 'go ñ', 'Íñ'])
      expect({
        q,
        found: (await owner.get(`/admin/orders?q=${encodeURIComponent(q)}`)).text.includes(`id="order-${accented.id}"`),
      }).toEqual({ q, found: true })
    expect(searchOf('+54 9 11 5555-0101')).toEqual({ phone: '+5491155550101' })
    expect(searchOf('#42')).toEqual({ number: 'ORD-000042' })
    const confirmed = await owner.get('/admin/orders?status=confirmed')
    expect(confirmed.text).not.toContain(`id="order-${o.id}"`)
    expect((await owner.get('/admin/orders?status=pending')).text).toContain(`id="order-${o.id}"`)
  })

  test('paged by 25', async () => {
    const { store, email } = await makeOwnerShop(t.deps)
    const c2 = makeCatalog(t.deps, store.id)
    for (let i = 0; i < 27; i++) placeOrder(t.deps, orderBody(store.id, c2))
    const b = client()
    await signIn(b, email)
    const first = await b.get('/admin/orders')
    expect((first.text.match(/<li class="order/g) ?? []).length).toBe(25)
    expect(first.text).toContain('Page 1 of 2')
    const second = await b.get('/admin/orders?page=2')
    expect((second.text.match(/<li class="order/g) ?? []).length).toBe(2)
  })
})

describe('the order page and its moves', () => {
  test('lines, totals, customer, notes, WhatsApp link, and only the allowed moves', async () => {
    const o = order({ notes: 'Ring twice', phone: '+14155550123' })
    const page = await owner.get(`/admin/orders/${o.id}`)
    expect(page.status).toBe(200)
    for (const s of [
      'Large',
      'Shirt',
      'Mug',
      'Ring twice',
      'Calle 1, Lima',
      '+14155550123',
      'Status history',
      'by the customer',
    ])
      expect(page.text).toContain(s)
    expect(page.text).toContain('>Confirm</button>')
    expect(page.text).toContain('>Cancel order</button>')
    expect(page.text).not.toContain('Mark as shipped')
    expect(page.text).not.toContain('Mark as delivered')
    const wa = /href="(https:\/\/wa\.me\/[^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&')
    expect(wa).toStartWith('https://wa.me/14155550123?text=')
    expect(decodeURIComponent(wa.split('text=')[1]!)).toContain(o.orderNumber)
  })

  test('Confirm moves it as the API does (webhook rules too); then shipped, delivered; history says who', async () => {
    const o = order()
    await staff.get(`/admin/orders/${o.id}`)
    const moved = await staff.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed' })
    expect(moved.status).toBe(303)
    expect(statusOf(o.id)).toBe('confirmed')
    const after = await staff.get(moved.location!)
    expect(after.text).toContain('The order is now Confirmed.')
    expect(after.text).toContain('>Mark as shipped</button>')
    expect(after.text).not.toContain('>Confirm</button>')
    expect(after.text).toContain('by staff person')
    // A move the machine refuses is a 409 page, and nothing changes.
    const refused = await staff.submit(`/admin/orders/${o.id}/status`, { status: 'delivered' })
    expect(refused.status).toBe(409)
    expect(statusOf(o.id)).toBe('confirmed')
  })

  test('cancelling asks first, then puts the stock back', async () => {
    t.deps.db.$client.run('UPDATE variants SET stock = 10 WHERE id = ?', [cat.large.id])
    const o = order()
    expect(stockOf(cat.large.id)).toBe(8)
    const ask = await owner.get(`/admin/orders/${o.id}/cancel`)
    expect(ask.status).toBe(200)
    expect(ask.text).toContain('Yes, cancel the order')
    expect(statusOf(o.id)).toBe('pending')
    const done = await owner.submit(`/admin/orders/${o.id}/status`, { status: 'cancelled' })
    expect(done.status).toBe(303)
    expect(statusOf(o.id)).toBe('cancelled')
    expect(stockOf(cat.large.id)).toBe(10)
    t.deps.db.$client.run('UPDATE variants SET stock = NULL WHERE id = ?', [cat.large.id])
    const page = await owner.get(`/admin/orders/${o.id}`)
    expect(page.text).not.toContain('>Confirm</button>')
    expect(page.text).toContain('no more moves')
  })

  test('a viewer sees no move buttons, and a move posted as viewer is refused', async () => {
    const o = order()
    const page = await viewer.get(`/admin/orders/${o.id}`)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('>Confirm</button>')
    expect(page.text).not.toContain('Cancel order')
    const res = await viewer.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed' })
    expect(res.status).toBe(403)
    expect((await viewer.get(`/admin/orders/${o.id}/cancel`)).status).toBe(403)
    expect(statusOf(o.id)).toBe('pending')
  })

  test(
    "another store's order is a 403 page; an unknown id a 404; " + 'a move without the form token changes nothing',
    async () => {
      const other = await makeOwnerShop(t.deps)
      const theirs = placeOrder(t.deps, orderBody(other.store.id, makeCatalog(t.deps, other.store.id))).body
      for (const path of [`/admin/orders/${theirs.id}`, `/admin/orders/${theirs.id}/print`])
        expect((await owner.get(path)).status).toBe(403)
      await owner.get('/admin/orders')
      expect((await owner.submit(`/admin/orders/${theirs.id}/status`, { status: 'confirmed' })).status).toBe(403)
      expect(statusOf(theirs.id)).toBe('pending')
      expect((await owner.get('/admin/orders/nope-not-an-order')).status).toBe(404)
      const mine = order()
      await owner.get('/admin/orders')
      expect(
        (await owner.submit(`/admin/orders/${mine.id}/status`, { status: 'confirmed' }, { token: null })).status,
      ).toBe(403)
      expect(
        (
          await owner.submit(
            `/admin/orders/${mine.id}/status`,
            { status: 'confirmed' },
            { origin: 'https://evil.example' },
          )
        ).status,
      ).toBe(403)
      expect(statusOf(mine.id)).toBe('pending')
    },
  )

  test('internal notes: the team writes them, a viewer reads but cannot add; they never reach the API', async () => {
    const o = order()
    await staff.get(`/admin/orders/${o.id}`)
    const empty = await staff.submit(`/admin/orders/${o.id}/notes`, { body: '   ' })
    expect(empty.status).toBe(400)
    expect(empty.text).toContain('Write the note first')
    const added = await staff.submit(`/admin/orders/${o.id}/notes`, { body: 'Gift wrap <please>' })
    expect(added.status).toBe(303)
    const page = await viewer.get(`/admin/orders/${o.id}`)
    expect(page.text).toContain('Gift wrap &lt;please&gt;')
    expect(page.text).toContain('staff person')
    expect(page.text).not.toContain('>Add note</button>')
    expect((await viewer.submit(`/admin/orders/${o.id}/notes`, { body: 'sneaky' })).status).toBe(403)
    const { key } = await import('../helpers/factories').then((m) => ({ key: m.makeKey(t.deps, shop.store.id) }))
    const [, body] = await t.api.get(`/api/v1/orders/${o.id}`, { key })
    expect(JSON.stringify(body)).not.toContain('Gift wrap')
  })

  test('the packing slip: store, number, lines, address; no navigation; Back a link, Print a button', async () => {
    const o = order()
    const slip = await owner.get(`/admin/orders/${o.id}/print`)
    expect(slip.status).toBe(200)
    for (const s of ['Inbox &lt;Shop&gt;', o.orderNumber, 'Shirt', 'Calle 1, Lima', 'Ship to'])
      expect(slip.text).toContain(s)
    expect(slip.text).not.toContain('<nav')
    expect(slip.text).toContain(`<a href="/admin/orders/${o.id}">Back to the order</a>`)
    // Printing needs the script: without it the button stays hidden.
    expect(slip.text).toContain('<button type="button" data-print hidden>Print</button>')
  })
})

describe('the live stream', () => {
  const open = (c: PanelClient, headers: Record<string, string> = {}) =>
    t.app.handle(
      new Request(`${c.origin}/admin/orders/live`, { headers: { cookie: `__Host-sid=${c.sid}`, ...headers } }),
    )

  test('an order committed elsewhere reaches an open stream of its store only; Last-Event-ID resumes', async () => {
    const res = await open(viewer)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    const other = await makeOwnerShop(t.deps)
    const otherClient = client()
    await signIn(otherClient, other.email)
    const otherRes = await open(otherClient)
    const reader = res.body!.getReader()
    const otherReader = otherRes.body!.getReader()
    const o = order({ name: 'Live Customer' })
    const text = await readUntil(reader, (s) => s.includes(o.orderNumber))
    const id = Number(/id: (\d+)\nevent: order\ndata: .*Live Customer/.exec(text)![1])
    expect(text).toContain('"created":true')
    await expect(readUntil(otherReader, (s) => s.includes(o.orderNumber), 300)).rejects.toThrow()
    // A move made elsewhere (the API's verb) updates the row live too.
    await staff.get(`/admin/orders/${o.id}`)
    await staff.submit(`/admin/orders/${o.id}/status`, { status: 'confirmed' })
    await readUntil(reader, (s) => s.includes('"status":"confirmed"'))
    await reader.cancel()
    await otherReader.cancel()
    // Reconnecting after the first event replays what came after it, and nothing before.
    const again = await open(viewer, { 'last-event-id': String(id) })
    const r2 = again.body!.getReader()
    const replay = await readUntil(r2, (s) => s.includes('"status":"confirmed"'))
    expect(replay).not.toContain('"created":true')
    await r2.cancel()
  })

  test('a burst: the newest 10 rows, the rest counted, and the resume point is the last event', async () => {
    const res = await open(owner)
    const reader = res.body!.getReader()
    await readUntil(reader, (s) => s.includes('retry:'))
    // Placed in one tick: the stream's next read of the log finds all 30.
    const placed = Array.from({ length: 30 }, (_, i) => order({ name: `Burst ${i}` }))
    const text = await readUntil(reader, (s) => s.includes(placed[29]!.orderNumber) && /event: burst/.test(s))
    const burst = JSON.parse(/event: burst\ndata: (.*)/.exec(text)![1]!) as { created: number; announce: string }
    expect(burst.created).toBe(20)
    expect(burst.announce).toBe('20 more new orders: reload the page to see them all')
    for (const o of placed.slice(20)) expect(text).toContain(`<strong>${o.orderNumber}</strong>`)
    for (const o of placed.slice(0, 20)) expect(text).not.toContain(`<strong>${o.orderNumber}</strong>`)
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    await reader.cancel()
  })

  test('a stopping server ends open streams (the drain is not held up by them)', async () => {
    const res = await open(owner)
    const reader = res.body!.getReader()
    await reader.read() // the retry line
    t.deps.stopping.emit()
    const next = await Promise.race([reader.read(), Bun.sleep(1000).then(() => 'still open' as const)])
    expect(next).toEqual({ done: true, value: undefined })
  })

  test('no session: no stream', async () => {
    const res = await t.app.handle(new Request('http://localhost/admin/orders/live'))
    expect(res.status).toBe(303)
  })
})
