/**
 * The alerts beside new orders, over HTTP with a fake push service on loopback: a review waiting
 * for moderation, an order taking an item to the low-stock mark, a webhook endpoint the service
 * disabled. Each reaches exactly the devices of the people who chose it and whose role allows
 * it, once, in the same queue as new orders (so a suspended store gets nothing).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeCatalog, makeKey, orderBody } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { browserSubscription, decryptPush, startPushService, type FakePushService } from '../helpers/push-service'
import { startReceiver } from '../helpers/webhook-receiver'
import { waitFor } from '../helpers/wait'
import { sweepDeliveries } from '../../src/jobs/webhooks'
import { fixedClock } from '../../src/lib/time'
import { suspendStore } from '../../src/modules/platform-stores/service'
import type { Role } from '../../src/db/schema'

const clock = fixedClock(Date.UTC(2026, 5, 1, 12))
const t = appForFile(
  { pushAllowPrivate: true, webhookAllowPrivate: true, rateLimitOrders: 100_000, rateLimitReviews: 100_000 },
  { clock },
)
let push: FakePushService
beforeAll(() => {
  push = startPushService()
})
afterAll(() => push.stop())

type Prefs = Partial<Record<'newOrders' | 'reviews' | 'lowStock' | 'webhookDisabled', '1'>>
interface Device {
  path: string
  keys: ReturnType<typeof browserSubscription>
}

/** Signs `email` in, subscribes one device as the panel script does, and saves `prefs` on the Account page. */
async function deviceOf(email: string, name: string, prefs: Prefs): Promise<Device> {
  const b = new PanelClient((r) => t.app.handle(r))
  await signIn(b, email)
  await b.get('/admin/account')
  const keys = browserSubscription(`${push.url}/push/${name}`)
  expect((await b.postJson('/admin/push/subscriptions', keys.json)).status).toBe(201)
  await b.get('/admin/account')
  expect((await b.submit('/admin/push/preferences', prefs)).location).toContain('done=push-prefs')
  return { path: `/push/${name}`, keys }
}

/** A store whose owner wants `ownerPrefs`, and one more person per entry of `others`. */
async function shopWith(ownerPrefs: Prefs, others: [Role, Prefs][]) {
  const shop = await makeOwnerShop(t.deps)
  const owner = await deviceOf(shop.email, `${shop.store.id}-owner`, ownerPrefs)
  const people: Device[] = []
  for (const [i, [role, prefs]] of others.entries()) {
    const m = await makeMember(t.deps, shop.store.id, role)
    people.push(await deviceOf(m.email, `${shop.store.id}-${role}-${i}`, prefs))
  }
  return { ...shop, owner, people, cat: makeCatalog(t.deps, shop.store.id) }
}

const sentTo = (d: Device) => push.received.filter((r) => r.path === d.path)
const opened = (d: Device) =>
  sentTo(d).map((r) => decryptPush(r, d.keys) as { title: string; body: string; url: string; tag: string })
const placeOrder = (storeId: string, cat: ReturnType<typeof makeCatalog>) =>
  t.api.post('/api/orders', orderBody(storeId, cat, { name: 'Ana Souza' }))
const setStock = (table: 'products' | 'variants', id: string, stock: number | null) =>
  t.deps.db.$client.query(`UPDATE ${table} SET stock = ? WHERE id = ?`).run(stock, id)
const submitReview = (storeId: string, productId: string) =>
  t.api.post('/api/reviews', { storeId, productId, customerName: 'Rita Lee', rating: 4, comment: 'Lovely' })

describe('a review waiting for moderation', () => {
  test('reaches the devices of those who chose it and may moderate reviews, once each', async () => {
    const shop = await shopWith({ reviews: '1' }, [
      ['staff', { reviews: '1' }],
      ['viewer', { reviews: '1' }],
      ['staff', { newOrders: '1' }],
    ])
    const [staff, viewer, notWanted] = shop.people as [Device, Device, Device]
    const [res, body] = await submitReview(shop.store.id, shop.cat.mug.id)
    expectStatus(res, body).toBe(201)
    const expected = {
      title: 'Review waiting · Mug',
      body: 'Rita Lee · 4★',
      url: '/admin/reviews',
      tag: `review-${body.id}`,
    }
    await waitFor('the review pushes', () => sentTo(shop.owner).length === 1 && sentTo(staff).length === 1)
    await t.deps.pushes.sweep()
    expect(opened(shop.owner)).toEqual([expected])
    expect(opened(staff)).toEqual([expected])
    // A viewer may not moderate reviews; the other staff member did not choose reviews.
    expect(sentTo(viewer)).toHaveLength(0)
    expect(sentTo(notWanted)).toHaveLength(0)
  })
})

