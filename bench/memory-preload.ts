/**
 * Loaded before the server by bench/memory.ts only (`bun --preload`), never in production: every
 * 200 ms it writes the process's memory as JavaScriptCore and Bun see it to MEMORY_STATS_FILE
 * (one JSON object, replaced each time), so the bench can split RSS into JS heap and the rest
 * without the server growing an endpoint for it.
 */
import { heapStats } from 'bun:jsc'
import { renameSync, writeFileSync } from 'node:fs'

const file = process.env.MEMORY_STATS_FILE
if (file) {
  setInterval(() => {
    const m = process.memoryUsage()
    const h = heapStats()
    const tmp = `${file}.tmp`
    writeFileSync(
      tmp,
      JSON.stringify({
        at: Date.now(),
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        arrayBuffers: m.arrayBuffers,
        heapCapacity: h.heapCapacity,
        extraMemory: h.extraMemorySize,
        objects: h.objectCount,
      }),
    )
    renameSync(tmp, file)
  }, 200).unref()
}
