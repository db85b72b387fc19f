/**
 * Group commit for POST /api/orders: the adapter, in the composition root, that runs the orders
 * module's `placeOrder` verb for many posts in one transaction. Several orders commit in ONE BEGIN IMMEDIATE
 * transaction, each in its own savepoint: an order that fails (400, 404, 409…) rolls back alone, the others commit
 * together with one fsync. Orders run one after another inside, so duplicates, order numbers and discount uses see each
 * other exactly as they would in separate transactions, and N identical posts racing each other create exactly one
 * order.
 */
import type { Ctx, CtxBase } from './kernel/context'
import type { Logger } from './lib/log'
import type { WalSync } from './db/wal-sync'
import { savepoint } from './kernel/savepoint'
import { transact, type Effects } from './kernel/write'
import { placeOrder, withNamesIndexedOnceTx, type CheckoutResult, type PendingOrder } from './modules/orders'

export type Outcome = { ok: true; value: CheckoutResult } | { ok: false; error: unknown }

/**
 * Places `batch` in one transaction. Every outcome is known only after COMMIT, so a 201 is
 * never sent for an order that isn't durable. The effects (cache drops, dispatcher wake-ups)
 * are returned unrun: the caller runs them once the commit is on disk.
 */
export function commitOrders(base: CtxBase, batch: PendingOrder[]): { outcomes: Outcome[]; effects: Effects } {
  const { result: outcomes, effects } = transact(base.db, (_tx, effects) => {
    const stores = new Map<string, Ctx>()
    return withNamesIndexedOnceTx(base.db.$client, () =>
      batch.map(
        (o): Outcome =>
          savepoint(base.db, effects, () => {
            const p = placeOrder({ ctx: base, input: o, tx: { effects, stores } })
            if (!p.result.replayed) effects.touched(p.storeId)
            return p.result
          }),
      ),
    )
  })
  return { outcomes, effects }
}

/**
 * Posts are collected until the event loop turns over (setImmediate) and committed together.
 * The batch commits at synchronous=NORMAL and the WAL is then fsynced off the event loop
 * (db/wal-sync.ts) before any 201 is sent and before the dispatcher is woken, so an accepted
 * order is as durable as with FULL while the next batch is already being placed
 * (docs/decisions/002).
 */
export class OrderBatcher {
  private queue: { order: PendingOrder; resolve: (r: CheckoutResult) => void; reject: (e: unknown) => void }[] = []
  private scheduled = false
  private held = false

  constructor(
    private deps: CtxBase & { log: Logger; dispatcher: { noteCheckout(): void } },
    private walSync: WalSync,
    private maxBatch = 256,
  ) {}

  submit(order: PendingOrder): Promise<CheckoutResult> {
    // Checkout is in use: with a late event loop, webhook sends yield (webhooks/governor.ts).
    this.deps.dispatcher.noteCheckout()
    return new Promise<CheckoutResult>((resolve, reject) => {
      this.queue.push({ order, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  /**
   * No commit until `until` settles; posts keep queueing and commit together after. The WAL
   * checkpointer uses it so the WAL can start over (db/checkpointer.ts).
   */
  holdWhile(until: Promise<unknown>): void {
    this.held = true
    const release = () => {
      this.held = false
      if (this.queue.length > 0 && !this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    }
    until.then(release, release)
  }

  private flush(): void {
    this.scheduled = false
    if (this.held) return
    const jobs = this.queue.splice(0, this.maxBatch)
    if (this.queue.length > 0) {
      this.scheduled = true
      setImmediate(() => this.flush())
    }
    if (jobs.length === 0) return
    const { deps } = this
    let committed: ReturnType<typeof commitOrders>
    try {
      committed = this.walSync.relaxed(() =>
        commitOrders(
          deps,
          jobs.map((j) => j.order),
        ),
      )
    } catch (error) {
      // BEGIN or COMMIT failed: nothing was written for any of them.
      for (const j of jobs) j.reject(error)
      return
    }
    const { outcomes, effects } = committed
    effects.committed()
    this.walSync.sync().then(
      () => {
        effects.durable()
        outcomes.forEach((o, i) => (o.ok ? jobs[i]!.resolve(o.value) : jobs[i]!.reject(o.error)))
      },
      (error) => {
        // Committed but not known to be on disk: no 201. A retry with the same Idempotency-Key
        // gets the stored answer; the outbox rows are still picked up by the sweep.
        deps.log.error('WAL fsync failed after an order batch', { error: String(error) })
        for (const j of jobs) j.reject(error)
      },
    )
  }
}
