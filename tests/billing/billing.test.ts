import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop, makeStore, uniq } from '../helpers/factories'
import { makeProduct } from '../helpers/factories'
import { fixedClock } from '../../src/lib/time'
import { billingEvents, invoices, stores } from '../../src/db/schema'
import { runAdmin } from '../../src/cli/admin'
import { runBillingSweep } from '../../src/jobs/billing'
import {
  openInvoice,
  recordChargeback,
  recordFailedCharge,
  recordPayment,
  recordRefund,
  RETRY_DELAYS_MS,
} from '../../src/modules/billing/service'
import { suspendStore } from '../../src/modules/platform-stores/service'

const DAY = 86_400_000
const SECRET = 'whsec-billing-test-secret-0123456789'
const clock = fixedClock(Date.UTC(2026, 3, 1, 9))
let t: TestApp
const savedDataDir = process.env.DATA_DIR
beforeAll(() => {
  t = makeApp(
    {
      billingWebhookSecret: SECRET,
      billingToleranceSec: 300,
      rateLimitKey: 100_000,
      rateLimitAnonymous: 100_000,
      rateLimitOrders: 1000,
      rateLimitReviews: 1000,
    },
    { clock },
  )
  process.env.DATA_DIR = t.config.dataDir
})
afterAll(() => {
  if (savedDataDir === undefined) delete process.env.DATA_DIR
  else process.env.DATA_DIR = savedDataDir
  t.close()
})

const env = () => ({ db: t.deps.db, clock, cache: t.deps.cache })
const storeRow = (id: string) => t.deps.db.select().from(stores).where(eq(stores.id, id)).get()!
const invoiceRow = (id: string) => t.deps.db.select().from(invoices).where(eq(invoices.id, id)).get()!

/** Runs an admin command with --json; returns [exit code, parsed object]. */
function admin(...argv: string[]): [number, Record<string, any>] {
  const out: string[] = []
  const code = runAdmin([...argv, '--json'], (s) => out.push(s))
  expect(out).toHaveLength(1)
  return [code, JSON.parse(out[0]!)]
}

