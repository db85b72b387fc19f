/**
 * Upload exhaustion across tenants, the security review's scenario: store B
 * sends 24 uploads of ~8 MB at once while store A uploads one 10 × 10 PNG. Printed: A's time to
 * 201, the server's peak RSS (VmHWM), and what B's uploads got (201 or 429 + Retry-After).
 *
 * BENCH_BASE_DIR=<a checkout of another revision> runs the same scenario against that revision's
 * server in the same run (on a DATA_DIR seeded the same way): the baseline.
 *
 * Targets: A's upload ≤ 1 s, the server's peak RSS ≤ 300 MB.
 */
import { readFileSync } from 'node:fs'
import sharp from 'sharp'
import { cpuPlan, fmtMs, seed, startServer, tempDir, type BenchOpts, type BenchResult, type Row } from './lib'

const B_UPLOADS = 24
const TARGET_A_MS = 1000
const TARGET_RSS_MB = 300
const ENV = { RATE_LIMIT_KEY_PER_MIN: '100000000', MAX_PRODUCT_IMAGES: '1000000', LOG_LEVEL: 'info' }

const peakRss = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024

/** A noisy JPEG just under 8 MiB (the default MEDIA_MAX_BYTES), so it is accepted and costs a full decode. */
export async function bigJpeg(): Promise<Uint8Array> {
  for (let side = 3600; side > 1000; side -= 200) {
    const img = await sharp({
      create: {
        width: side,
        height: side,
        channels: 3,
        background: '#777',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer()
    if (img.length <= 8 * 1024 * 1024 - 1024) return img
  }
  throw new Error('could not make an 8 MB JPEG')
}

interface Outcome {
  aMs: number
  aStatus: number
  peakMb: number
  bStatuses: Map<number, number>
  bMaxMs: number
}

async function scenario(big: Uint8Array, tiny: Uint8Array, cwd?: string): Promise<Outcome> {
  const dataDir = tempDir()
  const a = await seed(dataDir, { slug: 'tenant-a', products: 1, variantsPerProduct: 0, categories: 0 })
  const b = await seed(dataDir, { slug: 'tenant-b', products: 1, variantsPerProduct: 0, categories: 0 })
  const server = await startServer({ dataDir, cwd, env: ENV })
  const tls = { rejectUnauthorized: false }
  const post = async (key: string, productId: string, bytes: Uint8Array, name: string, type: string) => {
    const form = new FormData()
    form.append('file', new File([bytes], name, { type }))
    const t0 = performance.now()
    const res = await fetch(`${server.url}/api/v1/products/${productId}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
      tls,
    } as RequestInit)
    await res.arrayBuffer()
    return { status: res.status, ms: performance.now() - t0 }
  }
  try {
    const flood = Array.from({ length: B_UPLOADS }, () => post(b.key, b.productIds[0]!, big, 'big.jpg', 'image/jpeg'))
    // A's upload starts while B's bodies are still arriving.
    const mine = await post(a.key, a.productIds[0]!, tiny, 'tiny.png', 'image/png')
    const bs = await Promise.all(flood)
    const bStatuses = new Map<number, number>()
    for (const r of bs) bStatuses.set(r.status, (bStatuses.get(r.status) ?? 0) + 1)
    return {
      aMs: mine.ms,
      aStatus: mine.status,
      peakMb: peakRss(server.pid),
      bStatuses,
      bMaxMs: Math.max(...bs.map((r) => r.ms)),
    }
  } finally {
    await server.stop()
  }
}

export async function run(_opts: BenchOpts): Promise<BenchResult> {
  const big = await bigJpeg()
  const tiny = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#f00' } })
    .png()
    .toBuffer()
  const baseDir = process.env.BENCH_BASE_DIR
  const runs: [string, Outcome][] = [['this revision', await scenario(big, tiny)]]
  if (baseDir) runs.push([`base (${baseDir})`, await scenario(big, tiny, baseDir)])
  const rows: Row[] = runs.map(([server, o]) => ({
    server,
    "A's 10×10 PNG": `${fmtMs(o.aMs)} (${o.aStatus})`,
    'server peak RSS': `${o.peakMb.toFixed(0)} MiB`,
    "B's uploads": [...o.bStatuses].map(([s, n]) => `${n} × ${s}`).join(', '),
    "B's slowest": fmtMs(o.bMaxMs),
  }))
  const mine = runs[0]![1]
  const pass = mine.aStatus === 201 && mine.aMs <= TARGET_A_MS && mine.peakMb <= TARGET_RSS_MB
  return {
    name: 'upload-tenants',
    title:
      `upload exhaustion across tenants: store B sends ${B_UPLOADS} × ${(big.length / 1e6).toFixed(1)} MB ` +
      'JPEGs at once while store A uploads a 10 × 10 PNG',
    rows,
    notes: [
      `targets: A's upload ≤ ${TARGET_A_MS} ms (got ${fmtMs(mine.aMs)}), ` +
        `server peak RSS ≤ ${TARGET_RSS_MB} MiB (got ${mine.peakMb.toFixed(0)} MiB)`,
      'B past MEDIA_UPLOADS_PER_STORE (2) in flight is refused with 429 + Retry-After before its body is ' +
        'read; a client retries',
      `cpu: ${cpuPlan().description}`,
    ],
    pass,
    summary:
      `A ${fmtMs(mine.aMs)}, peak RSS ${mine.peakMb.toFixed(0)} MiB` +
      (runs[1] ? ` (base: A ${fmtMs(runs[1][1].aMs)}, ${runs[1][1].peakMb.toFixed(0)} MiB)` : ''),
  }
}
