/**
 * `bun run bench memory` — where the server's memory stands through a day's kinds of work, one
 * server process (three stores seeded as for bench/mixed.ts) taken through the phases in order:
 *
 *   after start · after storefront load (GET /s/<slug>, wrk) · with 1,000 inbox streams open
 *   (bench/panel-streams-client.ts) · during 8 picture uploads at once from two stores (~8 MB
 *   JPEGs) · during a burst of 16 sign-ins at once (argon2id at the server's
 *   cost) · at the end of the mixed workload (bench/mixed-load.ts)
 *
 * Per phase: RSS at its end and its peak (VmHWM, reset before each phase through
 * /proc/<pid>/clear_refs, or the highest VmRSS sampled every 20 ms where that is refused), and the
 * JS heap and the memory outside it as the process itself reports them (bench/memory-preload.ts,
 * preloaded by this bench only). Beside each, a bare `Bun.serve` over the same certificate given
 * the same traffic in the same run (bench/bare-server.ts answering the storefront page's bytes;
 * bench/bare-streams.ts for the streams), one after the other so they never compete.
 *
 * Targets: ≤ 120 MB after start, ≤ 200 MB peak in every phase.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { MAX_STREAMS_PER_SESSION } from '../src/panel/pages/orders/live-access'
import { bigJpeg } from './upload-tenants'
import { MIXED_ENV, mixedLoad, mixedStores, seedMixed } from './mixed'
import {
  cpuPlan,
  fetchOnce,
  load,
  seedOwner,
  seedSessions,
  sleep,
  spawnTracked,
  startBareTwin,
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

const TARGET_IDLE_MB = 120
const TARGET_PEAK_MB = 200
const STREAMS = Number(process.env.STREAMS_N ?? 1000)
const SIGN_INS = 16

const mb = (kb: number) => kb / 1024
function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)
}

/** What a phase's work returns: a note, and what to undo once it is measured (e.g. close streams). */
type Done = string | undefined | { note: string; close: () => void }

/**
 * Measures one phase of `pid`: its peak while `work` runs, its RSS when it is done and, with
 * `statsFile`, the process's own account of its heap; then undoes what the work left open.
 */
async function phase(pid: number, work: () => Promise<Done>, statsFile?: string) {
  let hwmReset = true
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
  } catch {
    hwmReset = false
  }
  let sampled = statusKb(pid, 'VmRSS')
  const sampler = setInterval(() => (sampled = Math.max(sampled, statusKb(pid, 'VmRSS'))), 20)
  try {
    const done = await work()
    const stats = statsFile ? await readStats(statsFile) : undefined
    const end = statusKb(pid, 'VmRSS')
    const peak = hwmReset ? statusKb(pid, 'VmHWM') : Math.max(sampled, end)
    if (typeof done === 'object') done.close()
    return { endMb: mb(end), peakMb: mb(peak), note: typeof done === 'object' ? done.note : (done ?? ''), stats }
  } finally {
    clearInterval(sampler)
  }
}

interface Stats {
  rss: number
  heapUsed: number
  heapCapacity: number
  external: number
  arrayBuffers: number
}
async function readStats(file: string): Promise<Stats | undefined> {
  await sleep(300) // the preload writes every 200 ms
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Stats
  } catch {
    return undefined
  }
}

/** Opens `n` streams from a client on the load CPU; resolves with a function closing them. */
async function openStreams(url: string, cookies: string[], n: number): Promise<() => void> {
  const client = spawnTracked(
    [...cpuPlan().load, process.execPath, path.join(ROOT, 'bench/panel-streams-client.ts')],
    {
      STREAMS_URL: url,
      STREAMS_COOKIE: cookies[0] ?? '',
      STREAMS_COOKIES: cookies.join('\n'),
      STREAMS_N: String(n),
      BUN_CONFIG_MAX_HTTP_REQUESTS: String(n + 64),
    },
    ROOT,
    'pipe',
  )
  let err = ''
  client.stderr!.on('data', (d) => (err += d))
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`streams did not open in 90 s: ${err.slice(-500)}`)), 90_000)
    createInterface({ input: client.stdout! }).once('line', (l) => (clearTimeout(timer), resolve(l)))
  })
  if ((JSON.parse(first) as { open?: number }).open !== n) throw new Error(`streams: ${first}`)
  await sleep(2000)
  return () => client.kill('SIGTERM')
}