describe('billing service and sweep job', () => {
  test('failed charges schedule retries; the sweep suspends only after the last retry; payment reinstates', () => {
    const { store } = makeShop(t.deps)
    const inv = openInvoice({ ctx: env(), input: { storeId: store.id, amount: 29.99, maxAttempts: 3 } }).invoice
    expect(inv).toMatchObject({
      status: 'open',
      attempts: 0,
      maxAttempts: 3,
      amount: 2999,
      currency: 'USD',
      nextRetryAt: null,
      dueAt: clock.now(),
    })

    let r = recordFailedCharge({ ctx: env(), input: { invoiceId: inv.id } })
    expect(r.invoice).toMatchObject({ attempts: 1, nextRetryAt: clock.now() + RETRY_DELAYS_MS[0]! })
    expect(runBillingSweep(t.deps)).toEqual([])
    clock.advance(RETRY_DELAYS_MS[0]!)
    r = recordFailedCharge({ ctx: env(), input: { invoiceId: inv.id } })
    expect(r.invoice).toMatchObject({ attempts: 2, nextRetryAt: clock.now() + RETRY_DELAYS_MS[1]! })
    clock.advance(RETRY_DELAYS_MS[1]! + DAY) // the retry is overdue but not yet reported: attempts < max
    expect(runBillingSweep(t.deps)).toEqual([])
    expect(storeRow(store.id).status).toBe('active')
    r = recordFailedCharge({ ctx: env(), input: { invoiceId: inv.id } }) // the last attempt
    expect(r.invoice).toMatchObject({ attempts: 3, nextRetryAt: null, status: 'open' })
    expect(r.store.status).toBe('active')

    expect(runBillingSweep(t.deps)).toEqual([store.id])
    expect(storeRow(store.id)).toMatchObject({
      status: 'suspended',
      suspendedReason: 'unpaid',
      suspendedAt: clock.now(),
    })
    expect(runBillingSweep(t.deps)).toEqual([]) // already suspended

    r = recordPayment({ ctx: env(), input: { invoiceId: inv.id } })
    expect(r.invoice).toMatchObject({ status: 'paid', paidAt: clock.now(), nextRetryAt: null })
    expect(r.storeChange).toBe('reinstated')
    expect(storeRow(store.id)).toMatchObject({ status: 'active', suspendedReason: null, suspendedAt: null })
    expect(runBillingSweep(t.deps)).toEqual([])
  })

  test('the sweep waits for a scheduled retry still in the future, skips paid invoices and non-active stores', () => {
    const a = makeStore(t.deps)
    const b = makeStore(t.deps)
    const c = makeStore(t.deps)
    const ia = openInvoice({ ctx: env(), input: { storeId: a.id, amount: 10 } }).invoice
    // attempts ≥ max, but the last retry is still ahead (e.g. the billing system lowered maxAttempts).
    t.deps.db
      .update(invoices)
      .set({ attempts: 4, nextRetryAt: clock.now() + 1000 })
      .where(eq(invoices.id, ia.id))
      .run()
    const ib = openInvoice({ ctx: env(), input: { storeId: b.id, amount: 10, maxAttempts: 1 } }).invoice
    recordFailedCharge({ ctx: env(), input: { invoiceId: ib.id } })
    recordPayment({ ctx: env(), input: { invoiceId: ib.id } })
    const ic = openInvoice({ ctx: env(), input: { storeId: c.id, amount: 10, maxAttempts: 1 } }).invoice
    recordFailedCharge({ ctx: env(), input: { invoiceId: ic.id } })
    suspendStore({ ctx: { db: t.deps.db, clock }, input: { storeId: c.id, reason: 'manual' } })

    const swept = runBillingSweep(t.deps)
    expect(swept).not.toContain(a.id)
    expect(swept).not.toContain(b.id)
    expect(swept).not.toContain(c.id)
    expect(storeRow(c.id).suspendedReason).toBe('manual')
    clock.advance(1000)
    expect(runBillingSweep(t.deps)).toContain(a.id)
    // A payment does not lift an operator's manual suspension.
    expect(recordPayment({ ctx: env(), input: { invoiceId: ic.id } }).store).toMatchObject({
      status: 'suspended',
      suspendedReason: 'manual',
    })
  })

  test('a payment does not reinstate while another invoice of the store is still overdue', () => {
    const s = makeStore(t.deps)
    const one = openInvoice({ ctx: env(), input: { storeId: s.id, amount: 5, maxAttempts: 1 } }).invoice
    const two = openInvoice({ ctx: env(), input: { storeId: s.id, amount: 7, maxAttempts: 1 } }).invoice
    recordFailedCharge({ ctx: env(), input: { invoiceId: one.id } })
    recordFailedCharge({ ctx: env(), input: { invoiceId: two.id } })
    expect(runBillingSweep(t.deps)).toContain(s.id)
    expect(recordPayment({ ctx: env(), input: { invoiceId: one.id } }).store.status).toBe('suspended')
    expect(recordPayment({ ctx: env(), input: { invoiceId: two.id } })).toMatchObject({
      storeChange: 'reinstated',
      store: { status: 'active' },
    })
  })

  test('refund and chargeback suspend at once; state rules give 409 INVALID_INVOICE_STATE', () => {
    const s = makeStore(t.deps)
    const inv = openInvoice({ ctx: env(), input: { storeId: s.id, amount: 12 } }).invoice
    expect(() => recordRefund({ ctx: env(), input: { invoiceId: inv.id } })).toThrow(
      expect.objectContaining({ code: 'INVALID_INVOICE_STATE', status: 409 }),
    )
    recordPayment({ ctx: env(), input: { invoiceId: inv.id } })
    expect(() => recordPayment({ ctx: env(), input: { invoiceId: inv.id } })).toThrow(
      expect.objectContaining({ code: 'INVALID_INVOICE_STATE' }),
    )
    expect(() => recordFailedCharge({ ctx: env(), input: { invoiceId: inv.id } })).toThrow(
      expect.objectContaining({ code: 'INVALID_INVOICE_STATE' }),
    )
    expect(recordRefund({ ctx: env(), input: { invoiceId: inv.id } })).toMatchObject({
      storeChange: 'suspended',
      invoice: { status: 'refunded' },
      store: { status: 'suspended', suspendedReason: 'refund' },
    })
    expect(recordChargeback({ ctx: env(), input: { invoiceId: inv.id } })).toMatchObject({
      invoice: { status: 'charged_back' },
      store: { status: 'suspended', suspendedReason: 'chargeback' },
    })
    expect(() => recordChargeback({ ctx: env(), input: { invoiceId: inv.id } })).toThrow(
      expect.objectContaining({ code: 'INVALID_INVOICE_STATE' }),
    )
    expect(() => recordPayment({ ctx: env(), input: { invoiceId: 'nosuchinvoice' } })).toThrow(
      expect.objectContaining({ status: 404 }),
    )
  })
})

