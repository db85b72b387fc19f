/**
 * Per-store cache of serialized GET responses, and of the store and key rows the auth gate
 * needs. Writes through the API call `invalidate(storeId)` after commit; writes made by another
 * process (the admin CLI) are seen through SQLite's `PRAGMA data_version`, which changes when
 * any other connection commits. It is read at most once per EXTERNAL_WRITE_LAG_MS: each read
 * takes and drops a read lock on the WAL index (two fcntl calls, ~2 µs in a loop and ~3.6 µs a
 * request under load, a tenth of a cached read), so a commit of another process is seen by every
 * request that arrives at least that long after it (docs/decisions/021; 008 says why it is not
 * read from the -shm).
 */
import type { Db } from './client'
import type { ApiKey, Store } from './schema'
import { Fragments } from './fragments'
import { ResponseBodies, type CachedBody } from './response-bodies'

export type { CachedBody } from './response-bodies'

/** What a store lists is kept under at most this many keys (ids and totals: a few KB each). */
const MAX_LISTINGS_PER_STORE = 256

/** How long a commit by another process may go unseen: a process's start and exit alone take longer. */
export const EXTERNAL_WRITE_LAG_MS = 1

export interface StoreCacheOptions {
  /** false (BENCH_NO_RESPONSE_CACHE, benchmarks only) keeps no bodies: every GET is built. */
  responses: boolean
  /** Milliseconds between two reads of `data_version` at most (0: every request). */
  externalLagMs?: number
  /** A monotonic clock in milliseconds (tests step one). */
  now?: () => number
}

/**
 * The key of a key route's whole JSON answer: the request's path and query as sent (keys that
 * start with `/`). The pipeline looks a GET up under it after the gate and, on a hit, answers
 * before routing (plugins/pipeline.ts, docs/decisions/008); so only a route without path
 * parameters whose 200 body depends on nothing but the store and its path and query may cache
 * under it.
 */
export function routeKey(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2))
}

/**
 * What a committed transaction changed in one store, as far as its writers said: `products` /
 * `orders`, the only ones whose views changed (absent: any may have); `stockOnly`, of the
 * catalog (products, categories, shipping options, reviews, store settings) nothing but the
 * named products' stock changed, so what the store lists stays as it was.
 */
export interface Changed {
  products?: Iterable<string>
  orders?: Iterable<string>
  stockOnly?: boolean
}

export class StoreCache {
  /**
   * Serialized answers: at most 256 per store and 32 MiB over all stores (response-bodies.ts).
   * A Blob is best: a Response shares its bytes instead of copying them.
   */
  readonly responses = new ResponseBodies()
  readonly keys = new Map<string, ApiKey | null>()
  readonly stores = new Map<string, Store>()
  /** Each product's serialized view, dropped per product (fragments.ts). */
  readonly fragments = new Fragments()
  /** The same views without their stock counts, as a store that hides them shows them publicly; dropped with them. */
  readonly publicFragments = new Fragments()
  /** Each order's serialized list form, dropped per order (fragments.ts). */
  readonly orderFragments = new Fragments()
  /** What a store lists, per key (`listing`): kept through writes that changed only stock. */
  private listings = new Map<string, Map<string, unknown>>()
  private lastDataVersion: number
  private dataVersion
  private readonly lagMs: number
  private readonly now: () => number
  private lastLook: number

  constructor(
    db: Db,
    private readonly opts: StoreCacheOptions = { responses: true },
  ) {
    this.dataVersion = db.$client.prepare<{ data_version: number }, []>('PRAGMA data_version')
    this.lastDataVersion = this.dataVersion.get()!.data_version
    this.lagMs = opts.externalLagMs ?? EXTERNAL_WRITE_LAG_MS
    this.now = opts.now ?? (() => performance.now())
    this.lastLook = this.now()
  }

  /**
   * Clears everything when another process has committed since the last look. Looks when
   * EXTERNAL_WRITE_LAG_MS have passed since the last one: a commit made before the previous look
   * was seen by it, and one made after is seen by the first request at least the lag later.
   */
  syncExternal(): void {
    if (this.lagMs > 0) {
      const now = this.now()
      if (now - this.lastLook < this.lagMs) return
      this.lastLook = now
    }
    const v = this.dataVersion.get()!.data_version
    if (v !== this.lastDataVersion) {
      this.lastDataVersion = v
      this.clear()
    }
  }

  clear(): void {
    this.responses.clear()
    this.keys.clear()
    this.stores.clear()
    this.fragments.clear()
    this.publicFragments.clear()
    this.orderFragments.clear()
    this.listings.clear()
  }

  /**
   * Called after a committed write that touches the store's data. `products` and `orders` name
   * the only products and orders it changed (their fragments drop); without one, every fragment
   * of that kind of the store drops. The store's listings stay only when the write changed
   * nothing of its catalog but stock (`stockOnly`).
   */
  invalidate(storeId: string, changed: Changed = {}): void {
    this.responses.drop(storeId)
    this.stores.delete(storeId)
    this.fragments.drop(storeId, changed.products)
    this.publicFragments.drop(storeId, changed.products)
    this.orderFragments.drop(storeId, changed.orders)
    if (!changed.stockOnly) this.listings.delete(storeId)
  }

  /**
   * What the store lists under `key` (a page's product ids and total, the public read's ids,
   * categories and shipping options), or `build()`'s, kept until a write changes more of the
   * store's catalog than stock: after a checkout the lists are read from here while the
   * products whose stock it took are rebuilt from their fragments.
   */
  listing<T>(storeId: string, key: string, build: () => T): T {
    let m = this.listings.get(storeId)
    if (!m) this.listings.set(storeId, (m = new Map()))
    if (m.has(key)) return m.get(key) as T
    const value = build()
    if (m.size >= MAX_LISTINGS_PER_STORE) m.delete(m.keys().next().value!)
    m.set(key, value)
    return value
  }

  /** Key rows may change (revocation) through the CLI in-process too (tests, demo). */
  invalidateKeys(): void {
    this.keys.clear()
  }

  getResponse(storeId: string, key: string): CachedBody | undefined {
    return this.responses.get(storeId, key)
  }

  /** The store's cached body under `key`, or `build()`'s, cached until a write to the store drops it. */
  body(storeId: string, key: string, build: () => string): CachedBody {
    let body = this.getResponse(storeId, key)
    if (!body) this.setResponse(storeId, key, (body = new Blob([build()])))
    return body
  }

  setResponse(storeId: string, key: string, body: CachedBody): void {
    if (!this.opts.responses) return
    this.responses.set(storeId, key, body)
  }
}
