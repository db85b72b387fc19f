/**
 * A flood of distinct IPv6 clients: each /64 its own
 * bucket, 100,000 of them. Checks: the event loop is never blocked > 20 ms (flushing and sweeping
 * run in slices), and once the windows end the limiter holds no client, the rate_limits table no
 * row, and the heap is back near where it started. Runs in its own process (tests/helpers/flood.ts)
 * so the caller's heap adds no GC pauses to the figures.
 */
import path from 'node:path'
import type { FloodFigures } from '../helpers/flood'
import { fail, newResult, timed, type CaseResult } from './lib'

export const MAX_BLOCK_MS = 20

/** One flood in a child process: its figures, or what went wrong. */
async function floodOnce(clients: number): Promise<FloodFigures | string> {
  const proc = Bun.spawn(['bun', path.join(import.meta.dir, '../helpers/flood.ts'), String(clients)], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  // Our own child, by pid: never left running if it hangs.
  const guard = setTimeout(() => proc.kill(), 100_000)
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]).finally(() => clearTimeout(guard))
  if (code !== 0) return `flood process exited ${code}: ${err.slice(-2000)}`
  return JSON.parse(out.trim().split('\n').at(-1)!) as FloodFigures
}

export async function runIpv6Flood(opts: { clients?: number } = {}): Promise<CaseResult> {
  const r = newResult('IPv6 flood (/64 buckets)')
  const clients = opts.clients ?? 100_000
  await timed(r, async () => {
    let f = await floodOnce(clients)
    if (typeof f === 'string') return fail(r, f)
    // A timing figure on a shared machine: one more run before calling a block a failure (the
    // first figure stays in the notes). Every check below applies to the run that is kept.
    if (Math.max(f.floodBlockMs, f.sweepBlockMs) >= MAX_BLOCK_MS) {
      const again = await floodOnce(clients)
      if (typeof again === 'string') return fail(r, again)
      r.notes.push(`first run blocked ${Math.max(f.floodBlockMs, f.sweepBlockMs).toFixed(1)} ms; ran again`)
      f = again
    }
    r.tried = f.clients
    if (f.rowsAtPeak < f.clients) fail(r, `${f.rowsAtPeak} rows written for ${f.clients} clients`)
    if (f.floodBlockMs >= MAX_BLOCK_MS)
      fail(r, `event loop blocked ${f.floodBlockMs.toFixed(1)} ms while flooding/flushing`)
    if (f.sweepBlockMs >= MAX_BLOCK_MS)
      fail(r, `event loop blocked ${f.sweepBlockMs.toFixed(1)} ms while sweeping ended windows`)
    if (f.rowsAfter !== 0 || f.clientsAfter !== 0)
      fail(r, `after the windows ended: ${f.clientsAfter} clients in memory, ${f.rowsAfter} rows`)
    if (f.heapAfterMiB - f.heapBaseMiB >= (f.heapPeakMiB - f.heapBaseMiB) * 0.25) {
      fail(
        r,
        `heap did not return: ${f.heapBaseMiB.toFixed(1)} → ${f.heapPeakMiB.toFixed(1)} → ` +
          `${f.heapAfterMiB.toFixed(1)} MiB`,
      )
    }
    r.notes.push(
      `${f.clients.toLocaleString('en')} clients: loop blocked at most ${f.floodBlockMs.toFixed(1)} ms ` +
        `flooding+flushing, ${f.sweepBlockMs.toFixed(1)} ms sweeping (loop-thread CPU per gap; ` +
        `longest wall gap ${Math.max(f.floodWallMs, f.sweepWallMs).toFixed(0)} ms on a shared machine); ` +
        `heap ${f.heapBaseMiB.toFixed(1)} → ${f.heapPeakMiB.toFixed(1)} → ${f.heapAfterMiB.toFixed(1)} MiB; ` +
        `rate_limits rows ${f.rowsAtPeak.toLocaleString('en')} → ${f.rowsAfter}`,
    )
  })
  return r
}
