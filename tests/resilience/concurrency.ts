/**
 * Races over a real HTTPS socket (the in-process server on an ephemeral port, fetch with the
 * generated certificate trusted): identical orders, one key's rate limit, status moves on one
 * order, and a discount at maxUses. Each case returns one line of the resilience table.
 */
import { makeKey, makeStore } from '../helpers/factories'
import { addDiscount, makeCatalog, orderBody, uniqPhone } from '../helpers/factories'
import { startTestServer, type TestServer } from '../helpers/server'
import { startReceiver, type Receiver } from '../helpers/webhook-receiver'
import { createWebhook } from '../../src/modules/webhooks/service'
import { ctxFor } from '../../src/kernel/context'
import { getStore } from '../../src/modules/platform-stores/service'
import { fail, newResult, timed, type CaseResult } from './lib'

export interface ConcurrencySizes {
  /** Identical order posts fired at once. */
  identical: number
  /** Requests on one key at once (the limit is 100 per minute). */
  keyBurst: number
  /** Racers per status transition. */
  statusRacers: number
  discountMaxUses: number
  discountRacers: number
}

export const CI_SIZES: ConcurrencySizes = {
  identical: 50,
  keyBurst: 150,
  statusRacers: 20,
  discountMaxUses: 5,
  discountRacers: 30,
}
export const FULL_SIZES: ConcurrencySizes = {
  identical: 300,
  keyBurst: 400,
  statusRacers: 100,
  discountMaxUses: 25,
  discountRacers: 200,
}

export interface Harness {
  srv: TestServer
  receiver: Receiver
  call(method: string, path: string, body?: unknown, key?: string): Promise<[Response, any]>
  shop(): { storeId: string; key: string; cat: ReturnType<typeof makeCatalog> }
  close(): Promise<void>
}

export async function startHarness(): Promise<Harness> {
  const srv = await startTestServer({ rateLimitOrders: 1_000_000, webhookAllowPrivate: true })
  const receiver = startReceiver()
  const deps = srv.running.deps
  return {
    srv,
    receiver,
    async call(method, path, body, key) {
      const headers: Record<string, string> = {}
      if (key) headers.authorization = `Bearer ${key}`
      if (body !== undefined) headers['content-type'] = 'application/json'
      const res = await srv.fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      let json: any = text
      try {
        json = JSON.parse(text)
      } catch {}
      return [res, json]
    },
    shop() {
      const store = makeStore(deps, { plan: 'pro' })
      return { storeId: store.id, key: makeKey(deps, store.id), cat: makeCatalog(deps, store.id) }
    },
    async close() {
      receiver.stop()
      await srv.stop()
    },
  }
}

const tally = (xs: number[]) => xs.reduce<Record<number, number>>((m, s) => ((m[s] = (m[s] ?? 0) + 1), m), {})
const count5xx = (r: CaseResult, statuses: number[]) => {
  const n = statuses.filter((s) => s >= 500).length
  r.fiveXx += n
  if (n) fail(r, `${n} answers were 5xx`)
}

/** N identical posts at once → exactly one 201, the rest 409 DUPLICATE_ORDER, one row. */
export function identicalOrders(h: Harness, n: number): Promise<CaseResult> {
  const r = newResult(`concurrency: ${n} identical orders`)
  return timed(r, async () => {
    const { storeId, cat } = h.shop()
    const body = orderBody(storeId, cat)
    const results = await Promise.all(Array.from({ length: n }, () => h.call('POST', '/api/orders', body)))
    r.tried = n
    const statuses = results.map(([res]) => res.status)
    count5xx(r, statuses)
    const t = tally(statuses)
    if (t[201] !== 1 || t[409] !== n - 1) fail(r, `statuses ${JSON.stringify(t)}, expected one 201 and ${n - 1} × 409`)
    const bad = results.filter(([res, b]) => res.status === 409 && b.code !== 'DUPLICATE_ORDER').length
    if (bad) fail(r, `${bad} 409s without code DUPLICATE_ORDER`)
    const rows = h.srv.running.deps.db.$client
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM orders WHERE store_id = ?')
      .get(storeId)!.n
    if (rows !== 1) {
      r.duplicates += Math.max(0, rows - 1)
      r.ordersLost += rows === 0 ? 1 : 0
      fail(r, `${rows} orders in the database`)
    }
  })
}

