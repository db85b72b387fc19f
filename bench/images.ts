/**
 * Product image uploads over TLS against the real server (pinned to its CPU like every bench):
 *
 * 1. One upload at a time of a ~3 MB, 4000 × 3000 JPEG (made here by sharp): time to 201, and the
 *    server's peak RSS (VmHWM) before and after.
 * 2. The p99 of `GET /api/v1/products?limit=50` (wrk, few connections) without uploads, then
 *    during 20 uploads kept in flight for the whole run, same server, same run. Resizing runs on
 *    libvips' threads, not the event loop: if it ran on the event loop, each 4000 × 3000 decode
 *    and three encodes (~100+ ms) would land whole in the GET latencies.
 *
 * Targets: p99 of the list ≤ 50 ms with the uploads running; every upload answers 201.
 */
import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import {
  percentileOf,
  cpuPlan,
  fmtInt,
  fmtMs,
  load,
  seed,
  startServer,
  tempDir,
  type BenchOpts,
  type BenchResult,
  type LoadResult,
  type Row,
} from './lib'

const TARGET_P99_MS = 50
const PARALLEL = 20
const LIST_CONNECTIONS = 4

/** Peak and current resident memory of a process (Linux /proc), MiB. */
function memory(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN)
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 }
}

const fmtMiB = (n: number) => `${n.toFixed(0)} MiB`
export async function run(opts: BenchOpts): Promise<BenchResult> {
  // A photo-like 4000 × 3000 JPEG of about 3 MB (noise keeps the encoder from shrinking it to nothing).
  const jpeg = await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#8a6',
      noise: { type: 'gaussian', mean: 120, sigma: 13 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer()
  const dataDir = tempDir()
  const seeded = await seed(dataDir, {
    products: PARALLEL + 1,
    variantsPerProduct: 1,
    categories: 1,
    scopes: ['products:read', 'products:write'],
  })
  // The per-product cap would stop the sustained uploads; the bench is about cost, not caps.
  // So would the bound on uploads in flight per store (bench/upload-tenants.ts measures that).
  const server = await startServer({
    dataDir,
    env: {
      RATE_LIMIT_KEY_PER_MIN: '100000000',
      MAX_PRODUCT_IMAGES: '1000000',
      MEDIA_UPLOADS_PER_STORE: '1000',
      MEDIA_UPLOADS_TOTAL: '1000',
      LOG_LEVEL: 'info',
    },
  })
  const auth = { authorization: `Bearer ${seeded.key}` }
  const tls = { rejectUnauthorized: false }

  async function upload(productId: string): Promise<{ status: number; ms: number }> {
    const form = new FormData()
    form.append('file', new File([jpeg], 'photo.jpg', { type: 'image/jpeg' }))
    const t0 = performance.now()
    const res = await fetch(`${server.url}/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: auth,
      body: form,
      tls,
    } as RequestInit)
    await res.arrayBuffer()
    return { status: res.status, ms: performance.now() - t0 }
  }

  try {
    const list = `${server.url}/api/v1/products?limit=50`
    const common = { url: list, headers: auth, connections: LIST_CONNECTIONS, serverPid: server.pid }
    await load({ ...common, durationSec: Math.min(2, opts.duration) })
    const memBefore = memory(server.pid)

    // 1. Sequential uploads.
    const single: number[] = []
    const statuses: number[] = []
    for (let i = 0; i < (opts.quick ? 3 : 5); i++) {
      const r = await upload(seeded.productIds[PARALLEL]!)
      single.push(r.ms)
      statuses.push(r.status)
    }
    const memSingle = memory(server.pid)

    // 2. List latency without, then with, 20 uploads in flight (A B A: drift shows).
    const base1 = await load({ ...common, durationSec: opts.duration })
    let running = true
    const during: number[] = []
    const workers = Array.from({ length: PARALLEL }, async (_, i) => {
      while (running) {
        const r = await upload(seeded.productIds[i]!)
        during.push(r.ms)
        statuses.push(r.status)
      }
    })
    let busy: LoadResult
    try {
      busy = await load({ ...common, durationSec: opts.duration })
    } finally {
      running = false
      await Promise.all(workers)
    }
    const memParallel = memory(server.pid)
    const base2 = await load({ ...common, durationSec: opts.duration })

    const failed = statuses.filter((s) => s !== 201).length
    const rows: Row[] = [
      {
        condition: 'GET /api/v1/products, no uploads',
        'req/s': fmtInt(base1.rps),
        p50: fmtMs(base1.p50),
        p99: fmtMs(base1.p99),
        uploads: '—',
        'upload p50': '—',
        'upload max': '—',
        'server peak RSS': fmtMiB(memBefore.peak),
      },
      {
        condition: `GET /api/v1/products, ${PARALLEL} uploads in flight`,
        'req/s': fmtInt(busy.rps),
        p50: fmtMs(busy.p50),
        p99: fmtMs(busy.p99),
        uploads: during.length,
        'upload p50': fmtMs(percentileOf(during, 50)),
        'upload max': fmtMs(Math.max(...during)),
        'server peak RSS': fmtMiB(memParallel.peak),
      },
      {
        condition: 'GET /api/v1/products, no uploads (again)',
        'req/s': fmtInt(base2.rps),
        p50: fmtMs(base2.p50),
        p99: fmtMs(base2.p99),
        uploads: '—',
        'upload p50': '—',
        'upload max': '—',
        'server peak RSS': fmtMiB(memory(server.pid).peak),
      },
      {
        condition: 'one upload at a time (time to 201)',
        'req/s': '—',
        p50: fmtMs(percentileOf(single, 50)),
        p99: '—',
        uploads: single.length,
        'upload p50': fmtMs(percentileOf(single, 50)),
        'upload max': fmtMs(Math.max(...single)),
        'server peak RSS': fmtMiB(memSingle.peak),
      },
    ]
    const pass = failed === 0 && busy.p99 <= TARGET_P99_MS && base1.non2xx + busy.non2xx + base2.non2xx === 0
    return {
      name: 'images',
      title:
        `image upload: ${(jpeg.length / 1e6).toFixed(2)} MB 4000 × 3000 JPEG over TLS; ` +
        `list latency with wrk, ${LIST_CONNECTIONS} connections, ${opts.duration} s per run`,
      rows,
      notes: [
        `target: p99 of GET /api/v1/products ≤ ${TARGET_P99_MS} ms with ${PARALLEL} uploads in flight ` +
          `(got ${fmtMs(busy.p99)}; ${fmtMs(base1.p99)} / ${fmtMs(base2.p99)} without), ` +
          `every upload 201 (${failed} not)`,
        `server RSS: ${fmtMiB(memBefore.peak)} peak before uploads, ${fmtMiB(memSingle.peak)} after one ` +
          `at a time, ${fmtMiB(memParallel.peak)} after ${PARALLEL} in parallel ` +
          `(now ${fmtMiB(memory(server.pid).now)})`,
        `cpu: ${cpuPlan().description}; the server's libvips threads share its one CPU with the event loop`,
      ],
      pass,
      summary:
        `upload ${fmtMs(percentileOf(single, 50))}; list p99 ${fmtMs(busy.p99)} with ${PARALLEL} uploads ` +
        `vs ${fmtMs(base1.p99)} without`,
    }
  } finally {
    await server.stop()
  }
}
