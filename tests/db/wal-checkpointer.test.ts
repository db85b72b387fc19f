/**
 * WAL checkpoints on a worker thread (src/db/checkpointer.ts): the request path's connection
 * no longer checkpoints inside a COMMIT; the worker's PASSIVE checkpoints copy the frames, a
 * checkpoint with the checkout held lets the WAL start over, the StoreCache is not cleared by
 * them, it pauses while Litestream checkpoints, and if the worker fails the connection checkpoints
 * by itself again.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { makeApp, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, uniqPhone } from '../helpers/factories'
import { Checkpointer } from '../../src/db/checkpointer'
import { prepareOrder } from '../../src/modules/orders/checkout/prepare'
import { createLogger } from '../../src/lib/log'

const apps: TestApp[] = []
const checkpointers: Checkpointer[] = []
afterAll(async () => {
  for (const c of checkpointers) await c.close()
  apps.forEach((a) => a.close())
})

const autoCheckpoint = (t: TestApp) =>
  t.deps.db.$client.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint
const walFrames = (t: TestApp) =>
  t.deps.db.$client.query<{ log: number }, []>('PRAGMA wal_checkpoint(PASSIVE)').get()!.log
const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 5))
  }
}

function setup(restartFrames: number) {
  const t = makeApp({ dbSynchronous: 'FULL', rateLimitOrders: 1e6 })
  apps.push(t)
  const { store } = makeShop(t.deps)
  const product = addProduct(t.deps, store.id)
  const order = () =>
    prepareOrder(
      { storeId: store.id, name: 'Ada', phone: uniqPhone(), items: [{ productId: product.id, quantity: 1 }] },
      undefined,
      500,
    )
  const holds: Promise<unknown>[] = []
  const cp = new Checkpointer(
    t.deps.db,
    t.config.dataDir,
    createLogger('silent'),
    (p) => (holds.push(p), t.deps.checkout.holdWhile(p)),
    { intervalMs: 10, restartFrames },
  )
  checkpointers.push(cp)
  return { t, store, order, cp, holds }
}

describe('WAL checkpointer', () => {
  test('takes checkpoints off the connection, copies the frames, and gives them back on close', async () => {
    const { t, order, cp } = setup(1_000_000)
    expect(autoCheckpoint(t)).toBe(0)
    for (let i = 0; i < 20; i++) await t.deps.checkout.submit(order())
    await until(() => cp.stats.frames > 0)
    expect(cp.stats.checkpoints).toBeGreaterThan(0)
    await cp.close()
    expect(autoCheckpoint(t)).toBe(10000)
  })

  test('once restartFrames are in the WAL, commits are held for one checkpoint and the WAL starts over', async () => {
    const { t, order, cp, holds } = setup(50)
    // Keep posting while checkpoints run: without the hold a commit lands during each one.
    for (let round = 0; round < 30 && cp.stats.restarts === 0; round++)
      await Promise.all(Array.from({ length: 20 }, () => t.deps.checkout.submit(order())))
    await until(() => cp.stats.restarts > 0)
    await Promise.all(holds)
    // The hold ended with every frame copied: a following batch restarts the WAL from its start
    // (the first one may meet the worker's next checkpoint still reading, then the one after).
    let frames = Infinity
    for (let i = 0; i < 100 && frames >= 50; i++) {
      await t.deps.checkout.submit(order())
      frames = walFrames(t)
    }
    // One order's frames, not the WAL's whole history.
    expect(frames).toBeLessThan(50)
    expect(cp.stats.maxLog).toBeGreaterThanOrEqual(50)
  })

  test('while held, the checkout queues posts and commits none; released, it commits them together', async () => {
    const { t, store, order } = setup(1_000_000)
    const count = () =>
      t.deps.db.$client
        .query<{ n: number }, [string]>('SELECT count(*) AS n FROM orders WHERE store_id = ?')
        .get(store.id)!.n
    let release!: () => void
    t.deps.checkout.holdWhile(new Promise<void>((r) => (release = r)))
    const posted = Promise.all([t.deps.checkout.submit(order()), t.deps.checkout.submit(order())])
    await new Promise((r) => setTimeout(r, 30))
    expect(count()).toBe(0)
    release()
    expect((await posted).map((r) => r.status)).toEqual([201, 201])
    expect(count()).toBe(2)
  })

  test('a worker checkpoint does not clear the StoreCache (it is not another connection’s commit)', async () => {
    const { t, store, order, cp } = setup(1_000_000)
    await t.deps.checkout.submit(order())
    t.deps.cache.setResponse(store.id, 'k', 'body')
    t.deps.cache.syncExternal()
    const before = cp.stats.checkpoints
    await until(() => cp.stats.checkpoints > before)
    t.deps.cache.syncExternal()
    expect(t.deps.cache.getResponse(store.id, 'k')).toBe('body')
  })

  test(
    'paused (Litestream checkpoints instead), it takes none and the connection none either; resumed, ' +
      'it takes them again',
    async () => {
      const { t, order, cp } = setup(1_000_000)
      await t.deps.checkout.submit(order())
      await until(() => cp.stats.checkpoints > 0)
      cp.pause()
      // A round trip through the worker: every tick queued before the pause has been handled.
      await (cp as unknown as { now(): Promise<void> }).now()
      const before = cp.stats.checkpoints
      for (let i = 0; i < 20; i++) await t.deps.checkout.submit(order())
      await new Promise((r) => setTimeout(r, 100))
      expect(cp.stats.checkpoints).toBe(before)
      expect(autoCheckpoint(t)).toBe(0)
      expect(walFrames(t)).toBeGreaterThan(0)
      cp.resume()
      await until(() => cp.stats.checkpoints > before)
    },
  )

  test('a failing worker gives checkpoints back to the connection', async () => {
    const { t, cp } = setup(1_000_000)
    expect(autoCheckpoint(t)).toBe(0)
    ;(cp as unknown as { fallBack(e: string): void }).fallBack('test')
    expect(autoCheckpoint(t)).toBe(10000)
  })
})