/** N requests on one key at once → exactly `limit` pass, each seeing a distinct Remaining. */
export function keyBurst(h: Harness, n: number): Promise<CaseResult> {
  const r = newResult(`concurrency: ${n} requests on one key`)
  return timed(r, async () => {
    const { key } = h.shop()
    const limit = h.srv.config.rateLimitKey
    const paths = ['/api/v1/products', '/api/v1/categories', '/api/v1/orders', '/api/v1/store']
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => h.call('GET', paths[i % paths.length]!, undefined, key)),
    )
    r.tried = n
    const statuses = results.map(([res]) => res.status)
    count5xx(r, statuses)
    const passed = results.filter(([res]) => res.status !== 429)
    if (passed.length !== Math.min(n, limit))
      fail(r, `${passed.length} not 429, expected ${Math.min(n, limit)} (${JSON.stringify(tally(statuses))})`)
    const remaining = new Set(passed.map(([res]) => res.headers.get('x-ratelimit-remaining')))
    if (remaining.size !== passed.length)
      fail(
        r,
        `X-RateLimit-Remaining repeats among the passed requests (${remaining.size} distinct of ${passed.length})`,
      )
    for (const [res, body] of results.filter(([res]) => res.status === 429)) {
      if (
        res.headers.get('x-ratelimit-remaining') !== '0' ||
        !res.headers.get('retry-after') ||
        body.code !== 'RATE_LIMIT_EXCEEDED'
      ) {
        fail(
          r,
          `a 429 with Remaining ${res.headers.get('x-ratelimit-remaining')}, ` +
            `Retry-After ${res.headers.get('retry-after')}, code ${body.code}`,
        )
        break
      }
    }
  })
}

/**
 * Racers on each transition of one order: exactly one wins each move (the rest 409
 * INVALID_STATUS_TRANSITION), a move out of `delivered` never wins, confirm-vs-cancel races end
 * cancelled; order_counts match the rows and one order.updated event is written per win.
 */
export function statusRaces(h: Harness, racers: number): Promise<CaseResult> {
  const r = newResult(`concurrency: status moves × ${racers}`)
  return timed(r, async () => {
    const shop = h.shop()
    const { storeId, cat } = shop
    let key = shop.key
    const deps = h.srv.running.deps
    const sql = deps.db.$client
    await createWebhook({
      ctx: ctxFor(deps, getStore({ ctx: { db: deps.db }, input: { id: storeId } })!),
      input: { url: h.receiver.url, events: ['order.updated'] },
    })
    const before = h.receiver.received.length
    const place = async () => {
      const [res, body] = await h.call('POST', '/api/orders', orderBody(storeId, cat, { phone: uniqPhone() }))
      if (res.status !== 201) throw new Error(`order: ${res.status} ${JSON.stringify(body)}`)
      return body.id as string
    }
    const race = async (id: string, targets: string[]) => {
      const results = await Promise.all(
        targets.map((status, i) => h.call('PUT', `/api/v1/orders/${id}${i % 2 ? '' : '/status'}`, { status }, key)),
      )
      r.tried += targets.length
      count5xx(
        r,
        results.map(([res]) => res.status),
      )
      for (const [res, body] of results) {
        if (res.status !== 200 && !(res.status === 409 && body.code === 'INVALID_STATUS_TRANSITION'))
          fail(r, `a racer got ${res.status} ${JSON.stringify(body)}`)
      }
      return results
    }
    let wins = 0
    // Fresh keys keep each race under the per-key limit.
    const keys = () => (key = makeKey(deps, storeId))
    const a = await place()
    for (const to of ['confirmed', 'shipped', 'delivered']) {
      keys()
      const res = await race(
        a,
        Array.from({ length: racers }, () => to),
      )
      const won = res.filter(([x]) => x.status === 200).length
      wins += won
      if (won !== 1) fail(r, `${won} racers won ${to}`)
    }
    keys()
    const late = (
      await race(
        a,
        Array.from({ length: racers }, () => 'cancelled'),
      )
    ).filter(([x]) => x.status === 200).length
    if (late) fail(r, `${late} racers cancelled a delivered order`)

    const b = await place()
    keys()
    const mixed = await race(
      b,
      Array.from({ length: racers }, (_, i) => (i % 2 ? 'cancelled' : 'confirmed')),
    )
    const confirmedWins = mixed.filter(([x, body]) => x.status === 200 && body.data.status === 'confirmed').length
    const cancelledWins = mixed.filter(([x, body]) => x.status === 200 && body.data.status === 'cancelled').length
    wins += confirmedWins + cancelledWins
    if (cancelledWins !== 1 || confirmedWins > 1)
      fail(r, `confirm-vs-cancel: ${confirmedWins} confirmed and ${cancelledWins} cancelled wins`)

    const rows = sql
      .query<{ id: string; status: string }, [string]>('SELECT id, status FROM orders WHERE store_id = ?')
      .all(storeId)
    const status = Object.fromEntries(rows.map((o) => [o.id, o.status]))
    if (status[a] !== 'delivered' || status[b] !== 'cancelled') fail(r, `final statuses ${status[a]}, ${status[b]}`)
    const counters = sql
      .query<{ status: string; count: number }, [string]>('SELECT status, count FROM order_counts WHERE store_id = ?')
      .all(storeId)
    for (const c of counters) {
      const actual = rows.filter((o) => o.status === c.status).length
      if (c.count !== actual) fail(r, `order_counts ${c.status} = ${c.count}, rows ${actual}`)
    }
    // Written events: moved into the delivery log, or still in the outbox.
    const events = sql
      .query<{ n: number }, [string]>(
        'SELECT (SELECT count(*) FROM webhook_deliveries WHERE store_id = ?1 ' +
          "AND event_type = 'order.updated') + (SELECT count(*) FROM webhook_outbox WHERE store_id = ?1 " +
          "AND event_type = 'order.updated') AS n",
      )
      .get(storeId)!.n
    if (events !== wins) fail(r, `${events} order.updated events written for ${wins} status changes`)
    try {
      await h.receiver.waitFor(() => h.receiver.received.length - before >= wins, 10_000)
    } catch {
      r.eventsLost += wins - (h.receiver.received.length - before)
      fail(r, `${h.receiver.received.length - before} order.updated deliveries received for ${wins} changes`)
    }
  })
}