describe('low stock', () => {
  test('an order taking a tracked item to the mark pushes once per item; later orders below it do not', async () => {
    const shop = await shopWith({ lowStock: '1' }, [
      ['viewer', { lowStock: '1' }],
      ['staff', { newOrders: '1' }],
    ])
    const [viewer, notWanted] = shop.people as [Device, Device]
    const { shirt, large, mug } = shop.cat
    // The order takes 2 Large shirts (7 → 5, the mark) and 1 mug (6 → 5).
    setStock('variants', large.id, 7)
    setStock('products', mug.id, 6)
    const [first] = await placeOrder(shop.store.id, shop.cat)
    expect(first.status).toBe(201)
    await waitFor('the low-stock pushes', () => sentTo(shop.owner).length === 2 && sentTo(viewer).length === 2)
    const expected = [
      {
        title: 'Low stock · Shirt (Large)',
        body: '5 left',
        url: `/admin/products/${shirt.id}`,
        tag: `stock-${large.id}`,
      },
      { title: 'Low stock · Mug', body: '5 left', url: `/admin/products/${mug.id}`, tag: `stock-${mug.id}` },
    ]
    const byTag = (a: { tag: string }, b: { tag: string }) => a.tag.localeCompare(b.tag)
    expect(opened(shop.owner).sort(byTag)).toEqual([...expected].sort(byTag))
    expect(opened(viewer).sort(byTag)).toEqual([...expected].sort(byTag))

    // Already below the mark: the next order (5 → 3, 5 → 4) tells nobody again.
    const [second] = await placeOrder(shop.store.id, shop.cat)
    expect(second.status).toBe(201)
    await t.deps.pushes.sweep()
    expect(sentTo(shop.owner)).toHaveLength(2)
    // The staff member chose new orders only: the orders, never the stock.
    await waitFor('the staff member’s order pushes', () => sentTo(notWanted).length === 2)
    expect(opened(notWanted).every((m) => m.tag.startsWith('order-'))).toBe(true)

    // Restocked above the mark and taken down to it again: it crosses again, so it pushes again.
    setStock('variants', large.id, 6)
    setStock('products', mug.id, null)
    await placeOrder(shop.store.id, shop.cat)
    await waitFor('the second crossing', () => sentTo(shop.owner).length === 3)
    await t.deps.pushes.sweep()
    expect(opened(shop.owner)[2]).toMatchObject({ title: 'Low stock · Shirt (Large)', body: '4 left' })
    expect(sentTo(shop.owner)).toHaveLength(3)
  })
})

describe('low stock from a stock edit', () => {
  test('an API edit taking a product or variant to the mark pushes once; a further one below it does not', async () => {
    const shop = await shopWith({ lowStock: '1' }, [['staff', { newOrders: '1' }]])
    const [notWanted] = shop.people as [Device]
    const { shirt, large, mug } = shop.cat
    setStock('products', mug.id, 9)
    setStock('variants', large.id, 10)
    const key = makeKey(t.deps, shop.store.id)
    const put = async (id: string, body: unknown) => {
      const [res, got] = await t.api.put(`/api/v1/products/${id}`, body, { key })
      expectStatus(res, got).toBe(200)
    }
    await put(mug.id, { stock: 4 })
    await put(shirt.id, { variants: [{ id: large.id, name: 'Large', price: 12, stock: 2 }] })
    await waitFor('the edits’ pushes', () => sentTo(shop.owner).length === 2)
    // Already below the mark: editing again tells nobody.
    await put(mug.id, { stock: 3 })
    await t.deps.pushes.sweep()
    expect(opened(shop.owner).map((m) => [m.title, m.body, m.url])).toEqual([
      ['Low stock · Mug', '4 left', `/admin/products/${mug.id}`],
      ['Low stock · Shirt (Large)', '2 left', `/admin/products/${shirt.id}`],
    ])
    expect(sentTo(notWanted)).toHaveLength(0)
  })
})