describe('admin CLI', () => {
  test('invoice:create/fail/pay/refund/chargeback/list with --json, one object each', () => {
    const s = makeStore(t.deps)
    let [code, out] = admin('invoice:create', s.slug, '--amount', '19.5', '--max-attempts', '2')
    expect(code).toBe(0)
    expect(out).toMatchObject({
      storeId: s.id,
      amount: 19.5,
      currency: 'USD',
      status: 'open',
      attempts: 0,
      maxAttempts: 2,
      nextRetryAt: null,
      paidAt: null,
      store: { id: s.id, status: 'active' },
    })
    const id = out.id as string
    ;[code, out] = admin('invoice:fail', id)
    expect(code).toBe(0)
    expect(out).toMatchObject({ id, attempts: 1, status: 'open' })
    expect(typeof out.nextRetryAt).toBe('string')
    ;[code, out] = admin('invoice:fail', id)
    expect(out).toMatchObject({ attempts: 2, nextRetryAt: null })
    ;[code, out] = admin('invoice:pay', id)
    expect(out).toMatchObject({ id, status: 'paid', store: { status: 'active' } })
    expect(typeof out.paidAt).toBe('string')
    ;[code, out] = admin('invoice:pay', id)
    expect(code).toBe(1)
    expect(out).toMatchObject({ code: 'INVALID_INVOICE_STATE' })
    ;[code, out] = admin('invoice:refund', id)
    expect(out).toMatchObject({
      status: 'refunded',
      store: { status: 'suspended', suspendedReason: 'refund' },
      storeChange: 'suspended',
    })
    ;[code, out] = admin('invoice:chargeback', id)
    expect(out).toMatchObject({ status: 'charged_back', store: { status: 'suspended', suspendedReason: 'chargeback' } })

    ;[code, out] = admin('invoice:create', s.id, '--amount', '1000', '--currency', 'JPY')
    expect(out).toMatchObject({ amount: 1000, currency: 'JPY', maxAttempts: 4 })
    ;[code, out] = admin('invoice:list', '--store', s.slug)
    expect(code).toBe(0)
    expect(out.data).toHaveLength(2)
    expect(out.data.map((i: { currency: string }) => i.currency).sort()).toEqual(['JPY', 'USD'])

    ;[code, out] = admin('invoice:create', s.id, '--amount', '-3')
    expect(code).toBe(1)
    expect(out).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'amount' } })
    ;[code, out] = admin('invoice:create', s.id)
    expect(code).toBe(2)
    expect(out.code).toBe('USAGE')
    ;[code, out] = admin('invoice:fail', 'nosuchinvoice')
    expect(code).toBe(1)
    expect(out.code).toBe('NOT_FOUND')
  })

  test('store:suspend and store:reinstate still work; the API follows on the next request, same key', async () => {
    const { store, key } = makeShop(t.deps)
    let [res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(200)
    let [code, out] = admin('store:suspend', store.slug, '--reason', 'unpaid')
    expect(code).toBe(0)
    expect(out).toMatchObject({ id: store.id, status: 'suspended' })
    ;[res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(402)
    ;[code, out] = admin('store:reinstate', store.slug)
    expect(out).toMatchObject({ status: 'active' })
    ;[res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(200)
  })
})

describe('POST /api/billing/events', () => {
  const sign = (ts: number | string, raw: string, secret = SECRET) =>
    createHmac('sha256', secret).update(`${ts}.${raw}`).digest('hex')
  const nowSec = () => Math.floor(clock.now() / 1000)
  async function send(
    event: unknown,
    opts: { raw?: string; ts?: number | string; sig?: string; headers?: Record<string, string> } = {},
  ) {
    const raw = opts.raw ?? JSON.stringify(event)
    const ts = opts.ts ?? nowSec()
    const headers = opts.headers ?? {
      'x-billing-timestamp': String(ts),
      'x-billing-signature': opts.sig ?? `v1=${sign(ts, raw)}`,
    }
    return t.api.post('/api/billing/events', undefined, {
      raw,
      headers: { 'content-type': 'application/json', ...headers },
    })
  }
  const ev = (type: string, storeId: string, extra: Record<string, unknown> = {}) => ({
    id: uniq('evt'),
    type,
    storeId,
    ...extra,
  })

  test('end to end: refund suspends (402 on key and public endpoints), payment reinstates the same key', async () => {
    const { store, key } = makeShop(t.deps)
    const product = makeProduct(t.deps, store.id)
    const invId = uniq('in')
    let [res, body] = await send(ev('invoice.created', store.id, { invoiceId: invId, amount: 49, currency: 'USD' }))
    expectStatus(res, body).toBe(200)
    expect(body.data.invoice).toMatchObject({ id: invId, amount: 49, status: 'open', store: { status: 'active' } })
    ;[res, body] = await send(ev('invoice.paid', store.id, { invoiceId: invId }))
    expectStatus(res, body).toBe(200)
    expect(body.data.invoice.status).toBe('paid')
    ;[res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(200)

    ;[res, body] = await send(ev('invoice.refunded', store.id, { invoiceId: invId }))
    expectStatus(res, body).toBe(200)
    expect(body.data.invoice).toMatchObject({
      status: 'refunded',
      store: { status: 'suspended', suspendedReason: 'refund' },
      storeChange: 'suspended',
    })

    const payment = {
      error: 'payment_required',
      message: expect.any(String),
      state: 'suspended',
      upgradeUrl: t.config.upgradeUrl,
    }
    ;[res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(402)
    expect(body).toEqual(payment)
    ;[res, body] = await t.api.post('/api/orders', {
      storeId: store.id,
      name: 'Ana',
      phone: '+14155550123',
      items: [{ productId: product.id, quantity: 1 }],
    })
    expectStatus(res, body).toBe(402)
    expect(body).toEqual(payment)
    ;[res, body] = await t.api.post('/api/reviews', {
      storeId: store.id,
      productId: product.id,
      customerName: 'Ana',
      rating: 5,
    })
    expectStatus(res, body).toBe(402)
    expect(body).toEqual(payment)

    // The operator bills again and the customer pays: the same key works on the next request.
    const again = uniq('in')
    ;[res, body] = await send(ev('invoice.created', store.id, { invoiceId: again, amount: 49 }))
    expectStatus(res, body).toBe(200)
    ;[res, body] = await send(ev('invoice.paid', store.id, { invoiceId: again }))
    expectStatus(res, body).toBe(200)
    expect(body.data.invoice).toMatchObject({
      store: { status: 'active', suspendedReason: null },
      storeChange: 'reinstated',
    })
    ;[res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(200)
    ;[res, body] = await t.api.post('/api/orders', {
      storeId: store.id,
      name: 'Ana',
      phone: '+14155550123',
      items: [{ productId: product.id, quantity: 1 }],
    })
    expectStatus(res, body).toBe(201)
  })

  test('payment_failed events count attempts; the sweep suspends; a chargeback suspends at once', async () => {
    const s = makeStore(t.deps)
    const id = uniq('in')
    await send(ev('invoice.created', s.id, { invoiceId: id, amount: 10, maxAttempts: 2 }))
    let [res, body] = await send(ev('invoice.payment_failed', s.id, { invoiceId: id }))
    expectStatus(res, body).toBe(200)
    expect(body.data.invoice).toMatchObject({
      attempts: 1,
      nextRetryAt: new Date(clock.now() + RETRY_DELAYS_MS[0]!).toISOString(),
    })
    ;[res, body] = await send(ev('invoice.payment_failed', s.id, { invoiceId: id }))
    expect(body.data.invoice).toMatchObject({ attempts: 2, nextRetryAt: null })
    expect(runBillingSweep(t.deps)).toContain(s.id)
    ;[res, body] = await send(ev('invoice.paid', s.id, { invoiceId: id }))
    expect(body.data.invoice.store.status).toBe('active')
    ;[res, body] = await send(ev('invoice.charged_back', s.id, { invoiceId: id }))
    expect(body.data.invoice).toMatchObject({
      status: 'charged_back',
      store: { status: 'suspended', suspendedReason: 'chargeback' },
    })
  })

  test('401: missing headers, wrong signature, other secret, altered body, stale or future timestamp', async () => {
    const s = makeStore(t.deps)
    const e = ev('invoice.created', s.id, { amount: 5 })
    const raw = JSON.stringify(e)
    const cases: NonNullable<Parameters<typeof send>[1]>[] = [
      { headers: {} },
      { headers: { 'x-billing-signature': `v1=${sign(nowSec(), raw)}` } },
      { headers: { 'x-billing-timestamp': String(nowSec()) } },
      { sig: `v1=${'0'.repeat(64)}` },
      { sig: sign(nowSec(), raw) }, // no v1= prefix
      { sig: `v1=${sign(nowSec(), raw, 'another-secret-of-enough-length')}` },
      { sig: `v1=${sign(nowSec(), `${raw} `)}` },
      { ts: nowSec() - 301 },
      { ts: nowSec() + 301 },
      { ts: 'abc', sig: `v1=${sign('abc', raw)}` },
    ]
    for (const opts of cases) {
      const [res, body] = await send(e, {
        raw,
        ...opts,
        ...(opts.ts !== undefined && !opts.sig ? { sig: `v1=${sign(opts.ts, raw)}` } : {}),
      })
      expectStatus(res, body).toBe(401)
      expect(body.code).toBe('UNAUTHORIZED')
    }
    expect(t.deps.db.select().from(invoices).where(eq(invoices.storeId, s.id)).all()).toHaveLength(0)
    // Within the tolerance both ways is fine; the exact bytes are what is signed.
    const spaced = `{ "id": "${uniq('evt')}",  "type": "invoice.created", "storeId": "${s.id}", "amount": 5 }`
    const [res, body] = await send(undefined, { raw: spaced, ts: nowSec() - 299 })
    expectStatus(res, body).toBe(200)
  })

  test('several v1 signatures (secret rotation) are accepted when one matches', async () => {
    const s = makeStore(t.deps)
    const raw = JSON.stringify(ev('invoice.created', s.id, { amount: 5 }))
    const ts = nowSec()
    const [res, body] = await send(undefined, {
      raw,
      ts,
      sig: `v1=${sign(ts, raw, 'old-secret-old-secret-old')},v1=${sign(ts, raw)}`,
    })
    expectStatus(res, body).toBe(200)
  })

  test('a replayed event id → 409 EVENT_REPLAYED with no second effect; a failed event is not recorded', async () => {
    const s = makeStore(t.deps)
    const id = uniq('in')
    await send(ev('invoice.created', s.id, { invoiceId: id, amount: 10, maxAttempts: 5 }))
    const failed = ev('invoice.payment_failed', s.id, { invoiceId: id })
    let [res, body] = await send(failed)
    expectStatus(res, body).toBe(200)
    clock.advance(1000)
    ;[res, body] = await send(failed) // same id, freshly signed
    expectStatus(res, body).toBe(409)
    expect(body.code).toBe('EVENT_REPLAYED')
    expect(invoiceRow(id).attempts).toBe(1)

    const unknown = ev('invoice.paid', s.id, { invoiceId: 'nosuchinvoice' })
    ;[res, body] = await send(unknown)
    expectStatus(res, body).toBe(404)
    expect(t.deps.db.select().from(billingEvents).where(eq(billingEvents.id, unknown.id)).get()).toBeUndefined()
    // Another store's invoice is not found either.
    ;[res, body] = await send(ev('invoice.paid', makeStore(t.deps).id, { invoiceId: id }))
    expectStatus(res, body).toBe(404)
    expect(invoiceRow(id).status).toBe('open')
  })

  test('400 for a signed but invalid event', async () => {
    const s = makeStore(t.deps)
    const cases: [string, string][] = [
      ['{not json', 'body'],
      [JSON.stringify({ type: 'invoice.paid', storeId: s.id, invoiceId: 'x' }), 'id'],
      [JSON.stringify({ id: uniq('e'), type: 'invoice.exploded', storeId: s.id }), 'type'],
      [JSON.stringify({ id: uniq('e'), type: 'invoice.paid', storeId: s.id }), 'invoiceId'],
      [JSON.stringify({ id: uniq('e'), type: 'invoice.created', storeId: s.id }), 'amount'],
      [JSON.stringify({ id: uniq('e'), type: 'invoice.created', storeId: s.id, amount: '5' }), 'amount'],
      [
        JSON.stringify({ id: uniq('e'), type: 'invoice.created', storeId: s.id, amount: 5, currency: 'XXQ' }),
        'currency',
      ],
    ]
    for (const [raw, field] of cases) {
      const [res, body] = await send(undefined, { raw })
      expectStatus(res, body).toBe(400)
      expect(body.details.field).toBe(field)
    }
  })

  test('404 when BILLING_WEBHOOK_SECRET is not set', async () => {
    const bare = makeApp({}, { clock })
    try {
      const raw = JSON.stringify({ id: 'e1', type: 'invoice.paid', storeId: 's', invoiceId: 'i' })
      const ts = nowSec()
      const [res, body] = await bare.api.post('/api/billing/events', undefined, {
        raw,
        headers: { 'x-billing-timestamp': String(ts), 'x-billing-signature': `v1=${sign(ts, raw)}` },
      })
      expectStatus(res, body).toBe(404)
      expect(body.code).toBe('NOT_FOUND')
    } finally {
      bare.close()
    }
  })
})
