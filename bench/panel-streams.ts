/**
 * The live inbox at 1,000 open streams, one server process, the streams held by a
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
 * The fan-out and memory rows are measured the same way against a bare `Bun.serve` twin
 * (bench/bare-streams.ts: the same certificate, streams held open, each posted order written to
 * all of them, no session, database or rendering) and, with `BENCH_BASE_DIR=<checkout>`, against
 * that revision's server on the same data, each with its own stream client, one after another.
 *
 * `STREAMS_N=<n>` changes the number of streams.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { MAX_STREAMS_PER_SESSION } from '../src/panel/pages/orders/live-access'
import type { ChildProcess } from 'node:child_process'
import {
  checkoutScript,
  cpuPlan,
  cpuTimeMs,
  fetchOnce,
  fmtInt,
  fmtMs,
  fmtPct,
  load,
  seedSessions,
  seed,
  seedOwner,
  sleep,
  spawnTracked,
  startServer,
  stopper,
  tempDir,
  waitForListening,
  ROOT,
  type BenchOpts,
  type BenchResult,
  type Row,
  type ServerHandle,
} from './lib'

const TARGET_P99_MS = 1000
const TARGET_KB_PER_STREAM = 20
const TARGET_THROUGHPUT_RATIO = 0.9
const PROBES = 10
const PROBE = 'Latency Probe'

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) : NaN
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!

/** What one server's streams measured: open time, 201 → event latencies, memory per stream. */
interface FanOut {
  client: ChildProcess
  openSec: number
  latencies: number[]
  rssBefore: number
  rssOpen: number
  kbPerStream: number
}

/**
 * Opens `streams` inbox streams on `server` from a client process on the load CPU, then posts
 * PROBES orders one at a time and times each from its 201 to its event on every stream. The
 * client is left running (the caller may load the server with the streams open) and must be
 * killed by the caller.
 */
/** Each fan-out's probes get phones of their own: a repeated order within 5 minutes is a 409. */
let probePhones = 0

