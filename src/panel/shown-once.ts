/**
 * A secret to show once after a POST/redirect/GET: the POST puts it here and redirects to a page
 * that takes it, so reloading that page (or coming back to it) shows it no more and creates
 * nothing. Held in memory only, for the session that made it, for 10 minutes at most; a restart
 * forgets it (the person revokes the key and makes another).
 */
import { randomBytes } from 'node:crypto'

const TTL_MS = 10 * 60_000
/** Bounded: a burst of creations cannot grow it without end (the oldest go first). */
const MAX_HELD = 1000

export class ShownOnce {
  private held = new Map<string, { sessionId: string; secret: string; until: number }>()

  constructor(private now: () => number) {}

  /** Holds `secret` for `sessionId`; returns the id the page's address carries. */
  put(sessionId: string, secret: string): string {
    const now = this.now()
    for (const [id, h] of this.held) if (h.until <= now || this.held.size >= MAX_HELD) this.held.delete(id)
    const id = randomBytes(16).toString('base64url')
    this.held.set(id, { sessionId, secret, until: now + TTL_MS })
    return id
  }

  /** The secret, once, for the session that made it; undefined after that, after 10 minutes, or for anyone else. */
  take(sessionId: string, id: string | undefined): string | undefined {
    if (!id) return undefined
    const h = this.held.get(id)
    if (!h || h.sessionId !== sessionId) return undefined
    this.held.delete(id)
    return h.until > this.now() ? h.secret : undefined
  }
}
