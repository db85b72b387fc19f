/**
 * Catalog read throughput: authenticated `GET /api/v1/products?limit=50` over TLS on a store
 * with 60 products × 3 variants (quick: 50 × 2), against a bare `Bun.serve` over TLS with the
 * same cert returning the same bytes, measured in the same run, same connections, same pinning.
 *
 * The per-key limit is raised by env (RATE_LIMIT_KEY_PER_MIN) so the run is not throttled, but
 * every request still goes through the gate and is counted; the bench checks the count the
 * server reports in its `RateLimit` header moved by at least the requests wrk completed.
 *
 * BENCH_BASE_DIR=<a checkout of another revision> adds that revision's server on the same data,
 * in the same alternating rounds (this, base, bare): its row, and its CPU per request against
 * this one's.
 *
 * Target: real server ≥ 50 % of bare req/s, and p99 ≤ 10 ms at 50 connections.
 */
import path from 'node:path'
import {
  bestRound,
  loadRow,
  cpuPlan,
  fetchOnce,
  fmtInt,
  fmtMs,
  fmtPct,
  load,
  seed,
  startBareTwin,
  startServer,
  tempDir,
  type BenchOpts,
  type LoadResult,
  type BenchResult,
} from './lib'

const TARGET_RATIO = 0.5
const TARGET_P99_MS = 10
const KEY_LIMIT = 100_000_000
/** The rounds' req/s, as a list to read. */
const rpsOf = (rounds: LoadResult[]) => rounds.map((r) => fmtInt(r.rps)).join(', ')

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, {
    products: opts.quick ? 50 : 60,
    variantsPerProduct: opts.quick ? 2 : 3,
    categories: 3,
    scopes: ['products:read'],
  })
  const server = await startServer({ dataDir, env: { RATE_LIMIT_KEY_PER_MIN: String(KEY_LIMIT), LOG_LEVEL: 'info' } })
  const baseDir = process.env.BENCH_BASE_DIR
  const baseServer = baseDir
    ? await startServer({
        dataDir,
        cwd: baseDir,
        env: { RATE_LIMIT_KEY_PER_MIN: String(KEY_LIMIT), LOG_LEVEL: 'info' },
      })
    : undefined
  const baseUrl = baseServer && `${baseServer.url}/api/v1/products?limit=50`
  const url = `${server.url}/api/v1/products?limit=50`
  const headers = { authorization: `Bearer ${seeded.key}` }
  try {
    const first = await fetchOnce(url, { headers })
    if (first.status !== 200) throw new Error(`GET products: ${first.status} ${first.text.slice(0, 200)}`)
    const count = (JSON.parse(first.text) as { data: unknown[] }).data.length
    if (count !== 50) throw new Error(`expected 50 products in the page, got ${count}`)

    const bare = await startBareTwin(dataDir, first, '/api/v1/products?limit=50')
    try {
      const common = { headers, connections: opts.connections, durationSec: opts.duration, bunLoad: opts.bunLoad }
      // Warm both (JIT, TLS session setup), then measure; alternate so neither gets a cold CPU.
      const warm = Math.min(2, opts.duration)
      await load({ ...common, url, durationSec: warm })
      await load({ ...common, url: `${bare.url}/api/v1/products?limit=50`, durationSec: warm })
      if (baseUrl) await load({ ...common, url: baseUrl, durationSec: warm })
      // Alternate rounds (real, bare, real, bare…) so a burst of outside load hits both, and
      // keep each server's best round: on a shared machine the best round is the least disturbed.
      const rounds = opts.quick ? 1 : 3
      const reals: LoadResult[] = []
      const bares: LoadResult[] = []
      const bases: LoadResult[] = []
      // "Every request counted": the key's fixed 60 s window must move by at least the requests
      // completed. Checked on rounds that start and end inside one window (the count resets at
      // a window boundary, so a round across one says nothing).
      let counted = 0
      let checkedCompleted = 0
      let checkedRounds = 0
      for (let i = 0; i < rounds; i++) {
        const t0 = Date.now()
        const before = remaining((await fetchOnce(url, { headers })).headers)
        const r = await load({ ...common, url, serverPid: server.pid })
        const after = remaining((await fetchOnce(url, { headers })).headers)
        if (Math.floor(t0 / 60_000) === Math.floor(Date.now() / 60_000)) {
          counted += before - after - 1 // minus the probe itself
          checkedCompleted += r.requests
          checkedRounds++
        }
        reals.push(r)
        if (baseServer) bases.push(await load({ ...common, url: baseUrl!, serverPid: baseServer.pid }))
        bares.push(await load({ ...common, url: `${bare.url}/api/v1/products?limit=50`, serverPid: bare.pid }))
      }
      const real = bestRound(reals)
      const base = bestRound(bares)
      const prev = bases.length ? bestRound(bases) : undefined
      const failures = reals.reduce((n, r) => n + r.non2xx + r.errors, 0)
      const ratio = real.rps / base.rps
      const pass = ratio >= TARGET_RATIO && real.p99 <= TARGET_P99_MS && failures === 0
      const bytes = Buffer.byteLength(first.text)
      return {
        name: 'catalog',
        title:
          `GET /api/v1/products?limit=50 over TLS, ${bytes.toLocaleString('en-US')} B ` +
          `body, ${opts.connections} connections, ${opts.duration} s per round, load: ${real.tool}`,
        rows: [
          loadRow('storefront (Elysia, full gate)', real),
          ...(prev ? [loadRow(`base (${path.basename(baseDir!)})`, prev)] : []),
          loadRow('bare Bun.serve (same cert, same bytes)', base),
        ],
        notes: [
          `CPU per request over bare: ${(real.cpuUsPerReq / base.cpuUsPerReq).toFixed(2)}x (target ≤ 1.6x)` +
            (prev
              ? `; base ${(prev.cpuUsPerReq / base.cpuUsPerReq).toFixed(2)}x, ` +
                `base/this ${(prev.cpuUsPerReq / real.cpuUsPerReq).toFixed(2)}x`
              : ''),
          `ratio storefront/bare: ${fmtPct(ratio)} (target ≥ ${fmtPct(TARGET_RATIO)}); ` +
            `storefront p99 ${fmtMs(real.p99)} (target ≤ ${TARGET_P99_MS} ms)`,
          `CPU cost ratio bare/storefront: ${fmtPct(base.cpuUsPerReq / real.cpuUsPerReq)} — the ` +
            'throughput ratio to expect when the server has its core to itself',
          checkedRounds > 0
            ? `every request counted: in the ${checkedRounds} round${checkedRounds > 1 ? 's' : ''} inside ` +
              `one rate-limit window the key's counter moved ` +
              `by ${fmtInt(counted)}; ${real.tool} completed ${fmtInt(checkedCompleted)} (requests in ` +
              'flight at the end are counted, not completed)'
            : 'every request counted: not checked (each round crossed a rate-limit window boundary)',
          ...(real.serverCpuShare < 0.9 || base.serverCpuShare < 0.9
            ? [
                'a server used < 90 % of its core: the load generator (one core) or outside load was the ' +
                  'limit, so req/s understates the gap; the CPU cost ratio is the better guide',
              ]
            : []),
          `best of ${rounds} alternating round${rounds > 1 ? 's' : ''} per server (rounds' req/s — ` +
            `storefront: ${rpsOf(reals)}; ${prev ? `base: ${rpsOf(bases)}; ` : ''}bare: ${rpsOf(bares)})`,
          `cpu: ${cpuPlan().description}`,
        ],
        pass: pass && counted >= checkedCompleted,
        summary:
          `${fmtInt(real.rps)} vs ${fmtInt(base.rps)} req/s (${fmtPct(ratio)}; ` +
          `CPU cost ratio ${fmtPct(base.cpuUsPerReq / real.cpuUsPerReq)}), ` +
          `p99 ${fmtMs(real.p99)} vs ${fmtMs(base.p99)}`,
      }
    } finally {
      await bare.stop()
    }
  } finally {
    await server.stop()
    await baseServer?.stop()
  }
}

function remaining(h: Headers): number {
  return Number(h.get('x-ratelimit-remaining') ?? NaN)
}
