/**
 * A flood of distinct IPv6 clients against a fresh app, measured: run as its own process
 * (`bun tests/helpers/flood.ts [clients]`, prints one JSON line) so that the heap of whatever
 * else runs in the test process does not add its garbage-collection pauses to the figures.
 * Used by tests/http/rate-limit-flood.test.ts (rows and memory, in process) and the resilience
 * report and step (tests/resilience/flood.ts: the loop-block bound).
 */
import { readFileSync } from 'node:fs'
import type { Clock } from '../../src/lib/time'
import { makeApp } from './app'

export interface FloodFigures {
  clients: number
  /** Longest event-loop block (ms of CPU within one gap between 1 ms ticks) while flooding and flushing. */
  floodBlockMs: number
  floodWallMs: number
  sweepBlockMs: number
  sweepWallMs: number
  heapBaseMiB: number
  heapPeakMiB: number
  heapAfterMiB: number
  rowsAtPeak: number
  rowsAfter: number
  clientsAfter: number
  seconds: number
}

/**
 * CPU time of the calling thread (the event loop's), in ms: Linux's per-thread schedstat, in
 * nanoseconds. Elsewhere the whole process's (which also counts the GC's helper threads).
 */
function loopCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6
  } catch {
    const u = process.cpuUsage()
    return (u.user + u.system) / 1000
  }
}

/**
 * The longest the event loop was blocked while `fn` runs: the gap between 1 ms ticks, counted only
 * as far as the loop's thread was on a CPU in it (the machine is shared: a gap spent descheduled
 * is not ours). Returns [result, worst blocked ms, worst wall-clock gap ms].
 */
export async function maxLoopBlock<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  let last = performance.now()
  let lastCpu = loopCpuMs()
  let worst = 0
  let worstWall = 0
  const timer = setInterval(() => {
    const now = performance.now()
    const cpu = loopCpuMs()
    const gap = now - last
    worstWall = Math.max(worstWall, gap)
    worst = Math.max(worst, Math.min(gap, cpu - lastCpu))
    last = now
    lastCpu = cpu
  }, 1)
  try {
    const out = await fn()
    return [out, worst, worstWall]
  } finally {
    clearInterval(timer)
  }
}

const heap = () => {
  Bun.gc(true)
  return process.memoryUsage().heapUsed / 2 ** 20
}

export async function runFlood(N = 100_000): Promise<FloodFigures> {
  // The clock stands still while the clients arrive: on a loaded machine the flood can outlast
  // the rest of a minute, and a window ending mid-flood would drop rows before they are counted.
  let now = Date.now()
  const clock: Clock = { now: () => now }
  const t = makeApp({ trustProxy: true }, { clock })
  const started = performance.now()
  try {
    const rows = () => (t.deps.db.$client.query('SELECT count(*) AS n FROM rate_limits').get() as { n: number }).n
    const hit = (ip: string) =>
      t.app.handle(
        new Request('http://localhost/api/nothing', {
          headers: { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' },
        }),
      )
    const heapBaseMiB = heap()
    const [, floodBlockMs, floodWallMs] = await maxLoopBlock(async () => {
      for (let i = 0; i < N; i += 25) {
        const batch: Promise<Response>[] = []
        for (let j = i; j < Math.min(N, i + 25); j++)
          batch.push(hit(`2001:db8:${(j >> 16).toString(16)}:${(j & 0xffff).toString(16)}::1`))
        await Promise.all(batch)
        // Requests arrive over the network: the loop gets a turn between them.
        await new Promise((r) => setImmediate(r))
      }
      // Let the timer's sliced flush write all of them.
      while (t.deps.limiter.pending > 0) await Bun.sleep(50)
    })
    const rowsAtPeak = rows()
    const heapPeakMiB = heap()
    // The windows (1 minute) end: the next sweep drops them from memory and disk.
    now += 61_000
    const [, sweepBlockMs, sweepWallMs] = await maxLoopBlock(async () => {
      while (t.deps.limiter.size > 0 || t.deps.limiter.pending > 0) await Bun.sleep(50)
    })
    return {
      clients: N,
      floodBlockMs,
      floodWallMs,
      sweepBlockMs,
      sweepWallMs,
      heapBaseMiB,
      heapPeakMiB,
      heapAfterMiB: heap(),
      rowsAtPeak,
      rowsAfter: rows(),
      clientsAfter: t.deps.limiter.size,
      seconds: (performance.now() - started) / 1000,
    }
  } finally {
    t.close()
  }
}

if (import.meta.main) {
  console.log(JSON.stringify(await runFlood(Number(process.argv[2] ?? 100_000))))
}