describe('a webhook endpoint disabled', () => {
  test('reaches the owners who chose it, once, linking the endpoint', async () => {
    const shop = await shopWith({ webhookDisabled: '1' }, [
      ['staff', { webhookDisabled: '1' }],
      ['owner', { newOrders: '1' }],
    ])
    const [staff, otherOwner] = shop.people as [Device, Device]
    const rx = startReceiver()
    try {
      rx.respond = () => new Response('gone', { status: 410 })
      const key = makeKey(t.deps, shop.store.id)
      const [res, body] = await t.api.post('/api/v1/webhooks', { url: rx.url, events: ['order.created'] }, { key })
      expectStatus(res, body).toBe(201)
      const hookId = (body.data as { id: string }).id
      await placeOrder(shop.store.id, shop.cat)
      await placeOrder(shop.store.id, shop.cat)
      await sweepDeliveries(t.deps)
      await waitFor('the disabled endpoint’s push', () => sentTo(shop.owner).length === 1)
      await sweepDeliveries(t.deps)
      await t.deps.pushes.sweep()
      expect(opened(shop.owner)).toEqual([
        {
          title: 'Webhook endpoint disabled',
          body: rx.url,
          url: `/admin/webhooks/${hookId}`,
          tag: `webhook-${hookId}`,
        },
      ])
      // Staff may not manage webhooks; the other owner did not choose it (new orders only).
      expect(sentTo(staff)).toHaveLength(0)
      expect(opened(otherOwner).every((m) => m.tag.startsWith('order-'))).toBe(true)
    } finally {
      rx.stop()
    }
  })
})

describe('a role changed while a push waits', () => {
  test('a review push waiting for a retry is dropped once the person may no longer moderate reviews', async () => {
    const shop = await shopWith({ reviews: '1' }, [['staff', { reviews: '1' }]])
    const [staff] = shop.people as [Device]
    push.respond = (r) => new Response(null, { status: r.path === staff.path ? 503 : 201 })
    try {
      const [res] = await submitReview(shop.store.id, shop.cat.mug.id)
      expect(res.status).toBe(201)
      await waitFor('the first attempts', () => sentTo(staff).length === 1 && sentTo(shop.owner).length === 1)
      const waiting = () =>
        (
          t.deps.db.$client
            .query(
              'SELECT count(*) AS n FROM push_deliveries WHERE store_id = ? AND attempts = 1 ' +
                'AND "grant" = \'reviews:write\'',
            )
            .get(shop.store.id) as { n: number }
        ).n
      await waitFor('the retry to be scheduled', () => waiting() === 1)
      // Now a viewer: reads reviews, may not moderate them.
      t.deps.db.$client
        .query("UPDATE memberships SET role = 'viewer' WHERE store_id = ? AND role = 'staff'")
        .run(shop.store.id)
      push.respond = () => new Response(null, { status: 201 })
      clock.advance(3_600_000)
      await t.deps.pushes.sweep()
      expect(sentTo(staff)).toHaveLength(1)
      expect(waiting()).toBe(0)
    } finally {
      push.respond = () => new Response(null, { status: 201 })
    }
  })
})

describe('a suspended store', () => {
  test('an alert waiting for a retry is dropped, not sent, once the store is suspended', async () => {
    const shop = await shopWith({ reviews: '1', newOrders: '1' }, [])
    push.respond = (r) => new Response(null, { status: r.path === shop.owner.path ? 503 : 201 })
    try {
      const [res] = await submitReview(shop.store.id, shop.cat.mug.id)
      expect(res.status).toBe(201)
      await waitFor('the first attempt', () => sentTo(shop.owner).length === 1)
      const waiting = () =>
        (
          t.deps.db.$client
            .query('SELECT count(*) AS n FROM push_deliveries WHERE store_id = ? AND attempts = 1')
            .get(shop.store.id) as { n: number }
        ).n
      await waitFor('the retry to be scheduled', () => waiting() === 1)
      suspendStore({ ctx: { ...t.deps, actor: 'test' } as never, input: { storeId: shop.store.id, reason: 'manual' } })
      clock.advance(3_600_000)
      await t.deps.pushes.sweep()
      expect(sentTo(shop.owner)).toHaveLength(1)
      expect(waiting()).toBe(0)
    } finally {
      push.respond = () => new Response(null, { status: 201 })
    }
  })
})
