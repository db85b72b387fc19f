/**
 * Serialized views of one kind of record, kept per store and record id, so a list concatenates
 * them instead of rebuilding every record after each write: each product's view (`productView`,
 * variants, images and stock included; docs/decisions/007) and each order's list form
 * (docs/decisions/016). A write drops only what it changed: the after-commit effects
 * (kernel/write.ts) name the products and orders a transaction touched, and a write that names
 * none of a kind drops its store's fragments of that kind; another process's commit drops them
 * all (StoreCache.syncExternal).
 *
 * Bounded: at most MAX_PER_STORE fragments per store (oldest first out) and MAX_TOTAL in all
 * (the least recently read store's go first). A product's fragment is ~0.9 KB with three
 * variants, an order's ~0.4 KB with two lines, so each map stays in the tens of MB.
 */
const MAX_PER_STORE = 5_000
const MAX_TOTAL = 20_000

export class Fragments {
  private byStore = new Map<string, Map<string, string>>()
  private total = 0

  constructor(
    private readonly maxPerStore = MAX_PER_STORE,
    private readonly maxTotal = MAX_TOTAL,
  ) {}

  /** The store's fragments, marked as the most recently read store. */
  of(storeId: string): Map<string, string> {
    let m = this.byStore.get(storeId)
    if (m) this.byStore.delete(storeId)
    else m = new Map()
    this.byStore.set(storeId, m)
    return m
  }

  /**
   * Each id's fragment, in `ids` order: the cached ones as they are, the rest from one call of
   * `build(missing)` (id → JSON; every missing id must be in it), which are kept.
   */
  many(storeId: string, ids: readonly string[], build: (missing: string[]) => Map<string, string>): string[] {
    const cached = this.of(storeId)
    const out: string[] = new Array(ids.length)
    const missing: string[] = []
    ids.forEach((id, i) => {
      const json = cached.get(id)
      if (json === undefined) missing.push(id)
      else out[i] = json
    })
    if (missing.length === 0) return out
    const built = build(missing)
    ids.forEach((id, i) => {
      if (out[i] !== undefined) return
      const json = built.get(id)!
      out[i] = json
      this.set(storeId, id, json)
    })
    return out
  }

  set(storeId: string, productId: string, json: string): void {
    const m = this.of(storeId)
    if (!m.has(productId)) {
      if (m.size >= this.maxPerStore) this.remove(m, m.keys().next().value!)
      this.total++
    }
    m.set(productId, json)
    while (this.total > this.maxTotal) {
      const [oldest, om] = this.byStore.entries().next().value!
      if (om === m) {
        this.remove(m, m.keys().next().value!)
      } else {
        this.total -= om.size
        this.byStore.delete(oldest)
      }
    }
  }

  /** Drops the named products' fragments, or all of the store's when `productIds` is absent. */
  drop(storeId: string, productIds?: Iterable<string>): void {
    const m = this.byStore.get(storeId)
    if (!m) return
    if (!productIds) {
      this.total -= m.size
      this.byStore.delete(storeId)
      return
    }
    for (const id of productIds) this.remove(m, id)
  }

  clear(): void {
    this.byStore.clear()
    this.total = 0
  }

  get size(): number {
    return this.total
  }

  private remove(m: Map<string, string>, id: string): void {
    if (m.delete(id)) this.total--
  }
}
