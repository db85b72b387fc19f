/**
 * The public edge's abuse cases, each against the real service (`bun src/index.ts`):
 *
 *   uploads         store B sends N × ~8 MB uploads at once while store A uploads a 10 × 10 PNG:
 *                   A gets 201, B past its in-flight bound gets 429 + Retry-After, the server's
 *                   peak RSS stays bounded and nothing is left in media/staging
 *   hoarding        one order of 5 × 10,000 units, one of 100 lines × 10,000, and the split-line
 *                   duplicate: all refused, no unit taken
 *   restore-symlink a snapshot whose media links to /etc/passwd, one whose storefront.db is a
 *                   symlink: `admin restore` refuses both and touches nothing; a link planted in
 *                   the live media folder is never served
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import path from 'node:path'
import sharp from 'sharp'
import { openDb } from '../../src/db/client'
import { systemClock } from '../../src/lib/time'
import { createKey } from '../../src/modules/keys/service'
import { createStore } from '../../src/modules/platform-stores/service'
import type { Deps } from '../../src/deps'
import { tempDir } from '../helpers/app'
import { addProduct, uniqPhone } from '../helpers/factories'
import { freePort, ROOT, spawnServer } from '../helpers/server'
import { fail, newResult, timed, type CaseResult } from './lib'

type Server = Awaited<ReturnType<typeof spawnServer>>

/** Two stores with a key and a product each, then the real service on them. */
async function start(dataDir: string, env: Record<string, string> = {}) {
  const db = openDb({ dataDir, synchronous: 'NORMAL' })
  const shops = ['A', 'B'].map((n) => {
    const store = createStore({
      ctx: { db, clock: systemClock },
      input: { name: `Edge ${n}`, plan: 'pro', currency: 'USD', whatsapp: '+14155550100' },
    })
    const key = createKey({ ctx: { db, clock: systemClock }, input: { storeId: store.id, scopes: ['all'] } }).key
    const product = addProduct({ db, clock: systemClock } as Deps, store.id, { price: 100 })
    return { store, key, product }
  })
  db.$client.close()
  const port = await freePort()
  const server = await spawnServer({
    DATA_DIR: dataDir,
    PORT: String(port),
    HTTP_PORT: String(await freePort()),
    RATE_LIMIT_ORDERS_PER_MIN: '1000000',
    RATE_LIMIT_KEY_PER_MIN: '1000000',
    MAX_PRODUCT_IMAGES: '100000',
    ...env,
  })
  const base = `https://127.0.0.1:${port}`
  const call = (p: string, init: RequestInit = {}) =>
    fetch(base + p, { ...init, tls: { rejectUnauthorized: false } } as RequestInit)
  return { shops, server, call }
}

const peakRssMb = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024

async function stop(server: Server | undefined) {
  if (!server) return
  server.proc.kill('SIGTERM')
  await server.proc.exited
}

export async function runUploadExhaustion(opts: {
  uploads: number
  megabytes: number
  maxRssMb: number
}): Promise<CaseResult> {
  const r = newResult('upload exhaustion')
  const dataDir = tempDir('sf-edge-up-')
  let server: Server | undefined
  await timed(r, async () => {
    const s = await start(dataDir)
    server = s.server
    const [a, b] = s.shops as [(typeof s.shops)[0], (typeof s.shops)[0]]
    // A noisy JPEG of about the size asked for: a full decode each.
    const side = Math.round(Math.sqrt((opts.megabytes * 1024 * 1024) / 1.2))
    const big = await sharp({
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
    const tiny = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#f00' } })
      .png()
      .toBuffer()
    const upload = async (key: string, productId: string, bytes: Uint8Array) => {
      const form = new FormData()
      form.append('file', new File([bytes], 'x.jpg', { type: 'image/jpeg' }))
      const t0 = performance.now()
      const res = await s.call(`/api/v1/products/${productId}/images`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      })
      await res.arrayBuffer()
      return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - t0 }
    }
    const flood = Array.from({ length: opts.uploads }, () => upload(b.key, b.product.id, big))
    const mine = await upload(a.key, a.product.id, tiny)
    const theirs = await Promise.all(flood)
    r.tried = opts.uploads + 1
    const peak = peakRssMb(s.server.proc.pid)
    if (mine.status !== 201) fail(r, `store A's upload got ${mine.status}`)
    for (const t of theirs) {
      if (t.status === 429 && t.retryAfter === null) fail(r, '429 without Retry-After')
      else if (t.status !== 201 && t.status !== 429) fail(r, `store B's upload got ${t.status}`)
      if (t.status >= 500) r.fiveXx++
    }
    if (peak > opts.maxRssMb) fail(r, `server peak RSS ${peak.toFixed(0)} MiB > ${opts.maxRssMb} MiB`)
    // More at once than MEDIA_UPLOADS_PER_STORE (2): the rest must be refused, not queued in memory.
    if (opts.uploads > 2 && !theirs.some((t) => t.status === 429))
      fail(r, `all ${opts.uploads} of store B's uploads were taken at once: no bound on uploads in flight`)
    const staging = path.join(dataDir, 'media', 'staging')
    if (existsSync(staging) && readdirSync(staging).length)
      fail(r, `media/staging keeps ${readdirSync(staging).length} file(s)`)
    const count = (st: number) => theirs.filter((t) => t.status === st).length
    r.notes.push(
      `A's 10×10 PNG: ${mine.ms.toFixed(0)} ms; ` +
        `B's ${opts.uploads} × ${(big.length / 1e6).toFixed(1)} MB: ${count(201)} × 201, ${count(429)} × ` +
        `429; server peak RSS ${peak.toFixed(0)} MiB`,
    )
  })
  await stop(server)
  rmSync(dataDir, { recursive: true, force: true })
  return r
}

