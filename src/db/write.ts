/**
 * The one way to write: a BEGIN IMMEDIATE transaction (a check-then-write can't interleave with
 * another writer), then the effects it collected, run once it has committed and never when it
 * rolled back:
 * - the cached reads of every store it touched are dropped (StoreCache), and its products'
 *   cached fragments: only those it named through `productsChanged` when it named any for that
 *   store, all of the store's otherwise (so a writer that names none can't leave one stale);
 * - stores that got outbox rows (`ctx.emit`) wake the webhook dispatcher;
 * - endpoints with a delivery due now (a replay) are woken.
 * Services do not call the cache or the dispatcher: they write, emit, and this runs the rest.
 *
 * The effects go to the sink registered for the connection (deps.ts); a connection without one
 * (the admin CLI's, a test's second connection) has none to run: the server sees those commits
 * through `PRAGMA data_version` and its sweep.
 */
import type { Database } from 'bun:sqlite'
import type { Ctx, Deps } from '../context'
import { immediate, type Db, type Tx } from './client'
import { activity } from './schema'

/** What runs after a commit. */
export interface AfterCommit {
  /** The store's cached reads are stale; of its products, only `products` when given, else all. */
  invalidate(storeId: string, products?: Iterable<string>): void
  /** The store has new outbox rows: start delivering them. */
  wake(storeId: string): void
  /** A delivery of this endpoint is due now. */
  wakeEndpoint(webhookId: string): void
}

/**
 * The process's effects. Each looks its target up on `deps` when it runs, so a test that
 * replaces `deps.onOutbox` sees the wake-ups.
 */
export const afterCommitOf = (deps: Pick<Deps, 'cache' | 'onOutbox' | 'dispatcher'>): AfterCommit => ({
  invalidate: (storeId, products) => deps.cache.invalidate(storeId, products),
  wake: (storeId) => deps.onOutbox(storeId),
  wakeEndpoint: (webhookId) => deps.dispatcher.wake(webhookId),
})

/** The effects one transaction has collected so far. */
export class Effects {
  private stores: string[] = []
  private woken: string[] = []
  private endpoints: string[] = []
  /** [store, product ids] a writer named: that store's only product changes in this transaction. */
  private products: [string, readonly string[]][] = []

  constructor(
    private sink: AfterCommit | undefined,
    /** Outside a transaction: each effect applies at once (its statement has committed). */
    private autocommit = false,
  ) {}

  touched(storeId: string): void {
    this.stores.push(storeId)
    this.flushIfAutocommit()
  }
  emitted(storeId: string): void {
    this.woken.push(storeId)
    this.flushIfAutocommit()
  }
  due(webhookId: string): void {
    this.endpoints.push(webhookId)
    this.flushIfAutocommit()
  }
  /** The store's products this transaction changed are these (none: it changed no product). */
  productsChanged(storeId: string, productIds: readonly string[]): void {
    this.products.push([storeId, productIds])
    this.flushIfAutocommit()
  }

  private flushIfAutocommit(): void {
    if (!this.autocommit) return
    this.committed()
    this.durable()
    this.rollbackTo([0, 0, 0, 0])
  }

  /** A savepoint's start; `rollbackTo` forgets what was collected after it. */
  mark(): Mark {
    return [this.stores.length, this.woken.length, this.endpoints.length, this.products.length]
  }
  rollbackTo([s, w, e, p]: Mark): void {
    this.stores.length = s
    this.woken.length = w
    this.endpoints.length = e
    this.products.length = p
  }

  /** After commit: drop cached reads (of a store's products, only those named when any were). */
  committed(): void {
    if (!this.sink) return
    const named = new Map<string, Set<string>>()
    for (const [storeId, ids] of this.products) {
      let set = named.get(storeId)
      if (!set) named.set(storeId, (set = new Set()))
      for (const id of ids) set.add(id)
    }
    for (const id of new Set(this.stores)) if (!named.has(id)) this.sink.invalidate(id)
    for (const [id, products] of named) this.sink.invalidate(id, products)
  }

  /** Once the commit is durable: wake the dispatcher. */
  durable(): void {
    if (!this.sink) return
    for (const id of new Set(this.woken)) this.sink.wake(id)
    for (const id of new Set(this.endpoints)) this.sink.wakeEndpoint(id)
  }
}

