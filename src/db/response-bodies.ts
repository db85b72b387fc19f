/**
 * The cached bodies of StoreCache (cache.ts), per store and key, bounded twice: at most
 * MAX_ENTRIES_PER_STORE bodies per store (its oldest out first) and MAX_BYTES over all stores
 * (the least recently filled store's go first, whole). A body over a quarter of MAX_BYTES is not
 * kept. So however many stores one server holds, their cached answers take at most 32 MiB.
 */
export type CachedBody = string | Uint8Array | Blob

export const MAX_ENTRIES_PER_STORE = 256
export const MAX_BYTES = 32 * 1024 * 1024

/** Bytes a body holds (a string counted at two bytes a character: JavaScriptCore may keep it so). */
export const sizeOf = (b: CachedBody): number =>
  typeof b === 'string' ? b.length * 2 : b instanceof Blob ? b.size : b.byteLength

interface StoreBodies {
  entries: Map<string, CachedBody>
  bytes: number
}

export class ResponseBodies {
  private byStore = new Map<string, StoreBodies>()
  private total = 0

  constructor(
    private readonly maxBytes = MAX_BYTES,
    private readonly maxPerStore = MAX_ENTRIES_PER_STORE,
  ) {}

  /** Bytes held over all stores. */
  get bytes(): number {
    return this.total
  }

  get(storeId: string, key: string): CachedBody | undefined {
    return this.byStore.get(storeId)?.entries.get(key)
  }

  set(storeId: string, key: string, body: CachedBody): void {
    const size = sizeOf(body)
    if (size > this.maxBytes / 4) return
    let s = this.byStore.get(storeId)
    if (s) this.byStore.delete(storeId)
    else s = { entries: new Map(), bytes: 0 }
    this.byStore.set(storeId, s) // the most recently filled store is last
    const prev = s.entries.get(key)
    if (prev !== undefined) this.take(s, key, prev)
    if (s.entries.size >= this.maxPerStore) {
      const [k, v] = s.entries.entries().next().value!
      this.take(s, k, v)
    }
    s.entries.set(key, body)
    s.bytes += size
    this.total += size
    for (const [id, other] of this.byStore) {
      if (this.total <= this.maxBytes) break
      if (other === s) break // only this store's bodies are left: it is under the bound by itself
      this.drop(id)
    }
  }

  /** Every body of the store. */
  drop(storeId: string): void {
    const s = this.byStore.get(storeId)
    if (!s) return
    this.total -= s.bytes
    this.byStore.delete(storeId)
  }

  clear(): void {
    this.byStore.clear()
    this.total = 0
  }

  private take(s: StoreBodies, key: string, body: CachedBody): void {
    const size = sizeOf(body)
    s.entries.delete(key)
    s.bytes -= size
    this.total -= size
  }
}
