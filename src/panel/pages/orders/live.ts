/**
 * The live orders feed: one Server-Sent Events stream per open panel page (its alerts, its inbox or
 * latest orders share it), each for one store, opened only by a person whose role reads orders (the route's access).
 * What it sends is `order_events` (drizzle/0014): a log written by triggers on `orders` in every writer's transaction,
 * so a checkout, an API or MCP move, the CLI and the expiry job all land in it, and its ids are in commit order — a
 * cursor no timestamp gives (two commits in one millisecond, a clock step).
 *
 * When: the composition root's `settled` signal (kernel/write.ts runs it once a write's commit
 * is durable, the checkout's after its fsync, so no event announces an order the 201 could still
 * lose) wakes one read of the log after the feed's cursor — one indexed range read for every
 * store and stream, however many are open. A commit on another connection (the admin CLI's)
 * runs no signal here; a sweep every second while a stream is open catches it.
 *
 * Resume: each event carries its id; a reconnecting EventSource sends `Last-Event-ID` (the page
 * hands a first connection `?after=`, the log's head when it was read), and the stream replays
 * the store's events after it before going live. A stream never sends an id twice.
 *
 * Fan-out: a store's events are read with their rows once, and each variant of the message (the
 * person's language, and which of the orders are new to them — the marker is per person) is
 * serialised and encoded once; every stream of that variant gets the same bytes. Under a burst
 * the log is read at most every MIN_DRAIN_GAP_MS (the first event after a quiet spell goes out
 * at once), each order is sent once per read with its row as it now stands, and at most
 * MAX_ROWS orders per read (live-batch.ts): older arrivals of the burst are counted in a `burst`
 * event instead (the title counts them, the page says to reload). So a stream costs one write
 * per read however many orders a second a store takes (bench/panel-streams.ts).
 */
import type { Db } from '../../../db/client'
import type { Ctx } from '../../../kernel/context'
import {
  inboxRows,
  latestOrderEventId,
  memberSince,
  NEW_FOR_MS,
  openedBy,
  orderEventsSince,
  storeOrderEventsSince,
  type InboxRow,
  type OrderEventRow,
} from '../../../modules/orders'
import { StreamAccess } from './live-access'
import type { Client, Opener } from './live-client'
import { latestPerOrder, type Batch } from './live-batch'
import { roleHas, sessionsStillGranted } from '../../../modules/people'
import { inboxRow } from './views'
import type { Words } from '../../words'

const encoder = new TextEncoder()
const PING = encoder.encode(': ping\n\n')
/** A small number per words object (one per language), for the fan-out's variant keys. */
const wordsIds = new Map<Words, number>()
const wordsId = (w: Words) => wordsIds.get(w) ?? (wordsIds.set(w, wordsIds.size), wordsIds.size - 1)
const SWEEP_MS = 1000
const MIN_DRAIN_GAP_MS = 500
/** Under Bun.serve's idle timeout (10 s): a comment keeps a quiet stream open. */
const HEARTBEAT_MS = 5000
/**
 * A stream ends after this long and the browser reconnects through the gate with its
 * Last-Event-ID (missing nothing). An ended session, a removed member or a lost `orders:read`
 * ends it sooner: within 2 s (live-access.ts).
 */
export const STREAM_MAX_MS = 60_000

export interface FeedDeps {
  db: Db
  settled: { on(fn: (storeId: string) => void): () => void }
  stopping: { on(fn: () => void): () => void }
}

export class OrderFeed {
  private byStore = new Map<string, Set<Client>>()
  /** The ctx of each store with open streams (its latest stream's): the reads of its rows use it. */
  private ctxs = new Map<string, Ctx>()
  private cursor = -1
  private scheduled = false
  private lastDrain = 0
  private sweep: ReturnType<typeof setInterval> | undefined
  private beat: ReturnType<typeof setInterval> | undefined
  private open = 0
  private access: StreamAccess