async function fanOut(
  server: { url: string; pid: number },
  cookies: string[],
  streams: number,
  storeId: string,
  variantId: string,
): Promise<FanOut> {
  const rssBefore = rssKb(server.pid)
  const client = spawnTracked(
    [...cpuPlan().load, process.execPath, path.join(ROOT, 'bench/panel-streams-client.ts')],
    {
      STREAMS_URL: server.url,
      STREAMS_COOKIE: cookies[0] ?? '',
      STREAMS_COOKIES: cookies.join('\n'),
      STREAMS_N: String(streams),
      // Bun's fetch holds 256 connections at once by default (measured on Bun 1.x).
      BUN_CONFIG_MAX_HTTP_REQUESTS: String(streams + 64),
    },
    ROOT,
    'pipe',
  )
  const lines: string[] = []
  const waiters: ((line: string) => void)[] = []
  createInterface({ input: client.stdout! }).on('line', (l) => (waiters.length ? waiters.shift()!(l) : lines.push(l)))
  let clientErr = ''
  client.stderr!.on('data', (d) => (clientErr += d))
  const nextLine = (ms: number) =>
    new Promise<string>((resolve, reject) => {
      if (lines.length) return resolve(lines.shift()!)
      const timer = setTimeout(
        () => reject(new Error(`stream client said nothing in ${ms} ms: ${clientErr.slice(-1000)}`)),
        ms,
      )
      waiters.push((l) => (clearTimeout(timer), resolve(l)))
    })
  try {
    const opening = performance.now()
    const first = JSON.parse(await nextLine(60_000)) as { open?: number }
    if (first.open !== streams) throw new Error(`expected ${streams} open streams, got ${JSON.stringify(first)}`)
    const openSec = (performance.now() - opening) / 1000
    await sleep(2000)
    const rssOpen = rssKb(server.pid)

    const latencies: number[] = []
    for (let k = 0; k < PROBES; k++) {
      const res = await fetchOnce(`${server.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          storeId,
          name: PROBE,
          phone: `+1415555${String(1000 + probePhones++)}`,
          address: '1 Probe St',
          items: [{ variantId, quantity: 1 }],
        }),
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
    return { client, openSec, latencies, rssBefore, rssOpen, kbPerStream: (rssOpen - rssBefore) / streams }
  } catch (e) {
    client.kill('SIGTERM')
    throw e
  }
}

/** The bare twin of the stream server: bench/bare-streams.ts with the real server's certificate. */
async function startBareStreams(dataDir: string): Promise<ServerHandle> {
  const child = spawnTracked([...cpuPlan().server, process.execPath, path.join(ROOT, 'bench/bare-streams.ts')], {
    BARE_CERT: path.join(dataDir, 'tls/cert.pem'),
    BARE_KEY: path.join(dataDir, 'tls/key.pem'),
  })
  const logs: string[] = []
  const url = await waitForListening(child, logs, 'listening')
  return { url, port: Number(new URL(url).port), dataDir, pid: child.pid!, logs, stop: stopper(child) }
}

/** A fan-out's rows for another server (the bare twin, the base revision). */
async function otherRows(
  name: string,
  server: ServerHandle,
  cookies: string[],
  streams: number,
  storeId: string,
  variantId: string,
): Promise<Row[]> {
  const f = await fanOut(server, cookies, streams, storeId, variantId)
  f.client.kill('SIGTERM')
  return [
    {
      measure: `${name}: 201 → event on all streams, p50 / p99`,
      value: `${fmtMs(quantile(f.latencies, 0.5))} / ${fmtMs(quantile(f.latencies, 0.99))}`,
      target: '',
    },
    { measure: `${name}: memory per open stream`, value: `${(f.kbPerStream).toFixed(1)} KB`, target: '' },
  ]
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const streams = Number(process.env.STREAMS_N ?? 1000)
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 10, variantsPerProduct: 2, categories: 1, scopes: ['orders:read'] })
  const email = await seedOwner(dataDir, seeded.storeId)
  // A session holds at most MAX_STREAMS_PER_SESSION streams: the client takes these in turn.
  const cookies = await seedSessions(dataDir, email, Math.ceil(streams / MAX_STREAMS_PER_SESSION))
  const server = await startServer({ dataDir, env: { RATE_LIMIT_ORDERS_PER_MIN: '100000000', LOG_LEVEL: 'info' } })
  const variantId = seeded.variantIds[0]!
  let ours: { rows: Row[]; notes: string[]; pass: boolean; summary: string; p99: number; kbPerStream: number }
  try {
    const orderUrl = `${server.url}/api/orders`
    const common = { url: orderUrl, connections: opts.connections, serverPid: server.pid, bunLoad: opts.bunLoad }
    let round = 0
    const checkout = (sec: number) =>
      load({ ...common, durationSec: sec, luaScript: checkoutScript(seeded.storeId, variantId, 1_000_000 * round++) })
    await checkout(Math.min(2, opts.duration))
    const withoutA = await checkout(opts.duration)
    await sleep(1500)

    const f = await fanOut(server, cookies, streams, seeded.storeId, variantId)
    const { client, latencies, kbPerStream, rssBefore, rssOpen, openSec } = f
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
    const without = (withoutA.rps + withoutB.rps) / 2
    const ratio = withStreams.rps / without
    const failures = [withoutA, withStreams, withoutB].reduce((n, r) => n + r.non2xx + r.errors, 0)
    ours = {
      p99,
      kbPerStream,
      pass:
        p99 <= TARGET_P99_MS &&
        kbPerStream <= TARGET_KB_PER_STREAM &&
        ratio >= TARGET_THROUGHPUT_RATIO &&
        failures === 0,
      summary:
        `p99 ${fmtMs(p99)} to ${fmtInt(streams)} streams, ${kbPerStream.toFixed(1)} KB/stream, ` +
        `checkout with streams ${fmtPct(ratio)} of without`,
      rows: [
        {
          measure:
            `201 → event on all ${fmtInt(streams)} streams, p50 (${fmtInt(latencies.length)} samples; ` +
            `opened in ${openSec.toFixed(1)} s)`,
          value: fmtMs(p50),
          target: '',
        },
        { measure: '201 → event on all streams, p99', value: fmtMs(p99), target: `≤ ${TARGET_P99_MS} ms` },
        { measure: '201 → event, slowest', value: fmtMs(Math.max(...latencies)), target: '' },
        {
          measure: 'server RSS before / with streams open',
          value: `${fmtInt(rssBefore / 1024)} / ${fmtInt(rssOpen / 1024)} MB`,
          target: '',
        },
        {
          measure: 'memory per open stream',
          value: `${kbPerStream.toFixed(1)} KB`,
          target: `≤ ${TARGET_KB_PER_STREAM} KB`,
        },
        {
          measure: 'checkout orders/s: without, with streams, without',
          value: `${fmtInt(withoutA.rps)}, ${fmtInt(withStreams.rps)}, ${fmtInt(withoutB.rps)}`,
          target: '',
        },
        {
          measure: 'with streams / without (mean of the two)',
          value: fmtPct(ratio),
          target: `≥ ${fmtPct(TARGET_THROUGHPUT_RATIO)}`,
        },
        {
          measure: 'server CPU per order: without (mean) / with',
          value: `${fmtPct((withoutA.cpuUsPerReq + withoutB.cpuUsPerReq) / 2 / withStreams.cpuUsPerReq)}`,
          target: '',
        },
      ],
      notes: [
        ...(
          [
            ['checkout, no streams (A)', withoutA],
            [`checkout, ${streams} streams open`, withStreams],
            ['checkout, no streams (A again)', withoutB],
          ] as const
        ).map(
          ([name, r]) =>
            `${name}: ${fmtInt(r.rps)} req/s, p50 ${fmtMs(r.p50)}, p99 ${fmtMs(r.p99)}, ` +
            `server CPU/req ${r.cpuUsPerReq.toFixed(0)} µs, server CPU use ${fmtPct(r.serverCpuShare)}, ` +
            `non-2xx ${r.non2xx}, errors ${r.errors}`,
        ),
        `server RSS after the loaded round with streams: ${fmtInt(rssAfterLoad / 1024)} MB`,
        `cpu: ${cpuPlan().description}; the stream client shares the load CPU with wrk: ` +
          `it used ${fmtPct(clientShare)} of a CPU during the loaded round with streams`,
      ],
    }
  } finally {
    await server.stop()
  }

  // The yardsticks, each with its own client after ours has stopped: the bare twin, then the base.
  const bare = await startBareStreams(dataDir)
  try {
    ours.rows.push(...(await otherRows('bare Bun.serve twin', bare, [''], streams, seeded.storeId, variantId)))
  } finally {
    await bare.stop()
  }
  const baseDir = process.env.BENCH_BASE_DIR
  if (baseDir) {
    const base = await startServer({
      dataDir,
      cwd: baseDir,
      env: { RATE_LIMIT_ORDERS_PER_MIN: '100000000', LOG_LEVEL: 'info' },
    })
    try {
      ours.rows.push(...(await otherRows(`base (${baseDir})`, base, cookies, streams, seeded.storeId, variantId)))
    } finally {
      await base.stop()
    }
  }
  return {
    name: 'panel-streams',
    title:
      `${fmtInt(streams)} open inbox streams on one store (client: Bun fetch in another process); ` +
      `checkout: POST /api/orders to that store, ${opts.connections} connections, ${opts.duration} s per ` +
      'round',
    rows: ours.rows,
    notes: ours.notes,
    pass: ours.pass,
    summary: ours.summary,
  }
}