async function post(url: string, body: FormData | URLSearchParams, headers: Record<string, string>): Promise<number> {
  try {
    const r = await fetch(url, {
      method: 'POST',
      body,
      headers,
      redirect: 'manual',
      tls: { rejectUnauthorized: false },
    } as RequestInit)
    await r.arrayBuffer()
    return r.status
  } catch {
    return 0
  }
}
const tally = (xs: number[]) =>
  [...xs.reduce((m, s) => m.set(s, (m.get(s) ?? 0) + 1), new Map<number, number>())]
    .map(([s, n]) => `${n}×${s}`)
    .join(' ')

/** 8 uploads at once, 4 to each of two stores' products (the bare twin gets the same bodies). */
function uploads(url: string, targets: { key: string; productId: string }[], big: Uint8Array): Promise<string> {
  const all = Array.from({ length: 8 }, (_, i) => {
    const t = targets[i % 2]!
    const form = new FormData()
    form.append('file', new File([big], 'big.jpg', { type: 'image/jpeg' }))
    return post(`${url}/api/v1/products/${t.productId}/images`, form, { authorization: `Bearer ${t.key}` })
  })
  return Promise.all(all).then(tally)
}

/**
 * SIGN_INS sign-ins at once, from one address (its limit is 100 an
 * hour), each at an unknown e-mail (a full argon2id verification each).
 */
