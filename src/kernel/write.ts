/**
 * The one way to write: a BEGIN IMMEDIATE transaction (a check-then-write can't interleave with
 * another writer), then the effects it collected, run once it has committed and never when it
 * rolled back:
 * - the cached reads of every store it touched are dropped (StoreCache), and its products' and
 *   orders' cached fragments: only those it named through `fx.productsChanged` /
 *   `fx.ordersChanged` when it named any of that kind for that store, all of the store's
 *   otherwise (so a writer that names none can't leave one stale);
 * - stores that got outbox rows (`fx.emit`) wake the webhook dispatcher;
 * - endpoints with a delivery due now (a replay) are woken.
 *
 * Effects are arguments: `write(ctx, (tx, fx) => …)` hands the writer the transaction and its
 * effects object. Nothing finds an open transaction by looking it up, and there is no `emit`
 * outside a write (it is not on `Ctx`): an event can only be written inside the transaction it
 * belongs to. Services do not call the cache or the dispatcher: they write, name what changed,
 * and this runs the rest.
 *
 * Where the effects go is the connection's sink, registered once by the composition root
 * (deps.ts); the checkout batcher runs the same sink, only later (after its fsync). A connection
 * without one (the admin CLI's, a test's second connection) has none to run: the server sees
 * those commits through `PRAGMA data_version` and its sweep.
 */
import type { Database } from 'bun:sqlite'
import type { Ctx } from './context'
import type { Emit } from './events'
import { immediate, type Db, type Tx } from '../db/client'
import { actorNameOf } from './actor-name'
import { activity } from '../db/schema'
import type { Changed } from '../db/cache'

/** What runs after a commit. */
export interface AfterCommit {
  /** The store's cached reads are stale; of its products and orders, only those given, else all. */
  invalidate(storeId: string, changed?: Changed): void
  /** The store has new outbox rows: start delivering them. */
  wake(storeId: string): void
  /** A delivery of this endpoint is due now. */
  wakeEndpoint(webhookId: string): void
  /** The store's writes of this transaction are durable (the panel's live inbox follows them). */
  settled?(storeId: string): void
}

/** The pieces the after-commit effects reach (deps.ts has them). */
export interface AfterCommitTargets {
  cache: { invalidate(storeId: string, changed?: Changed): void }
  onOutbox(storeId: string): void
  dispatcher: { wake(webhookId: string): void }
  /** Stores whose writes became durable, for whoever listens (deps.ts: `settled`). */
  settled?: { emit(storeId: string): void }
}

/**
 * The process's effects. Each looks its target up on `deps` when it runs, so a test that
 * replaces `deps.onOutbox` sees the wake-ups.
 */
export const afterCommitOf = (deps: AfterCommitTargets): AfterCommit => ({
  invalidate: (storeId, changed) => deps.cache.invalidate(storeId, changed),
  wake: (storeId) => deps.onOutbox(storeId),
  wakeEndpoint: (webhookId) => deps.dispatcher.wake(webhookId),
  settled: (storeId) => deps.settled?.emit(storeId),
})

/** What a writer tells the write about, for the ctx's store: handed to `write`'s callback. */
export interface Fx {
  /** Writes the event's outbox rows in this transaction; delivery starts after its commit. */
  readonly emit: Emit
  /** The store's products this transaction changed are these (none: it changed no product). */
  productsChanged(productIds: readonly string[]): void
  /** The store's existing orders whose API views this transaction changed are these (none: it changed none). */
  ordersChanged(orderIds: readonly string[]): void
  /**
   * Of the store's catalog this writer changed at most the stock of the products it named
   * (a checkout, a status move): which products are listed, in what order, with which
   * categories, shipping options and reviews stays as it was. Undeclared, a write may have
   * changed any of it.
   */
  catalogStockOnly(): void
  /** A delivery of this endpoint is due now: wake it after the commit. */
  due(webhookId: string): void
  /** The writer appended outbox rows itself (a test event to one endpoint): wake the dispatcher after the commit. */
  queued(): void
}

/** The effects one transaction has collected so far. */
export class Effects {
  private stores: string[] = []
  private woken: string[] = []
  private endpoints: string[] = []
  /** [store, product ids] a writer named: that store's only product changes in this transaction. */
  private products: [string, readonly string[]][] = []
  /** [store, order ids] a writer named: that store's only changed orders in this transaction. */
  private orders: [string, readonly string[]][] = []
  /** One per writer (`fxFor`): its store and whether it declared `catalogStockOnly`. */
  private writers: { storeId: string; stockOnly: boolean }[] = []

  constructor(private sink: AfterCommit | undefined) {}

  touched(storeId: string): void {
    this.stores.push(storeId)
  }
  emitted(storeId: string): void {
    this.woken.push(storeId)
  }
  due(webhookId: string): void {
    this.endpoints.push(webhookId)
  }
  /** The store's products this transaction changed are these (none: it changed no product). */
  productsChanged(storeId: string, productIds: readonly string[]): void {
    this.products.push([storeId, productIds])
  }
  /** The store's existing orders this transaction changed are these (none: it changed none). */
  ordersChanged(storeId: string, orderIds: readonly string[]): void {
    this.orders.push([storeId, orderIds])
  }

  /** The effects object a writer acting for `ctx`'s store gets. */
  fxFor(ctx: Pick<Ctx, 'db' | 'clock' | 'store' | 'appendEvent'>): Fx {
    const storeId = ctx.store.id
    const writer = { storeId, stockOnly: false }
    this.writers.push(writer)
    return {
      emit: (type, data) => {
        if (ctx.appendEvent(ctx.db.$client, storeId, type, data, ctx.clock.now()) > 0) this.emitted(storeId)
      },
      productsChanged: (ids) => this.productsChanged(storeId, ids),
      ordersChanged: (ids) => this.ordersChanged(storeId, ids),
      catalogStockOnly: () => void (writer.stockOnly = true),
      due: (webhookId) => this.due(webhookId),
      queued: () => this.emitted(storeId),
    }
  }