  constructor(private deps: FeedDeps) {
    this.access = new StreamAccess((held) =>
      sessionsStillGranted({ ctx: { db: deps.db }, input: { grant: 'orders:read', held } }),
    )
    deps.settled.on((storeId) => {
      if (this.byStore.has(storeId)) this.schedule()
    })
    deps.stopping.on(() => this.close())
  }

  get streams(): number {
    return this.open
  }

  /** A stream for `ctx`'s store, resuming after event `after`, held by the session that opened it. */
  stream(ctx: Ctx, w: Words, locale: string, after: number, by: Opener): ReadableStream<Uint8Array> {
    let client: Client | undefined
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        const userId = ctx.actor.kind === 'user' ? ctx.actor.userId : undefined
        const c: Client = {
          storeId: ctx.store.id,
          sessionId: by.sessionId,
          w,
          locale,
          zone: ctx.store.timezone,
          writer: ctx.actor.kind === 'user' && roleHas(ctx.actor.role, 'orders:write'),
          userId,
          joined: userId === undefined ? undefined : memberSince(ctx, userId),
          sent: after,
          until: Date.now() + STREAM_MAX_MS,
          push: (chunk) => {
            try {
              controller.enqueue(chunk)
              return true
            } catch {
              this.drop(c)
              return false
            }
          },
          end: () => {
            this.drop(c)
            try {
              controller.close()
            } catch {
              /* already closed */
            }
          },
        }
        client = c
        c.push(encoder.encode('retry: 1000\n\n'))
        if (this.cursor < 0) this.cursor = latestOrderEventId({ ctx: this.deps })
        // The store's events the stream has not seen, then live.
        if (after < this.cursor)
          this.send(
            ctx,
            [c],
            storeOrderEventsSince({ ctx, input: { after, limit: 500 } }).filter((e) => e.id <= this.cursor),
          )
        c.sent = Math.max(c.sent, this.cursor)
        this.add(c, ctx)
        this.access.add(c)
        by.signal?.addEventListener('abort', () => this.drop(c))
      },
      cancel: () => {
        if (client) this.drop(client)
      },
    })
  }

  private add(c: Client, ctx: Ctx): void {
    const id = c.storeId
    this.ctxs.set(id, ctx)
    let set = this.byStore.get(id)
    if (!set) this.byStore.set(id, (set = new Set()))
    set.add(c)
    this.open++
    // Each second: the log (a commit on another connection) and who may still read it.
    this.sweep ??= setInterval(() => (this.drain(), this.access.recheck()), SWEEP_MS)
    this.beat ??= setInterval(() => this.heartbeat(), HEARTBEAT_MS)
    this.sweep.unref?.()
    this.beat.unref?.()
  }

  private drop(c: Client): void {
    this.access.remove(c)
    const set = this.byStore.get(c.storeId)
    if (!set?.delete(c)) return
    this.open--
    if (set.size === 0) this.byStore.delete(c.storeId), this.ctxs.delete(c.storeId)
    if (this.open === 0) {
      clearInterval(this.sweep)
      clearInterval(this.beat)
      this.sweep = this.beat = undefined
    }
  }

  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    const run = () => {
      this.scheduled = false
      this.lastDrain = Date.now()
      this.drain()
    }
    const wait = this.lastDrain + MIN_DRAIN_GAP_MS - Date.now()
    if (wait > 0) setTimeout(run, wait)
    else setImmediate(run)
  }

  /** Reads the log after the cursor and sends each store's events to its streams. */
  drain(): void {
    if (this.open === 0) return
    for (;;) {
      const events = orderEventsSince({ ctx: this.deps, input: { after: this.cursor, limit: 1000 } })
      if (events.length === 0) return
      this.cursor = events[events.length - 1]!.id
      const perStore = new Map<string, OrderEventRow[]>()
      for (const e of events) {
        if (!this.byStore.has(e.storeId)) continue
        const list = perStore.get(e.storeId)
        if (list) list.push(e)
        else perStore.set(e.storeId, [e])
      }
      for (const [storeId, list] of perStore)
        this.send(this.ctxs.get(storeId)!, [...(this.byStore.get(storeId) ?? [])], list)
      if (events.length < 1000) return
    }
  }

  /**
   * Sends each of `clients` (streams of one store) the `events` it has not sent yet: each order
   * once, with its row as it stands now, in the stream's language, marked new as it is to that
   * person; at most MAX_ROWS orders, the newest, and a count of the other new ones.
   */
  private send(ctx: Ctx, clients: Client[], events: OrderEventRow[]): void {
    if (clients.length === 0 || events.length === 0) return
    // Streams that were sent the same events so far share a batch (nearly always all of them).
    const batches = new Map<number, Batch>()
    const todo: [Client, Batch, number][] = []
    for (const c of clients) {
      const from = events.findIndex((e) => e.id > c.sent)
      if (from < 0) continue
      let batch = batches.get(from)
      if (!batch) batches.set(from, (batch = latestPerOrder(events.slice(from))))
      todo.push([c, batch, from])
    }
    // Only the rows that will be sent are read (a burst's skipped orders are only counted).
    const ids = [...new Set([...batches.values()].flatMap((b) => b.sent.map((x) => x.event.orderId)))]
    const rows = new Map(inboxRows({ ctx, input: { ids } }).map((r) => [r.id, r]))
    const opened = openedBy(ctx, ids)
    const now = ctx.clock.now()
    const variants = new Map<string, Uint8Array>()
    for (const [c, batch, from] of todo) {
      const since = c.joined === undefined ? Number.MAX_SAFE_INTEGER : Math.max(c.joined, now - NEW_FOR_MS)
      const marks = batch.sent.map(({ event }) => {
        const row = rows.get(event.orderId)
        return row && row.createdAt >= since && !opened.get(row.id)?.has(c.userId!) ? '1' : '0'
      })
      const key = `${wordsId(c.w)}|${c.locale}|${c.zone}|${c.writer}|${from}|${marks.join('')}`
      let bytes = variants.get(key)
      if (!bytes) variants.set(key, (bytes = encoder.encode(this.serialise(c, batch, rows, marks))))
      c.sent = batch.last
      if (bytes.length > 0) c.push(bytes)
    }
  }

  private serialise(c: Client, batch: Batch, rows: Map<string, InboxRow>, marks: string[]): string {
    let out =
      batch.skipped > 0
        ? `event: burst\ndata: ${JSON.stringify({
            created: batch.skipped,
            announce: c.w.orders.moreArrived(batch.skipped),
          })}\n\n`
        : ''
    let lastId = 0
    for (const [i, { event: e, created }] of batch.sent.entries()) {
      const found = rows.get(e.orderId)
      if (!found) continue
      const row = { ...found, isNew: marks[i] === '1' }
      const data = {
        id: row.id,
        created,
        status: row.status,
        isNew: row.isNew,
        html: inboxRow(c.w, { locale: c.locale, zone: c.zone, token: c.writer ? '' : undefined }, row).value.replace(
          /\n\s*/g,
          ' ',
        ),
        announce: created
          ? c.w.orders.newOrderArrived(row.orderNumber)
          : `${row.orderNumber}: ${c.w.orders.status[row.status]}`,
      }
      out += `id: ${e.id}\nevent: order\ndata: ${JSON.stringify(data)}\n\n`
      lastId = e.id
    }
    // The resume point is the batch's last event even when its order was not sent (an id-only block sets it).
    if (lastId !== batch.last) out += `id: ${batch.last}\n\n`
    return out
  }

  private heartbeat(): void {
    const now = Date.now()
    for (const set of [...this.byStore.values()]) for (const c of [...set]) c.until <= now ? c.end() : c.push(PING)
  }

  /** Ends every stream (shutdown); a browser's EventSource reconnects to the next process. */
  close(): void {
    for (const set of [...this.byStore.values()]) for (const c of [...set]) c.end()
  }
}
