/**
 * Fallback load generator when wrk is not installed: LOAD_SPEC (JSON: url, method, headers,
 * body, connections, durationSec) → `connections` keep-alive loops of fetch for the duration;
 * prints one JSON object (requests, rps, p50/p90/p99 ms, non2xx, errors) on stdout.
 */
import { percentile } from './lib/percentile'
const spec = JSON.parse(process.env.LOAD_SPEC!) as {
  url: string
  method: string
  headers: Record<string, string>
  body?: string
  connections: number
  durationSec: number
}
const latencies: number[] = []
let non2xx = 0
let errors = 0
const end = performance.now() + spec.durationSec * 1000

async function loop() {
  while (performance.now() < end) {
    const t0 = performance.now()
    try {
      const res = await fetch(spec.url, {
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        keepalive: true,
        tls: { rejectUnauthorized: false },
      } as RequestInit)
      await res.arrayBuffer()
      if (res.status >= 400) non2xx++
      latencies.push(performance.now() - t0)
    } catch {
      errors++
    }
  }
}
const started = performance.now()
await Promise.all(Array.from({ length: spec.connections }, loop))
const elapsed = (performance.now() - started) / 1000
latencies.sort((a, b) => a - b)
const pct = (p: number) => percentile(latencies, p)
process.stdout.write(
  JSON.stringify({
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    non2xx,
    errors,
    durationSec: spec.durationSec,
  }),
)
