/**
 * How many uploads may be in flight (streaming to disk, waiting for or in the resize slot):
 * MEDIA_UPLOADS_PER_STORE per store and MEDIA_UPLOADS_TOTAL in all. Past either the upload is
 * refused before a byte of its body is read — 429 with Retry-After — so one store's burst can
 * neither fill the disk and memory nor queue ahead of every other store.
 */
import { RateLimited } from '../../../lib/errors'

/** A resize takes a fraction of a second; a client told to wait a second finds room soon. */
export const UPLOAD_RETRY_AFTER_SEC = 1

export class UploadAdmission {
  private readonly perStore = new Map<string, number>()
  private total = 0

  constructor(
    private readonly storeLimit: number,
    private readonly totalLimit: number,
  ) {}

  /** Takes a place for the store's upload or throws RateLimited; call the returned function once, when done. */
  admit(storeId: string): () => void {
    const mine = this.perStore.get(storeId) ?? 0
    if (mine >= this.storeLimit || this.total >= this.totalLimit) throw new RateLimited(UPLOAD_RETRY_AFTER_SEC)
    this.perStore.set(storeId, mine + 1)
    this.total++
    let released = false
    return () => {
      if (released) return
      released = true
      this.total--
      const left = (this.perStore.get(storeId) ?? 1) - 1
      if (left > 0) this.perStore.set(storeId, left)
      else this.perStore.delete(storeId)
    }
  }

  /**
   * `admit` for an HTTP upload whose body is still unread (the API's route and the panel's): a
   * refusal drops the body and the connection — the client would go on sending megabytes nobody
   * wants, and a graceful stop would wait for them — and says when to retry; then it throws.
   */
  admitRequest(storeId: string, request: Request, headers: Record<string, string | number>): () => void {
    try {
      return this.admit(storeId)
    } catch (err) {
      headers['retry-after'] = String(UPLOAD_RETRY_AFTER_SEC)
      headers.connection = 'close'
      request.body?.cancel().catch(() => {})
      throw err
    }
  }

  /** In flight now, for tests and /health-style reporting. */
  inFlight(storeId?: string): number {
    return storeId === undefined ? this.total : (this.perStore.get(storeId) ?? 0)
  }
}