  /** A savepoint's start; `rollbackTo` forgets what was collected after it. */
  mark(): Mark {
    return [
      this.stores.length,
      this.woken.length,
      this.endpoints.length,
      this.products.length,
      this.orders.length,
      this.writers.length,
    ]
  }
  rollbackTo([s, w, e, p, o, f]: Mark): void {
    this.writers.length = f
    this.stores.length = s
    this.woken.length = w
    this.endpoints.length = e
    this.products.length = p
    this.orders.length = o
  }

  /**
   * After commit: drop cached reads (of a store's products and orders, only those named when any
   * were). A store's catalog changed only in stock when each of its touches came with a writer
   * that declared so (every touch of `write` and of the checkout has its writer; `transaction`'s
   * have none) and none of its writers left it undeclared.
   */
  committed(): void {
    if (!this.sink) return
    const products = namedPerStore(this.products)
    const orders = namedPerStore(this.orders)
    // Per store: how many writers declared stock only, or -1 once one did not.
    const declared = new Map<string, number>()
    for (const w of this.writers) {
      const n = declared.get(w.storeId) ?? 0
      declared.set(w.storeId, n < 0 || !w.stockOnly ? -1 : n + 1)
    }
    const touches = new Map<string, number>()
    for (const id of this.stores) touches.set(id, (touches.get(id) ?? 0) + 1)
    for (const id of new Set([...this.stores, ...products.keys(), ...orders.keys()])) {
      const n = declared.get(id) ?? 0
      this.sink.invalidate(id, {
        products: products.get(id),
        orders: orders.get(id),
        stockOnly: n > 0 && n >= (touches.get(id) ?? 0),
      })
    }
  }

  /** Once the commit is durable: wake the dispatcher, then tell the stores' listeners. */
  durable(): void {
    if (!this.sink) return
    for (const id of new Set(this.woken)) this.sink.wake(id)
    for (const id of new Set(this.endpoints)) this.sink.wakeEndpoint(id)
    if (this.sink.settled) for (const id of new Set(this.stores)) this.sink.settled(id)
  }
}

type Mark = [number, number, number, number, number, number]

/** The ids named per store (an empty set: the store was named with none). */
function namedPerStore(named: [string, readonly string[]][]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const [storeId, ids] of named) {
    let set = out.get(storeId)
    if (!set) out.set(storeId, (set = new Set()))
    for (const id of ids) set.add(id)
  }
  return out
}

/** Where each connection's after-commit effects go: wiring, registered once per connection. */
const sinks = new WeakMap<Database, AfterCommit>()

/** Registers where a connection's after-commit effects go (deps.ts, once per connection). */
export function afterCommitOn(db: Db, sink: AfterCommit): void {
  sinks.set(db.$client, sink)
}

/** The sink registered for `db`'s connection, if any. */
export const afterCommitSink = (db: Db): AfterCommit | undefined => sinks.get(db.$client)

/**
 * Runs `fn` in one BEGIN IMMEDIATE transaction and returns its result with the effects it
 * collected, not yet run: the caller runs `committed()` and `durable()` (the checkout batch
 * runs `durable()` only once the WAL is on disk). Use `write` or `transaction` unless you need that.
 */
export function transact<T>(db: Db, fn: (tx: Tx, effects: Effects) => T): { result: T; effects: Effects } {
  // bun:sqlite knows whether a transaction is open: a nested BEGIN would fail less clearly.
  if (db.$client.inTransaction) throw new Error('A write transaction is already open on this connection')
  const effects = new Effects(sinks.get(db.$client))
  return { result: immediate(db, (tx) => fn(tx, effects)), effects }
}

/** A write transaction, then its effects; `stores` names the stores it touched (their caches drop). */
export function transaction<T>(db: Db, fn: (tx: Tx) => T, stores: (result: T) => Iterable<string> = () => []): T {
  const { result, effects } = transact(db, (tx) => fn(tx))
  for (const id of stores(result)) effects.touched(id)
  effects.committed()
  effects.durable()
  return result
}

/**
 * A write on behalf of the ctx's store: its transaction with the store's effects object, then
 * the effects. When the ctx carries an activity note (an API key's or a person's write), its
 * line is written in the same transaction, naming the record the write returned when the
 * request named none (a create).
 */
export function write<T>(
  ctx: Pick<Ctx, 'db' | 'clock' | 'store' | 'appendEvent'> & Partial<Pick<Ctx, 'activity'>>,
  fn: (tx: Tx, fx: Fx) => T,
): T {
  const note = ctx.activity
  const { result, effects } = transact(ctx.db, (tx, effects) => {
    effects.touched(ctx.store.id)
    const result = fn(tx, effects.fxFor(ctx))
    if (note) {
      // A create returns its row (or, as products do, its id): either names the new record.
      const made = typeof result === 'string' ? result : (result as { id?: unknown } | null | undefined)?.id
      const recordId = note.recordId ?? (typeof made === 'string' && /^[a-z0-9]{20,32}$/.test(made) ? made : null)
      tx.insert(activity)
        .values({
          storeId: ctx.store.id,
          actor: note.actor,
          actorName: actorNameOf(note.actor),
          verb: note.verb,
          recordType: note.recordType,
          recordId,
          at: ctx.clock.now(),
        })
        .run()
    }
    return result
  })
  effects.committed()
  effects.durable()
  return result
}
