/**
 * A full garbage collection whenever the JavaScript engine's memory has grown by `stepBytes`
 * since the last one. JavaScriptCore decides when to collect from its own heap's growth, but
 * much of what a busy server drops lives outside that heap — the bytes of strings (rendered
 * pages, JSON) and of ArrayBuffers (upload chunks, pixels) — and waits there for the next
 * collection: bench/memory.ts found 50–70 MB of it after uploads and after the mixed workload,
 * and RSS fell by as much after one full collection (docs/decisions/030).
 *
 * `used` is the heap with that outside memory (Bun's `heapUsed` counts both); it is read every
 * `everyMs` (microseconds each). The mark moves with what is live: after a collection, or when
 * the engine's own collections bring `used` below it, it is set to `used` again, so live caches
 * filling up never make it collect again and again — each collection needs `stepBytes` of new
 * allocation first.
 */
export interface MemoryWatchOptions {
  stepBytes: number
  everyMs?: number
  used?: () => number
  collect?: () => void
}

export class MemoryWatch {
  private base: number
  private timer: ReturnType<typeof setInterval> | undefined
  /** Collections run so far, and the milliseconds they took (the event loop waits for them). */
  collections = 0
  collectMs = 0

  constructor(private readonly o: Required<MemoryWatchOptions>) {
    this.base = o.used()
  }

  /** One look: collects when `used` has grown by a step since the mark. */
  look(): void {
    const used = this.o.used()
    if (used < this.base) this.base = used
    if (used - this.base < this.o.stepBytes) return
    const t = performance.now()
    this.o.collect()
    this.collectMs += performance.now() - t
    this.collections++
    this.base = this.o.used()
  }

  start(): () => void {
    this.timer = setInterval(() => this.look(), this.o.everyMs)
    this.timer.unref()
    return () => clearInterval(this.timer)
  }
}

export const memoryWatch = (o: MemoryWatchOptions): MemoryWatch =>
  new MemoryWatch({
    everyMs: 250,
    used: () => process.memoryUsage().heapUsed,
    collect: () => Bun.gc(true),
    ...o,
  })

/**
 * Whether this process collects around picture resizes (products/images/process.ts,
 * docs/decisions/031). Off until the service's own process turns it on: tests run many apps in
 * one process whose heap is far larger than a server's, and a full collection per upload there
 * costs seconds and proves nothing.
 */
export const collections = { aroundResizes: false }

/**
 * Starts the watch for the service's process and the collections around resizes
 * (`MEMORY_COLLECT_STEP_MB`; 0 leaves both off).
 */
export function startMemoryWatch(stepMb: number): (() => void) | undefined {
  collections.aroundResizes = stepMb > 0
  return stepMb > 0 ? memoryWatch({ stepBytes: stepMb * 1024 * 1024 }).start() : undefined
}
