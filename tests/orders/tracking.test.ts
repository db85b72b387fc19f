/** A move to "shipped" with a tracking number and link: kept, returned as `tracking`, refused on any other move. */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus } from '../helpers/app'
import { makeCatalog, makeShop, orderBody, placeOrder } from '../helpers/factories'

const t = appForFile({ rateLimitOrders: 100_000, rateLimitKey: 100_000 })

function confirmedOrder() {
  const { store, key } = makeShop(t.deps)
  const id = placeOrder(t.deps, orderBody(store.id, makeCatalog(t.deps, store.id))).body.id
  return { key, id, confirm: () => t.api.put(`/api/v1/orders/${id}/status`, { status: 'confirmed' }, { key }) }
}

describe('tracking on PUT /api/v1/orders/:id/status', () => {
  test('an order has no tracking until it ships; shipped with both keeps them and returns them', async () => {
    const { key, id, confirm } = confirmedOrder()
    const [, before] = await t.api.get(`/api/v1/orders/${id}`, { key })
    expect(before.data.tracking).toBeNull()
    await confirm()
    const [res, body] = await t.api.put(
      `/api/v1/orders/${id}/status`,
      { status: 'shipped', trackingNumber: ' 1Z999AA10123456784 ', trackingUrl: 'https://carrier.example/t/1Z999' },
      { key },
    )
    expectStatus(res, body).toBe(200)
    expect(body.data.tracking).toEqual({ number: '1Z999AA10123456784', url: 'https://carrier.example/t/1Z999' })
    const [, after] = await t.api.get(`/api/v1/orders/${id}`, { key })
    expect(after.data.tracking).toEqual(body.data.tracking)
    // A later move keeps what shipping recorded.
    const [, delivered] = await t.api.put(`/api/v1/orders/${id}/status`, { status: 'delivered' }, { key })
    expect(delivered.data.tracking).toEqual(body.data.tracking)
  })

  test('both are optional: a number alone, or neither (tracking stays null)', async () => {
    const a = confirmedOrder()
    await a.confirm()
    const [, one] = await t.api.put(
      `/api/v1/orders/${a.id}`,
      { status: 'shipped', trackingNumber: 'AB12' },
      { key: a.key },
    )
    expect(one.data.tracking).toEqual({ number: 'AB12', url: null })
    const b = confirmedOrder()
    await b.confirm()
    const [res, none] = await t.api.put(`/api/v1/orders/${b.id}/status`, { status: 'shipped' }, { key: b.key })
    expectStatus(res, none).toBe(200)
    expect(none.data.tracking).toBeNull()
  })

  test('invalid values → 400 at the field, and the order does not move', async () => {
    const { key, id, confirm } = confirmedOrder()
    await confirm()
    const cases: [Record<string, unknown>, string][] = [
      [{ trackingNumber: 'x'.repeat(101) }, 'trackingNumber'],
      [{ trackingNumber: '' }, 'trackingNumber'],
      [{ trackingNumber: 42 }, 'trackingNumber'],
      [{ trackingUrl: 'http://carrier.example/t/1' }, 'trackingUrl'],
      [{ trackingUrl: 'javascript:alert(1)' }, 'trackingUrl'],
      [{ trackingUrl: 'not a link' }, 'trackingUrl'],
    ]
    for (const [extra, field] of cases) {
      const [res, body] = await t.api.put(`/api/v1/orders/${id}/status`, { status: 'shipped', ...extra }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.code).toBe('VALIDATION_ERROR')
      expect(body.details.field).toBe(field)
    }
    const [, still] = await t.api.get(`/api/v1/orders/${id}`, { key })
    expect(still.data).toMatchObject({ status: 'confirmed', tracking: null })
    const [okRes, ok] = await t.api.put(
      `/api/v1/orders/${id}/status`,
      { status: 'shipped', trackingNumber: 'x'.repeat(100) },
      { key },
    )
    expectStatus(okRes, ok).toBe(200)
  })

  test('any other status refuses them: 400 naming the field, reason not_allowed, nothing changes', async () => {
    const { key, id } = confirmedOrder()
    for (const [status, field, value] of [
      ['confirmed', 'trackingNumber', 'AB12'],
      ['confirmed', 'trackingUrl', 'https://carrier.example/t/1'],
      ['cancelled', 'trackingNumber', 'AB12'],
    ] as const) {
      const [res, body] = await t.api.put(`/api/v1/orders/${id}/status`, { status, [field]: value }, { key })
      expectStatus(res, body).toBe(400)
      expect(body.details).toMatchObject({ field, reason: 'not_allowed' })
    }
    const [, still] = await t.api.get(`/api/v1/orders/${id}`, { key })
    expect(still.data).toMatchObject({ status: 'pending', tracking: null })
  })

  test('the order.created event keeps the order as created: no tracking', async () => {
    const { key, id, confirm } = confirmedOrder()
    await confirm()
    await t.api.put(`/api/v1/orders/${id}/status`, { status: 'shipped', trackingNumber: 'AB12' }, { key })
    const { createdOrderView } = await import('../../src/modules/orders/views')
    expect(createdOrderView(t.deps.db.$client, id)).toMatchObject({ status: 'pending', tracking: null })
  })
})