export async function runHoarding(): Promise<CaseResult> {
  const r = newResult('hoarding')
  const dataDir = tempDir('sf-edge-hoard-')
  let server: Server | undefined
  await timed(r, async () => {
    const s = await start(dataDir)
    server = s.server
    const { store, product, key } = s.shops[0]!
    await s.call(`/api/v1/products/${product.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stock: 50_000 }),
    })
    const order = (items: unknown[], phone = uniqPhone()) =>
      s.call('/api/orders', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' },
        body: JSON.stringify({ storeId: store.id, name: 'H', phone, items }),
      })
    const expectStatus = async (what: string, res: Response, want: number) => {
      r.tried++
      const body = (await res.json()) as { details?: { field?: string } }
      if (res.status !== want) fail(r, `${what}: ${res.status} ${JSON.stringify(body)}, wanted ${want}`)
      if (res.status >= 500) r.fiveXx++
    }
    await expectStatus(
      '5 × 10,000 units from another origin',
      await order(Array.from({ length: 5 }, () => ({ productId: product.id, quantity: 10_000 }))),
      400,
    )
    await expectStatus(
      '100 lines × 10,000 units',
      await order(Array.from({ length: 100 }, () => ({ productId: product.id, quantity: 10_000 }))),
      400,
    )
    const phone = uniqPhone()
    await expectStatus('[{q:2}]', await order([{ productId: product.id, quantity: 2 }], phone), 201)
    await expectStatus(
      '[{q:1},{q:1}] right after [{q:2}]',
      await order(
        [
          { productId: product.id, quantity: 1 },
          { productId: product.id, quantity: 1 },
        ],
        phone,
      ),
      409,
    )
    const res = await s.call(`/api/v1/products/${product.id}`, { headers: { authorization: `Bearer ${key}` } })
    const left = ((await res.json()) as { data: { stock: number } }).data.stock
    if (left !== 49_998) fail(r, `stock is ${left}, wanted 49,998 (only the one real order took units)`)
    r.notes.push(`stock after the attempts: ${left} of 50,000`)
  })
  await stop(server)
  rmSync(dataDir, { recursive: true, force: true })
  return r
}

export async function runRestoreSymlink(): Promise<CaseResult> {
  const r = newResult('restore-symlink')
  const parent = tempDir('sf-edge-restore-')
  const dataDir = path.join(parent, 'live')
  const backups = path.join(parent, 'snapshots')
  let server: Server | undefined
  await timed(r, async () => {
    const s = await start(dataDir)
    server = s.server
    const { key, product } = s.shops[0]!
    const form = new FormData()
    form.append(
      'file',
      new File(
        [
          await sharp({ create: { width: 50, height: 50, channels: 3, background: '#0a0' } })
            .png()
            .toBuffer(),
        ],
        'a.png',
        { type: 'image/png' },
      ),
    )
    const up = await s.call(`/api/v1/products/${product.id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    })
    const image = ((await up.json()) as { data: { url: string } }).data
    // A link planted in the live media folder is never served.
    const file = path.join(dataDir, 'media', 'public', ...image.url.split('/').slice(2))
    unlinkSync(file)
    symlinkSync('/etc/passwd', file)
    const served = await s.call(image.url)
    const text = await served.text()
    r.tried++
    if (served.status !== 404 || text.includes('root:')) fail(r, `/media served a symlink: ${served.status}`)
    unlinkSync(file)
    writeFileSync(file, 'webp')

    const backup = Bun.spawnSync(['bun', 'run', '--silent', 'admin', 'backup', '--to', backups, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
    })
    if (backup.exitCode !== 0) throw new Error(`admin backup: ${backup.stdout} ${backup.stderr}`)
    const snapshot = (JSON.parse(backup.stdout.toString()) as { snapshot: string }).snapshot
    await stop(server)
    server = undefined

    const tampers: [string, () => void][] = [
      [
        'a media file linking to /etc/passwd',
        () => symlinkSync('/etc/passwd', path.join(snapshot, 'media', 'public', 'passwd-320.webp')),
      ],
      [
        'storefront.db as a symlink',
        () => {
          rmSync(path.join(snapshot, 'storefront.db'))
          symlinkSync(path.join(dataDir, 'storefront.db'), path.join(snapshot, 'storefront.db'))
        },
      ],
    ]
    for (const [what, tamper] of tampers) {
      tamper()
      const target = path.join(parent, `restore-${r.tried}`)
      mkdirSync(target)
      const out = Bun.spawnSync(['bun', 'run', '--silent', 'admin', 'restore', snapshot, '--json'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: target },
      })
      r.tried++
      const res = JSON.parse(out.stdout.toString() || '{}') as { code?: string }
      if (out.exitCode === 0 || res.code !== 'BAD_SNAPSHOT')
        fail(r, `${what}: restore exit ${out.exitCode} ${out.stdout}`)
      if (readdirSync(target).length) fail(r, `${what}: the refused restore wrote ${readdirSync(target).join(', ')}`)
    }
    r.notes.push(
      'both tampered snapshots refused with BAD_SNAPSHOT, nothing written; a planted link under /media answers 404',
    )
  })
  await stop(server)
  rmSync(parent, { recursive: true, force: true })
  return r
}
