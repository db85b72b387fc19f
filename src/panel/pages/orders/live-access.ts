/**
 * Who may keep an inbox stream open (live.ts). A stream is opened through the gate, but it then
 * lives up to a minute: without this, a session signed out, a person removed from the store or a
 * role that lost `orders:read` kept receiving orders until the stream's own end. Every second
 * while streams are open, one query asks which of their sessions still read orders in their
 * store (people/session-grants.ts), and the others' streams end — within 2 s of the change.
 *
 * A session holds at most MAX_STREAMS_PER_SESSION streams (a tab each, say): opening one more
 * ends that session's oldest, so no session can hold thousands open. The oldest is told so first
 * (`event: superseded`): its page stops listening instead of reconnecting, which would end the
 * next oldest, and so on round the tabs.
 */
export const MAX_STREAMS_PER_SESSION = 6

const SUPERSEDED = new TextEncoder().encode('event: superseded\ndata: {}\n\n')

export interface HeldStream {
  sessionId: string
  storeId: string
  push?(chunk: Uint8Array): boolean
  end(): void
}

export class StreamAccess {
  /** Each session's streams, oldest first. */
  private bySession = new Map<string, HeldStream[]>()

  constructor(private stillGranted: (held: { sessionId: string; storeId: string }[]) => Set<string>) {}

  /** Counts a new stream of its session; the session's oldest ends when it already had the most. */
  add(s: HeldStream): void {
    let list = this.bySession.get(s.sessionId)
    if (!list) this.bySession.set(s.sessionId, (list = []))
    list.push(s)
    while (list.length > MAX_STREAMS_PER_SESSION) {
      const oldest = list.shift()!
      oldest.push?.(SUPERSEDED)
      oldest.end()
    }
  }

  /** A stream that ended (by itself, its client or here). */
  remove(s: HeldStream): void {
    const list = this.bySession.get(s.sessionId)
    if (!list) return
    const at = list.indexOf(s)
    if (at >= 0) list.splice(at, 1)
    if (list.length === 0) this.bySession.delete(s.sessionId)
  }

  /** Ends every stream whose session no longer reads orders in its store. */
  recheck(): void {
    if (this.bySession.size === 0) return
    const held = [...this.bySession.values()].map((list) => list[0]!)
    const granted = this.stillGranted(held)
    for (const [sessionId, list] of [...this.bySession]) if (!granted.has(sessionId)) for (const s of [...list]) s.end()
  }
}
