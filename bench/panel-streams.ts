/**
 * The live inbox at 1,000 open streams (issue 20), one server process, the streams held by a
 * client in another process (bench/panel-streams-client.ts, Bun fetch) on the load CPU:
 *
 * - fan-out latency: a probe order is posted (POST /api/orders); from its 201 at the poster to
 *   its event arriving on each of the 1,000 streams; 10 probes, so 10,000 samples. Target p99 ≤ 1 s.
 * - memory per open stream: the server's RSS with the streams open minus before, / streams.
 *   Target ≤ 20 KB.
 * - checkout throughput (wrk posting fresh orders to the same store for a fixed time, N
 *   connections) without streams, with the 1,000 open (each order's event reaching all of
 *   them), and without again: A B A in one run. Target: with ≥ 90 % of without (their mean).
 *
 * `STREAMS_N=<n>` changes the number of streams.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { cpuPlan, cpuTimeMs, fetchOnce, fmtInt, fmtMs, fmtPct, load, panelCookie, seed, seedOwner, sleep, spawnTracked, startServer, tempDir, ROOT, type BenchOpts, type BenchResult } from './lib'

const TARGET_P99_MS = 1000
const TARGET_KB_PER_STREAM = 20
const TARGET_THROUGHPUT_RATIO = 0.9
const PROBES = 10
const PROBE = 'Latency Probe'

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) : NaN
}

/** A wrk script posting a fresh order per request (the phone counts up from `base`: none is a duplicate). */
function checkoutScript(storeId: string, variantId: string, base: number): string {
  const head = `{"storeId":"${storeId}","name":"Bench Buyer","address":"1 Main St","phone":"`
  const tail = `","items":[{"variantId":"${variantId}","quantity":1}]}`
  return `
local n = 0
request = function()
  n = n + 1
  local phone = string.format("+1415%07d", 2000000 + ((${base} + n) % 7000000))
  return wrk.format("POST", "/api/orders", { ["content-type"] = "application/json" }, '${head}' .. phone .. '${tail}')
end
`
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const streams = Number(process.env.STREAMS_N ?? 1000)
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 10, variantsPerProduct: 2, categories: 1, scopes: ['orders:read'] })
  const email = await seedOwner(dataDir, seeded.storeId)
  const server = await startServer({ dataDir, env: { RATE_LIMIT_ORDERS_PER_MIN: '100000000', LOG_LEVEL: 'info' } })
  try {
    const cookie = await panelCookie(server.url, email)
    const orderUrl = `${server.url}/api/orders`
    const variantId = seeded.variantIds[0]!
    const common = { url: orderUrl, connections: opts.connections, serverPid: server.pid, bunLoad: opts.bunLoad }
    let round = 0
    const checkout = (sec: number) => load({ ...common, durationSec: sec, luaScript: checkoutScript(seeded.storeId, variantId, 1_000_000 * round++) })
    await checkout(Math.min(2, opts.duration))
    const withoutA = await checkout(opts.duration)
    await sleep(1500)
    const rssBefore = rssKb(server.pid)

    const client = spawnTracked([...cpuPlan().load, process.execPath, path.join(ROOT, 'bench/panel-streams-client.ts')], {
      STREAMS_URL: server.url,
      STREAMS_COOKIE: cookie,
      STREAMS_N: String(streams),
      // Bun's fetch holds 256 connections at once by default (docs/stack-notes "Third wave").
      BUN_CONFIG_MAX_HTTP_REQUESTS: String(streams + 64),
    }, ROOT, 'pipe')
    const lines: string[] = []
    const waiters: ((line: string) => void)[] = []
    createInterface({ input: client.stdout! }).on('line', (l) => (waiters.length ? waiters.shift()!(l) : lines.push(l)))
    let clientErr = ''
    client.stderr!.on('data', (d) => (clientErr += d))
    const nextLine = (ms: number) =>
      new Promise<string>((resolve, reject) => {
        if (lines.length) return resolve(lines.shift()!)
        const timer = setTimeout(() => reject(new Error(`stream client said nothing in ${ms} ms: ${clientErr.slice(-1000)}`)), ms)
        waiters.push((l) => (clearTimeout(timer), resolve(l)))
      })
    const opening = performance.now()
    const first = JSON.parse(await nextLine(60_000)) as { open?: number }
    if (first.open !== streams) throw new Error(`expected ${streams} open streams, got ${JSON.stringify(first)}`)
    const openSec = (performance.now() - opening) / 1000
    await sleep(2000)
    const rssOpen = rssKb(server.pid)

    const latencies: number[] = []
    for (let k = 0; k < PROBES; k++) {
      const res = await fetchOnce(orderUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ storeId: seeded.storeId, name: PROBE, phone: `+1415555${String(1000 + k)}`, address: '1 Probe St', items: [{ variantId, quantity: 1 }] }),
      })
      const at201 = performance.timeOrigin + performance.now()
      if (res.status !== 201) throw new Error(`probe order: ${res.status} ${res.text.slice(0, 200)}`)
      const id = (JSON.parse(res.text) as { id: string }).id
      client.stdin!.write(`${id}\n`)
      const got = JSON.parse(await nextLine(10_000)) as { order: string; at: number[] }
      if (got.order !== id) throw new Error(`expected order ${id}, got ${got.order}`)
      // An event can reach a stream before the 201 reaches the poster: those count as 0.
      for (const t of got.at) latencies.push(Math.max(0, t - at201))
      await sleep(300)
    }

    const clientCpu0 = cpuTimeMs(client.pid!)
    const loaded0 = performance.now()
    const withStreams = await checkout(opts.duration)
    const clientShare = (cpuTimeMs(client.pid!) - clientCpu0) / (performance.now() - loaded0)
    const rssAfterLoad = rssKb(server.pid)
    client.kill('SIGTERM')
    await sleep(1500)
    const withoutB = await checkout(opts.duration)

    const p50 = quantile(latencies, 0.5)
    const p99 = quantile(latencies, 0.99)
    const kbPerStream = (rssOpen - rssBefore) / streams
    const without = (withoutA.rps + withoutB.rps) / 2
    const ratio = withStreams.rps / without
    const failures = [withoutA, withStreams, withoutB].reduce((n, r) => n + r.non2xx + r.errors, 0)
    const pass = p99 <= TARGET_P99_MS && kbPerStream <= TARGET_KB_PER_STREAM && ratio >= TARGET_THROUGHPUT_RATIO && failures === 0
    return {
      name: 'panel-streams',
      title: `${fmtInt(streams)} open inbox streams on one store (client: Bun fetch in another process, opened in ${openSec.toFixed(1)} s); checkout: POST /api/orders to that store, ${opts.connections} connections, ${opts.duration} s per round, load: ${withStreams.tool}`,
      rows: [
        { measure: `201 → event on all ${fmtInt(streams)} streams, p50 (${fmtInt(latencies.length)} samples)`, value: fmtMs(p50), target: '' },
        { measure: '201 → event on all streams, p99', value: fmtMs(p99), target: `≤ ${TARGET_P99_MS} ms` },
        { measure: '201 → event, slowest', value: fmtMs(Math.max(...latencies)), target: '' },
        { measure: 'server RSS before / with streams open', value: `${fmtInt(rssBefore / 1024)} / ${fmtInt(rssOpen / 1024)} MB`, target: '' },
        { measure: 'memory per open stream', value: `${kbPerStream.toFixed(1)} KB`, target: `≤ ${TARGET_KB_PER_STREAM} KB` },
        { measure: 'checkout orders/s: without, with streams, without', value: `${fmtInt(withoutA.rps)}, ${fmtInt(withStreams.rps)}, ${fmtInt(withoutB.rps)}`, target: '' },
        { measure: 'with streams / without (mean of the two)', value: fmtPct(ratio), target: `≥ ${fmtPct(TARGET_THROUGHPUT_RATIO)}` },
        { measure: 'server CPU per order: without (mean) / with', value: `${fmtPct(((withoutA.cpuUsPerReq + withoutB.cpuUsPerReq) / 2) / withStreams.cpuUsPerReq)}`, target: '' },
      ],
      notes: [
        ...([['checkout, no streams (A)', withoutA], [`checkout, ${streams} streams open`, withStreams], ['checkout, no streams (A again)', withoutB]] as const).map(
          ([name, r]) => `${name}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, server CPU/req ${r.cpuUsPerReq.toFixed(0)} µs, server CPU use ${fmtPct(r.serverCpuShare)}, non-2xx ${r.non2xx}, errors ${r.errors}`,
        ),
        `server RSS after the loaded round with streams: ${fmtInt(rssAfterLoad / 1024)} MB`,
        `cpu: ${cpuPlan().description}; the stream client shares the load CPU with wrk: it used ${fmtPct(clientShare)} of a CPU during the loaded round with streams`,
      ],
      pass,
      summary: `p99 ${fmtMs(p99)} to ${fmtInt(streams)} streams, ${kbPerStream.toFixed(1)} KB/stream, checkout with streams ${fmtPct(ratio)} of without`,
    }
  } finally {
    await server.stop()
  }
}
