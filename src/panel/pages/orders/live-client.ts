import type { Words } from '../../words'
/** What the live orders feed (live.ts) keeps per open stream. */

/** One open stream. */
export interface Client {
  /** The store's id; the store's ctx is kept once per store (`ctxs`), not per stream. */
  storeId: string
  /** The session that opened it: its end, or its losing `orders:read`, ends the stream (live-access.ts). */
  sessionId: string
  w: Words
  locale: string
  /** The store's time zone, and whether the reader may move orders (their rows then carry the moves). */
  zone: string
  writer: boolean
  /** The person reading, and when they joined the store (whose "new" marks the rows carry). */
  userId: string | undefined
  joined: number | undefined
  /** The last event id this stream sent (or was told it has). */
  sent: number
  /** When the stream ends by itself (STREAM_MAX_MS after it opened). */
  until: number
  push(chunk: Uint8Array): boolean
  end(): void
}

/** Who opens a stream: their session (live-access.ts), and the request's abort signal. */
export type Opener = { sessionId: string; signal?: AbortSignal }
