/**
 * The dashboard's days are the store's: an order placed at 03:00 UTC belongs to the day before
 * on Bogota's clock (UTC−5), visits likewise; a UTC store keeps the rollups' days; a day across a
 * daylight-saving change is 23 hours on Lisbon's clock.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeCatalog, makeStore, orderBody, placeOrder } from '../helpers/factories'
import { DAY_MS, fixedClock } from '../../src/lib/time'
import { storeDays } from '../../src/lib/zone'
import { ctxFor } from '../../src/kernel/context'
import { getStore } from '../../src/modules/platform-stores'
import { dashboardNumbers } from '../../src/modules/stats'
import { catalogVisits, stores } from '../../src/db/schema'
import { eq } from 'drizzle-orm'

// 2026-04-02 10:00 UTC: in Bogota, 05:00 on April 2.
const clock = fixedClock(Date.UTC(2026, 3, 2, 10))
const t = appForFile({ rateLimitOrders: 100_000 }, { clock })

function shopOn(zone: string) {
  const store = makeStore(t.deps)
  t.deps.db.update(stores).set({ timezone: zone }).where(eq(stores.id, store.id)).run()
  return store.id
}
const numbers = (storeId: string) =>
  dashboardNumbers({ ctx: ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!), input: {} })
const dayOf = (iso: string) => Date.parse(iso) / DAY_MS
const figure = (storeId: string, iso: string) => numbers(storeId).series.find((d) => d.day === dayOf(iso))

/** An order placed at `at` (the clock is moved there and back). */
function orderAt(storeId: string, at: number) {
  const now = clock.now()
  clock.set(at)
  placeOrder(t.deps, orderBody(storeId, makeCatalog(t.deps, storeId)))
  t.deps.db.insert(catalogVisits).values({ storeId, createdAt: at, count: 3 }).run()
  clock.set(now)
}

describe("the dashboard's days on the store's clock", () => {
  test('an order at 03:00 UTC on April 1 is March 31 in Bogota, April 1 in a UTC store', () => {
    const bogota = shopOn('America/Bogota')
    const utc = shopOn('UTC')
    for (const id of [bogota, utc]) orderAt(id, Date.UTC(2026, 3, 1, 3))
    expect(figure(bogota, '2026-03-31')).toMatchObject({ orders: 1, visits: 3, revenue: 3400 })
    expect(figure(bogota, '2026-04-01')).toMatchObject({ orders: 0, visits: 0 })
    expect(figure(utc, '2026-04-01')).toMatchObject({ orders: 1, visits: 3, revenue: 3400 })
    expect(figure(utc, '2026-03-31')).toMatchObject({ orders: 0, visits: 0 })
    // The series ends on the store's today: April 2 in both.
    expect(numbers(bogota).series.at(-1)!.day).toBe(dayOf('2026-04-02'))
    expect(numbers(bogota).series).toHaveLength(30)
    // Top products read the same store days.
    expect(numbers(bogota).top.map((p) => p.quantity)).toEqual([2, 1])
  })

  test('"today" is the store\'s today: an order at 04:59 UTC on April 2 is still April 1 in Bogota', () => {
    const bogota = shopOn('America/Bogota')
    orderAt(bogota, Date.UTC(2026, 3, 2, 4, 59))
    const n = numbers(bogota)
    expect(n.periods[0]).toMatchObject({ days: 1, orders: 0 })
    expect(n.periods[1]).toMatchObject({ days: 7, orders: 1 })
  })

  test('storeDays: a day across a daylight-saving change is 23 hours on Lisbon’s clock', () => {
    const days = storeDays(Date.UTC(2026, 2, 30, 12), 'Europe/Lisbon', 3)
    expect(days.map((d) => (d.end - d.start) / 3_600_000)).toEqual([24, 23, 24])
    expect(days[1]!.day).toBe(dayOf('2026-03-29'))
    expect(days[0]!.start).toBe(Date.UTC(2026, 2, 28))
  })
})