function signIns(url: string): Promise<string> {
  const all = Array.from({ length: SIGN_INS }, (_, i) =>
    post(
      `${url}/admin/login`,
      new URLSearchParams({ email: `nobody${i}@bench.example`, password: 'not the password' }),
      {
        'content-type': 'application/x-www-form-urlencoded',
        origin: url,
      },
    ),
  )
  return Promise.all(all).then(tally)
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seedMixed(dataDir, opts.quick)
  const email = await seedOwner(dataDir, seeded[0]!.storeId)
  const sessions = await seedSessions(dataDir, email, Math.ceil(STREAMS / MAX_STREAMS_PER_SESSION))
  const statsFile = path.join(tempDir('sf-mem-'), 'stats.json')
  const big = await bigJpeg()
  const server = await startServer({
    dataDir,
    preload: path.join(ROOT, 'bench/memory-preload.ts'),
    env: {
      ...MIXED_ENV,
      RATE_LIMIT_ANONYMOUS_PER_MIN: '100000000',
      SHOP_PAGES_PER_IP_PER_MIN: '100000000',
      MAX_PRODUCT_IMAGES: '1000000',
      MEMORY_STATS_FILE: statsFile,
      // As the image runs it (Dockerfile); MALLOC_ARENA_MAX=16 in the
      // bench's environment is about glibc's own default on 2 cores.
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    },
  })
  const shop = `${server.url}/s/${seeded[0]!.slug}`
  const storefront = async (target: ServerHandle) => {
    const r = await load({
      url: shop.replace(server.url, target.url),
      connections: opts.connections,
      durationSec: opts.duration,
      serverPid: target.pid,
      bunLoad: opts.bunLoad,
    })
    return `${Math.round(r.rps)} req/s, non-2xx ${r.non2xx}`
  }
  const targets = seeded.slice(0, 2).map((s) => ({ key: s.key, productId: s.productIds[1]! }))
  const names = [
    'after start',
    `after ${opts.duration} s of storefront load (${opts.connections} conn.)`,
    `${STREAMS} inbox streams open`,
    '8 picture uploads at once, two stores',
    `${SIGN_INS} sign-ins at once`,
    `end of the mixed workload (${opts.duration} s)`,
  ]
  const ours: Awaited<ReturnType<typeof phase>>[] = []
  const page = await fetchOnce(shop)
  try {
    await sleep(2000)
    const steps: (() => Promise<Done>)[] = [
      async () => undefined,
      () => storefront(server),
      async () => ({
        note: `${STREAMS} open`,
        close: await openStreams(server.url, sessions, STREAMS),
      }),
      () => uploads(server.url, targets, big),
      () => signIns(server.url),
      async () => {
        const r = await mixedLoad(server, await mixedStores(server.url, seeded), opts.connections, opts.duration)
        const all = Object.values(r.endpoints)
        const bad = all.reduce(
          (a, e) => a + Object.entries(e.statuses).reduce((x, [k, v]) => x + (Number(k) >= 400 ? v : 0), 0),
          0,
        )
        return `${Math.round(all.reduce((a, e) => a + e.n, 0) / r.elapsed)} req/s, non-2xx ${bad}, errors ${r.errors}`
      },
    ]
    for (const step of steps) ours.push(await phase(server.pid, step, statsFile))
  } finally {
    await server.stop()
  }

  // The bare twins, the same traffic, one after another.
  const bare = await startBareTwin(dataDir, page, '/')
  const bareRows: { endMb: number; peakMb: number; note: string }[] = []
  try {
    await sleep(2000)
    bareRows.push(await phase(bare.pid, async () => undefined))
    bareRows.push(await phase(bare.pid, () => storefront(bare)))
  } finally {
    await bare.stop()
  }
  const bareStreams = await startBareStreams(dataDir)
  try {
    bareRows.push(
      await phase(bareStreams.pid, async () => ({
        note: `${STREAMS} open`,
        close: await openStreams(bareStreams.url, [''], STREAMS),
      })),
    )
  } finally {
    await bareStreams.stop()
  }
  const bare2 = await startBareTwin(dataDir, page, '/')
  try {
    bareRows.push(await phase(bare2.pid, () => uploads(bare2.url, targets, big)))
    bareRows.push(await phase(bare2.pid, () => signIns(bare2.url)))
    bareRows.push(await phase(bare2.pid, () => storefront(bare2)))
  } finally {
    await bare2.stop()
  }

  const f = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '—' : `${x.toFixed(0)} MB`)
  const mbOf = (b: number | undefined) => (b === undefined ? undefined : b / 1048576)
  const rows: Row[] = names.map((name, i) => {
    const o = ours[i]!
    const b = bareRows[i]
    return {
      phase: name,
      'RSS (end)': f(o.endMb),
      'peak RSS': f(o.peakMb),
      'JS heap used / total': `${f(mbOf(o.stats?.heapUsed))} / ${f(mbOf(o.stats?.heapCapacity))}`,
      'outside the JS heap': f(o.stats ? o.endMb - mbOf(o.stats.heapCapacity)! : undefined),
      'bare RSS / peak': b ? `${f(b.endMb)} / ${f(b.peakMb)}` : '—',
      ours: o.note,
      bare: b?.note ?? '',
    }
  })
  const idle = ours[0]!.endMb
  const peak = Math.max(...ours.map((o) => o.peakMb))
  const pass = idle <= TARGET_IDLE_MB && peak <= TARGET_PEAK_MB
  return {
    name: 'memory',
    title:
      'server memory by phase (one process, three stores), beside a bare Bun.serve given the same traffic; ' +
      `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    rows,
    notes: [
      `targets: ≤ ${TARGET_IDLE_MB} MB after start (got ${idle.toFixed(0)}), ` +
        `≤ ${TARGET_PEAK_MB} MB peak in every phase (got ${peak.toFixed(0)})`,
      "RSS is what the kernel holds for the process; the machine's load changes req/s, not these figures much",
      'bare streams: bench/bare-streams.ts; the bare mixed row is the storefront page under the same ' +
        'load (a bare server has no mix)',
      `cpu: ${cpuPlan().description}`,
    ],
    pass,
    summary: `idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (bare idle ${bareRows[0]?.endMb.toFixed(0)} MB)`,
  }
}

async function startBareStreams(dataDir: string): Promise<ServerHandle> {
  const child = spawnTracked([...cpuPlan().server, process.execPath, path.join(ROOT, 'bench/bare-streams.ts')], {
    BARE_CERT: path.join(dataDir, 'tls/cert.pem'),
    BARE_KEY: path.join(dataDir, 'tls/key.pem'),
  })
  const logs: string[] = []
  const url = await waitForListening(child, logs, 'listening')
  return { url, port: Number(new URL(url).port), dataDir, pid: child.pid!, logs, stop: stopper(child) }
}
