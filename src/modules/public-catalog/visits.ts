/**
 * Catalog visits (the conversion rate's denominator) without a write on the read path: a
 * storefront read only bumps a counter in memory; every VISIT_FLUSH_MS the counts are written
 * behind as `catalog_visits` rows, one per store and second with its `count`, in batched
 * transactions (the rollup trigger keeps `visit_stats_daily`), so they reach stats within
 * seconds. A row per visit instead cost ~3 µs each at flush time: at 36k views/s one flush
 * wrote 180k rows and held the event loop for hundreds of ms (bench/storefront.ts p99 137 ms). Before this, each
 * public read committed a row on the event loop (~300 µs, fully synced) and failed outright on a full disk.
 *
 * Raw rows are only needed for the partial days at a stats period's edges (whole days come from
 * the rollup), so rows older than VISIT_RAW_DAYS are pruned; the rollup keeps their counts.
 */
import type { Database } from 'bun:sqlite'
import type { OperatorCtx } from '../../kernel/context'
import type { Logger } from '../../lib/log'
import { DAY_MS, intervalTicker, type Clock, type Ticker } from '../../lib/time'
import { storageFailure, type WriteHealth } from '../../db/write-health'
import { insertVisits, pruneVisitBatch, visitBatchEnd } from './sql'

export const VISIT_FLUSH_MS = 5_000
/** Raw visit rows kept this long; older partial days are prorated from the daily rollup. */
export const VISIT_RAW_DAYS = 35
/** Rows (store-seconds) per write transaction (a slice of a few ms), so a large backlog never blocks the loop. */
const ROWS_PER_TX = 2_000
const PRUNE_BATCH = 5_000

/** One visit per visitor (client IP bucket) per store in this window. */
export const VISIT_DEDUP_MS = 30 * 60_000
/**
 * Visitors remembered at once (~100 bytes each): past it the oldest are forgotten, so memory
 * stays bounded whatever arrives; a forgotten visitor's next load counts again.
 */
const MAX_VISITORS = 100_000

export class VisitCounter {
  /** storeId → visit second (ms, floored) → count. Seconds keep memory bounded under load. */
  private pending = new Map<string, Map<number, number>>()
  /** `visitor|storeId` → when its visit was last counted; oldest first (re-inserted on count). */
  private seen = new Map<string, number>()
  private timer: { stop(): void }
  private flushing = false

  constructor(
    private db: Database,
    private clock: Clock,
    private log: Logger,
    private health?: WriteHealth,
    every: Ticker = intervalTicker,
  ) {
    this.timer = every(() => void this.flushSliced(), VISIT_FLUSH_MS)
  }

  /** One catalog visit of `storeId` by `visitor` (a client IP bucket), now. Memory only. */
  record(storeId: string, visitor?: string): void {
    const at = this.clock.now()
    // Reloads by one visitor count once per VISIT_DEDUP_MS (300 reloads moved conversion from 9 %
    // to 0.03 %). In-process requests have no address ('unknown'): each counts, as before.
    if (visitor !== undefined && visitor !== 'unknown') {
      const id = `${visitor}|${storeId}`
      const last = this.seen.get(id)
      if (last !== undefined && at - last < VISIT_DEDUP_MS) return
      this.seen.delete(id)
      this.seen.set(id, at)
      if (this.seen.size > MAX_VISITORS) this.seen.delete(this.seen.keys().next().value!)
    }
    const second = at - (at % 1000)
    let m = this.pending.get(storeId)
    if (!m) this.pending.set(storeId, (m = new Map()))
    m.set(second, (m.get(second) ?? 0) + 1)
  }

  /** Visits counted and not yet written. */
  get pendingCount(): number {
    let n = 0
    for (const m of this.pending.values()) for (const c of m.values()) n += c
    return n
  }

  /** Takes up to `max` rows (store, second, count) out of the map. */
  private take(max: number): [string, number, number][] {
    const out: [string, number, number][] = []
    for (const [storeId, m] of this.pending) {
      for (const [at, count] of m) {
        out.push([storeId, at, count])
        m.delete(at)
        if (out.length >= max) break
      }
      if (m.size === 0) this.pending.delete(storeId)
      if (out.length >= max) break
    }
    return out
  }

  private putBack(items: [string, number, number][]): void {
    for (const [storeId, at, count] of items) {
      let m = this.pending.get(storeId)
      if (!m) this.pending.set(storeId, (m = new Map()))
      m.set(at, (m.get(at) ?? 0) + count)
    }
  }

  /** Writes one batch; false when nothing was left or the write failed (kept for the next tick). */
  private writeBatch(): boolean {
    const items = this.take(ROWS_PER_TX)
    if (items.length === 0) return false
    try {
      insertVisits(this.db, items)
      return true
    } catch (err) {
      this.putBack(items)
      if (storageFailure(err)) this.health?.fail(err)
      else if ((err as { code?: string }).code !== 'SQLITE_BUSY')
        this.log.error('catalog visits not written', { error: String(err) })
      return false
    }
  }

  /** Writes everything pending, one batch per event-loop turn. */
  async flushSliced(): Promise<void> {
    if (this.flushing) return
    this.flushing = true
    try {
      while (this.writeBatch()) await new Promise<void>((r) => setImmediate(r))
    } finally {
      this.flushing = false
    }
  }

  /** Writes everything now (shutdown, tests). */
  flush(): void {
    while (this.writeBatch());
  }

  close(): void {
    this.timer.stop()
    this.flush()
  }
}

/**
 * Deletes raw visit rows from before the cutoff day (UTC), in batches, keeping the rollup: the
 * delete trigger takes each row off `visit_stats_daily`, so each batch first adds the same
 * counts back, in the same transaction.
 */
export async function pruneVisits({
  ctx,
  input = {},
}: {
  ctx: OperatorCtx
  input?: { keepDays?: number }
}): Promise<number> {
  const db = ctx.db.$client
  const now = ctx.clock.now()
  const keepDays = input.keepDays ?? VISIT_RAW_DAYS
  const cutoff = (Math.floor(now / DAY_MS) - keepDays) * DAY_MS
  let removed = 0
  for (;;) {
    const upTo = visitBatchEnd(db, cutoff, PRUNE_BATCH)
    if (upTo === undefined) return removed
    removed += pruneVisitBatch(db, upTo, cutoff)
    await new Promise<void>((r) => setImmediate(r))
  }
}
