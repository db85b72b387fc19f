/**
 * One catalog import per store at a time — its dry run or its apply: a second one meanwhile is
 * refused (429 with Retry-After) instead of queueing a second pass over up to 10,000 rows behind
 * the first, or checking a catalog the first is about to change. Other stores are not affected.
 */
import { RateLimited } from '../../../lib/errors'

/** A 10,000-row dry run takes a few seconds on a busy machine: by then the first one is done. */
export const IMPORT_RETRY_AFTER_SEC = 5

export class ImportAdmission {
  private readonly running = new Set<string>()

  /** Takes the store's place or throws RateLimited; call the returned function once, when done. */
  admit(storeId: string): () => void {
    if (this.running.has(storeId)) throw new RateLimited(IMPORT_RETRY_AFTER_SEC)
    this.running.add(storeId)
    let released = false
    return () => {
      if (released) return
      released = true
      this.running.delete(storeId)
    }
  }

  isRunning(storeId: string): boolean {
    return this.running.has(storeId)
  }
}
