/**
 * WAL checkpoints off the event loop (docs/decisions/006). SQLite's automatic checkpoint runs
 * inside the COMMIT that crosses the threshold, on the request path's connection: the checkout
 * wrote ~12 WAL frames per order, so at ~3,000 orders/s a checkpoint came every fraction of a
 * second and held the event loop 40–200 ms (copying pages and syncing the database file) with
 * 50 posts waiting — the checkout's p99. Here a worker thread with its own connection runs a
 * PASSIVE checkpoint every `intervalMs` and the server's connection checkpoints no more by
 * itself. If the worker fails, the connection's automatic checkpoint comes back on.
 *
 * A PASSIVE checkpoint copies the frames committed when it starts; the WAL file starts over
 * only when a transaction begins with every frame copied. Under steady checkout a commit
 * always lands while a checkpoint runs, so the WAL would grow without end (790 MB in a 20 s
 * run). So once a checkpoint finds `restartFrames` in the WAL, one more runs at once, then the
 * checkout holds its next commit (`hold`) while a last one copies the few frames that one
 * missed; the next batch then restarts the WAL. Reads and validation go on; only commits wait.
 *
 * Only the serving process starts one (server.ts): tests, the CLI and benches that open the
 * database keep SQLite's automatic checkpoint (db/client.ts).
 *
 * With replication on, Litestream checkpoints instead while it runs (`pause`, replica/supervisor.ts):
 * its read transaction keeps the WAL from starting over before it has copied every frame, so our
 * hold-and-restart could only hold the checkout for nothing, and two checkpointers make each
 * other's checkpoints fail on SQLite's checkpoint lock. The connection's automatic checkpoint stays
 * off meanwhile; `resume` when Litestream is down, so the WAL does not grow until it is back.
 */
import path from 'node:path'
import type { Db } from './client'
import type { Logger } from '../lib/log'

/** What db/client.ts sets; restored when the worker is gone. */
const AUTO_CHECKPOINT_PAGES = 10000

export interface CheckpointStats {
  checkpoints: number
  /** Frames copied in total, and the most a single checkpoint found in the WAL. */
  frames: number
  maxLog: number
  maxMs: number
  /** Checkpoints run with commits held (each lets the WAL start over), and the longest hold. */
  restarts: number
  maxHoldMs: number
}

export class Checkpointer {
  private worker: Worker
  private stopped: Promise<void> | undefined
  private restarting = false
  private waiting: (() => void)[] = []
  readonly stats: CheckpointStats = { checkpoints: 0, frames: 0, maxLog: 0, maxMs: 0, restarts: 0, maxHoldMs: 0 }

  constructor(
    private db: Db,
    dataDir: string,
    private log: Logger,
    /** Holds the checkout's commits until the promise settles (src/checkout-batcher.ts). */
    private hold: (until: Promise<unknown>) => void,
    opts: { intervalMs?: number; restartFrames?: number } = {},
  ) {
    const intervalMs = opts.intervalMs ?? 100
    const restartFrames = opts.restartFrames ?? 20_000
    db.$client.exec('PRAGMA wal_autocheckpoint = 0')
    this.worker = new Worker(new URL('./checkpoint-worker.ts', import.meta.url).href)
    this.worker.onmessage = (
      e: MessageEvent<{ type: string; ms?: number; log?: number; checkpointed?: number; error?: string }>,
    ) => {
      const m = e.data
      if (m.type === 'checkpoint' || m.type === 'done') {
        this.stats.checkpoints++
        this.stats.frames += m.checkpointed!
        this.stats.maxLog = Math.max(this.stats.maxLog, m.log!)
        this.stats.maxMs = Math.max(this.stats.maxMs, m.ms!)
        if (m.type === 'done') this.waiting.shift()?.()
        else if (m.log! >= restartFrames && !this.restarting) this.restart()
      } else if (m.type === 'error') this.fallBack(m.error!)
    }
    this.worker.onerror = (e) => this.fallBack(e.message)
    this.worker.postMessage({ type: 'start', file: path.join(dataDir, 'storefront.db'), intervalMs })
  }

  /**
   * One checkpoint right away (not held: it copies what the last one missed), then one with
   * the checkout's commits held, which has only the frames of that short one left to copy:
   * the hold lasts a small copy and the database file's fsync, and the next batch restarts the WAL.
   */
  private restart(): void {
    this.restarting = true
    this.stats.restarts++
    void this.now().then(() => {
      const t0 = performance.now()
      const held = this.now()
      this.hold(held)
      void held.then(() => {
        this.stats.maxHoldMs = Math.max(this.stats.maxHoldMs, performance.now() - t0)
        this.restarting = false
      })
    })
  }

  /** Stops the periodic checkpoints (another process checkpoints: Litestream). */
  pause(): void {
    this.worker.postMessage({ type: 'pause' })
  }

  resume(): void {
    this.worker.postMessage({ type: 'resume' })
  }

  /** A checkpoint now, on the worker; resolves when it is done. */
  private now(): Promise<void> {
    const done = new Promise<void>((resolve) => this.waiting.push(resolve))
    this.worker.postMessage({ type: 'now' })
    return done
  }

  private fallBack(error: string): void {
    this.waiting.splice(0).forEach((r) => r())
    this.log.warn('WAL checkpointer failed; the connection checkpoints by itself again', { error })
    this.db.$client.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
  }

  /** Stops the worker (its connection closed) and gives checkpoints back to the connection. */
  close(): Promise<void> {
    this.stopped ??= new Promise<void>((resolve) => {
      const done = () => {
        this.worker.terminate()
        try {
          this.db.$client.exec(`PRAGMA wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
        } catch {
          /* the connection is already closed */
        }
        resolve()
      }
      const timer = setTimeout(done, 2000)
      this.worker.addEventListener('message', (e: MessageEvent<{ type: string }>) => {
        if (e.data.type === 'stopped') {
          clearTimeout(timer)
          done()
        }
      })
      this.worker.postMessage({ type: 'stop' })
    })
    return this.stopped
  }
}
