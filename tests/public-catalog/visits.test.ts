/**
 * Catalog visits: a public catalog read writes
 * nothing; the counts are written behind in batches and reach stats within seconds; raw rows
 * older than VISIT_RAW_DAYS are pruned while the stats keep their counts.
 */
import { describe, expect, test } from 'bun:test'
import { catalogVisits } from '../../src/db/schema'
import { DAY_MS, manualTicker } from '../../src/lib/time'
import { pruneVisits, VISIT_FLUSH_MS, VISIT_RAW_DAYS } from '../../src/modules/public-catalog/visits'
import { appForFile, expectStatus } from '../helpers/app'
import { makeShop } from '../helpers/factories'

const ticker = manualTicker()
const t = appForFile({ rateLimitStoreReads: 100_000, rateLimitKey: 100_000 }, { ticker })

const rawVisits = (storeId: string) =>
  t.deps.db.$client
    .query<{ n: number }, [string]>('SELECT COALESCE(SUM(count), 0) AS n FROM catalog_visits WHERE store_id = ?')
    .get(storeId)!.n
const changes = () => t.deps.db.$client.query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n

describe('catalog visits', () => {
  test('a read writes nothing; the flush writes the counted visits, and stats see them within seconds', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro' })
    await t.api.get(`/api/v1/stores/${store.slug}`) // warm the cache: the first read may build it
    t.deps.visits.flush()
    const before = changes()
    for (let i = 0; i < 20; i++) expect((await t.api.get(`/api/v1/stores/${store.slug}`))[0].status).toBe(200)
    expect(changes()).toBe(before)
    expect(rawVisits(store.id)).toBe(1)
    expect(t.deps.visits.pendingCount).toBe(20)

    // The timer, set to VISIT_FLUSH_MS, writes them behind without anyone asking (turned by hand
    // here): its first batch is written at once, before the flush yields.
    expect(ticker.intervals).toContain(VISIT_FLUSH_MS)
    ticker.tick()
    expect(rawVisits(store.id)).toBe(21)
    const [res, body] = await t.api.get('/api/v1/stats', { key })
    expectStatus(res, body).toBe(200)
    expect(body.data.visits).toBe(21)
  })

  test('pruning drops old raw rows and keeps the stats: all time exact, an old partial day prorated', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro' })
    const today = Math.floor(Date.now() / DAY_MS)
    const oldDay = today - VISIT_RAW_DAYS - 5
    const insert = (at: number, n: number) => {
      for (let i = 0; i < n; i++) t.deps.db.insert(catalogVisits).values({ storeId: store.id, createdAt: at }).run()
    }
    insert(oldDay * DAY_MS + 3_600_000, 30) // 01:00 on an old day
    insert(oldDay * DAY_MS + 20 * 3_600_000, 10) // 20:00 on the same day
    insert((today - 1) * DAY_MS + 3_600_000, 7) // yesterday: kept raw
    const all = async (qs = '') => (await t.api.get(`/api/v1/stats${qs}`, { key }))[1].data.visits
    expect(await all()).toBe(47)

    const removed = await pruneVisits({ ctx: { db: t.deps.db, clock: { now: () => Date.now() } } })
    expect(removed).toBeGreaterThanOrEqual(40)
    expect(rawVisits(store.id)).toBe(7)
    expect(await all()).toBe(47)
    // Half of the old day (00:00–12:00): its 40 visits prorated, 20; the recent day stays exact.
    const iso = (ms: number) => new Date(ms).toISOString()
    expect(await all(`?from=${iso(oldDay * DAY_MS)}&to=${iso(oldDay * DAY_MS + DAY_MS / 2)}`)).toBe(20)
    expect(await all(`?from=${iso((today - 1) * DAY_MS)}&to=${iso((today - 1) * DAY_MS + 7_200_000)}`)).toBe(7)
    expect(
      await all(`?from=${iso((today - 1) * DAY_MS + 7_200_000)}&to=${iso((today - 1) * DAY_MS + 7_300_000)}`),
    ).toBe(0)
  })

  test('visits in the same second are one row with their count (the flush writes per store and second)', async () => {
    const { store, key } = makeShop(t.deps, { plan: 'pro' })
    const rows = () =>
      t.deps.db.$client
        .query<{ n: number }, [string]>('SELECT count(*) AS n FROM catalog_visits WHERE store_id = ?')
        .get(store.id)!.n
    t.deps.visits.flush()
    const now = Date.now()
    const clock = t.deps.visits as unknown as { clock: { now(): number } }
    const real = clock.clock
    clock.clock = { now: () => now - (now % 1000) + 500 } // every view in one second
    try {
      for (let i = 0; i < 1_000; i++) t.deps.visits.record(store.id)
    } finally {
      clock.clock = real
    }
    t.deps.visits.flush()
    expect(rows()).toBe(1)
    expect(rawVisits(store.id)).toBe(1_000)
    const [res, body] = await t.api.get('/api/v1/stats', { key })
    expectStatus(res, body).toBe(200)
    expect(body.data.visits).toBe(1_000)
    // A pruned counted row keeps its count in the rollup.
    t.deps.db
      .insert(catalogVisits)
      .values({ storeId: store.id, createdAt: (Math.floor(now / DAY_MS) - VISIT_RAW_DAYS - 2) * DAY_MS, count: 250 })
      .run()
    expect((await t.api.get('/api/v1/stats', { key }))[1].data.visits).toBe(1_250)
    await pruneVisits({ ctx: { db: t.deps.db, clock: { now: () => now } } })
    expect(rows()).toBe(1)
    expect((await t.api.get('/api/v1/stats', { key }))[1].data.visits).toBe(1_250)
  })
})