/** R orders race for a code with maxUses M → exactly M get it; usedCount never passes M. */
export function discountRace(h: Harness, maxUses: number, racers: number): Promise<CaseResult> {
  const r = newResult(`concurrency: discount maxUses ${maxUses} × ${racers}`)
  return timed(r, async () => {
    const { storeId, cat } = h.shop()
    const d = addDiscount(h.srv.running.deps, storeId, { code: 'RACE', maxUses })
    const results = await Promise.all(
      Array.from({ length: racers }, () =>
        h.call('POST', '/api/orders', orderBody(storeId, cat, { phone: uniqPhone(), discountCode: 'race' })),
      ),
    )
    r.tried = racers
    const statuses = results.map(([res]) => res.status)
    count5xx(r, statuses)
    const t = tally(statuses)
    if (t[201] !== maxUses || t[400] !== racers - maxUses)
      fail(r, `statuses ${JSON.stringify(t)}, expected ${maxUses} × 201`)
    const wrong = results.filter(
      ([res, b]) => res.status === 400 && !(b.details?.field === 'discountCode' && b.details?.reason === 'exhausted'),
    ).length
    if (wrong) fail(r, `${wrong} 400s not discountCode/exhausted`)
    const sql = h.srv.running.deps.db.$client
    const used = sql
      .query<{ used_count: number }, [string]>('SELECT used_count FROM discounts WHERE id = ?')
      .get(d.id)!.used_count
    const withDiscount = sql
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM orders WHERE discount_id = ?')
      .get(d.id)!.n
    if (used !== maxUses) fail(r, `usedCount ${used}, maxUses ${maxUses}`)
    if (withDiscount !== maxUses) fail(r, `${withDiscount} orders carry the discount`)
  })
}

export async function runConcurrency(sizes: ConcurrencySizes): Promise<CaseResult[]> {
  const h = await startHarness()
  try {
    return [
      await identicalOrders(h, sizes.identical),
      await keyBurst(h, sizes.keyBurst),
      await statusRaces(h, sizes.statusRacers),
      await discountRace(h, sizes.discountMaxUses, sizes.discountRacers),
    ]
  } finally {
    await h.close()
  }
}
