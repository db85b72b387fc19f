/**
 * Group commit with an off-loop WAL fsync (src/db/wal-sync.ts): a checkout batch commits at
 * synchronous=NORMAL and no 201 is sent, nor the dispatcher woken, before the WAL is fsynced.
 */
import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { makeApp, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, uniqPhone } from '../helpers/factories'
import { OrderBatcher } from '../../src/checkout-batcher'
import { prepareOrder } from '../../src/modules/orders/checkout/prepare'
import { WalSync } from '../../src/db/wal-sync'

const apps: TestApp[] = []
afterAll(() => apps.forEach((a) => a.close()))

function setup() {
  const t = makeApp({ dbSynchronous: 'FULL' })
  apps.push(t)
  const { store } = makeShop(t.deps)
  const product = addProduct(t.deps, store.id)
  const order = () =>
    prepareOrder(
      { storeId: store.id, name: 'Ada', phone: uniqPhone(), items: [{ productId: product.id, quantity: 1 }] },
      undefined,
      500,
    )
  return { t, store, order }
}

/** A WalSync whose fsync completes only when the test says so. */
class GatedWalSync extends WalSync {
  release!: () => void
  syncs = 0
  override async sync(): Promise<void> {
    this.syncs++
    await new Promise<void>((r) => (this.release = r))
  }
}

describe('checkout batches and the WAL fsync', () => {
  test('the 201 and the webhook wake-up wait for the fsync; the order is committed before it', async () => {
    const { t, store, order } = setup()
    const gated = new GatedWalSync(t.deps.db, path.join(t.config.dataDir, 'storefront.db-wal'), 'FULL')
    const woken: string[] = []
    const deps = { ...t.deps, onOutbox: (id: string) => woken.push(id) }
    const batcher = new OrderBatcher(deps, gated)
    let answered = false
    const pending = Promise.all([batcher.submit(order()), batcher.submit(order())]).then((r) => ((answered = true), r))
    while (gated.syncs === 0) await new Promise((r) => setTimeout(r, 1))
    // Committed (visible in the database) but not yet answered.
    expect(
      t.deps.db.$client
        .query<{ n: number }, [string]>('SELECT count(*) AS n FROM orders WHERE store_id = ?')
        .get(store.id)!.n,
    ).toBe(2)
    await new Promise((r) => setTimeout(r, 20))
    expect(answered).toBe(false)
    expect(woken).toEqual([])
    expect(gated.syncs).toBe(1) // one fsync for the whole batch
    gated.release()
    const results = await pending
    expect(results.map((r) => r.status)).toEqual([201, 201])
  })

  test('the batch commits at NORMAL and the configured level is restored after', async () => {
    const { t, order } = setup()
    const levels: number[] = []
    const wal = new WalSync(t.deps.db, path.join(t.config.dataDir, 'storefront.db-wal'), 'FULL')
    const level = () => t.deps.db.$client.query<{ synchronous: number }, []>('PRAGMA synchronous').get()!.synchronous
    expect(level()).toBe(2) // FULL
    const result = wal.relaxed(() => (levels.push(level()), 'done'))
    expect(result).toBe('done')
    expect(levels).toEqual([1]) // NORMAL inside
    expect(level()).toBe(2)
    const batcher = new OrderBatcher(t.deps, wal)
    expect((await batcher.submit(order())).status).toBe(201)
    expect(existsSync(path.join(t.config.dataDir, 'storefront.db-wal'))).toBe(true)
    await wal.close()
  })

  test('a failed fsync answers no 201 (the client retries with its Idempotency-Key)', async () => {
    const { t, order } = setup()
    const failing = new (class extends WalSync {
      override async sync(): Promise<void> {
        throw new Error('EIO')
      }
    })(t.deps.db, 'unused', 'FULL')
    const batcher = new OrderBatcher(t.deps, failing)
    await expect(batcher.submit(order())).rejects.toThrow('EIO')
  })

  test('at NORMAL there is no fsync to wait for', async () => {
    const t = makeApp({ dbSynchronous: 'NORMAL' })
    apps.push(t)
    expect(t.deps.walSync.active).toBe(false)
    await t.deps.walSync.sync() // resolves at once, opens nothing
  })
})