type Mark = [number, number, number, number]

const sinks = new WeakMap<Database, AfterCommit>()
/** The effects of the write transaction open on a connection (one at a time: they are synchronous). */
const open = new WeakMap<Database, Effects>()

/** Registers where a connection's after-commit effects go (deps.ts, once per connection). */
export function afterCommitOn(db: Db, sink: AfterCommit): void {
  sinks.set(db.$client, sink)
}

/**
 * The effects of the transaction open on `db`'s connection. Outside a transaction (an
 * autocommit statement) the effects apply at once, as that statement has already committed.
 */
export function effectsOf(db: Db): Effects {
  return open.get(db.$client) ?? new Effects(sinks.get(db.$client), true)
}

/**
 * A writer of products, variants, images or stock names the products it changed, on the
 * connection it wrote with (raw statements pass `db.$client`). Without this call a write drops
 * all of its store's cached product fragments.
 */
export function productsChanged(client: Database, storeId: string, productIds: readonly string[]): void {
  ;(open.get(client) ?? new Effects(sinks.get(client), true)).productsChanged(storeId, productIds)
}

/**
 * Runs `fn` in one BEGIN IMMEDIATE transaction and returns its result with the effects it
 * collected, not yet run: the caller runs `committed()` and `durable()` (the checkout batch
 * runs `durable()` only once the WAL is on disk). Use `transaction` unless you need that.
 * `sink` replaces the connection's own (a caller with its own wiring, e.g. the checkout batcher).
 */
export function transact<T>(db: Db, fn: (tx: Tx, effects: Effects) => T, sink = sinks.get(db.$client)): { result: T; effects: Effects } {
  const client = db.$client
  if (open.has(client)) throw new Error('A write transaction is already open on this connection')
  const effects = new Effects(sink)
  open.set(client, effects)
  try {
    return { result: immediate(db, (tx) => fn(tx, effects)), effects }
  } finally {
    open.delete(client)
  }
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
 * A write on behalf of the ctx's store: its transaction, then its store's effects. When the ctx
 * carries an activity note (an API key's or a person's write), its line is written in the same
 * transaction, naming the record the write returned when the request named none (a create).
 */
export function write<T>(ctx: Pick<Ctx, 'db' | 'store'> & Partial<Pick<Ctx, 'clock' | 'activity'>>, fn: (tx: Tx) => T): T {
  const note = ctx.activity
  if (!note) return transaction(ctx.db, fn, () => [ctx.store.id])
  return transaction(
    ctx.db,
    (tx) => {
      const result = fn(tx)
      // A create returns its row (or, as products do, its id): either names the new record.
      const made = typeof result === 'string' ? result : (result as { id?: unknown } | null | undefined)?.id
      const recordId = note.recordId ?? (typeof made === 'string' && /^[a-z0-9]{20,32}$/.test(made) ? made : null)
      tx.insert(activity).values({ storeId: ctx.store.id, actor: note.actor, verb: note.verb, recordType: note.recordType, recordId, at: ctx.clock?.now() ?? Date.now() }).run()
      return result
    },
    () => [ctx.store.id],
  )
}

/**
 * Inside a transaction: `fn` in a savepoint. When it throws, only its own writes and effects
 * roll back; the error is returned, not thrown.
 */
export function savepoint<T>(db: Db, effects: Effects, fn: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  const s = savepointStatements(db.$client)
  const mark = effects.mark()
  s.begin.run()
  try {
    const value = fn()
    s.release.run()
    return { ok: true, value }
  } catch (error) {
    s.rollback.run()
    s.release.run()
    effects.rollbackTo(mark)
    return { ok: false, error }
  }
}

type SavepointStatements = Record<'begin' | 'release' | 'rollback', ReturnType<Database['prepare']>>
/** Prepared once per connection: the checkout runs a savepoint per order. */
const savepoints = new WeakMap<Database, SavepointStatements>()
function savepointStatements(client: Database): SavepointStatements {
  let s = savepoints.get(client)
  if (!s) {
    s = { begin: client.prepare('SAVEPOINT unit'), release: client.prepare('RELEASE unit'), rollback: client.prepare('ROLLBACK TO unit') }
    savepoints.set(client, s)
  }
  return s
}
