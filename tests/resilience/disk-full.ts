/**
 * Disk full, for real: DATA_DIR on a small tmpfs, filled
 * with a file until ENOSPC. Checks: writes answer 503 SERVICE_UNAVAILABLE with Retry-After
 * (never 500), /health is 503 degraded, the log has one line per distinct error (not one per
 * request), reads keep working (owner lists, the public catalog and directory), and once space
 * returns writing resumes without a restart with every acknowledged order intact
 * (integrity_check on a fresh connection).
 *
 * Needs root (mount -t tmpfs); `canMountTmpfs()` says whether this machine allows it.
 */
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp } from '../../src/app'
import { testConfig } from '../../src/config'
import { openDb } from '../../src/db/client'
import { closeDeps, createDeps } from '../../src/deps'
import type { Logger } from '../../src/lib/log'
import { Api } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { addProduct, uniqPhone } from '../helpers/factories'
import { fail, newResult, timed, type CaseResult } from './lib'

export const canMountTmpfs = () => process.platform === 'linux' && process.getuid?.() === 0

/** Writes a file until the filesystem says ENOSPC. */
function fillDisk(file: string): void {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(64 * 1024, 1)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (err) {
    if ((err as { code?: string }).code !== 'ENOSPC') throw err
  } finally {
    closeSync(fd)
  }
}

export async function runDiskFull(opts: { burst?: number; sizeMiB?: number } = {}): Promise<CaseResult> {
  const r = newResult('disk full (tmpfs)')
  const burst = opts.burst ?? 50
  const mountDir = mkdtempSync(path.join(tmpdir(), 'sf-tmpfs-'))
  const m = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${opts.sizeMiB ?? 8}m,mode=0700`, 'tmpfs', mountDir])
  if (m.exitCode !== 0) {
    rmSync(mountDir, { recursive: true, force: true })
    fail(r, `mount failed: ${m.stderr.toString().trim()}`)
    return r
  }
  const lines: { msg: string; fields?: Record<string, unknown> }[] = []
  const log: Logger = {
    debug: () => {},
    info: () => {},
    warn: (msg, fields) => lines.push({ msg, fields }),
    error: (msg, fields) => lines.push({ msg, fields }),
  }
  const config = testConfig({
    dataDir: path.join(mountDir, 'data'),
    logLevel: 'silent',
    dbSynchronous: 'FULL',
    rateLimitOrders: 1_000_000,
    rateLimitKey: 1_000_000,
  })
  const deps = createDeps(config, { log })
  const app = createApp(deps)
  const api = new Api((req) => app.handle(req))
  const filler = path.join(mountDir, 'filler')

  try {
    await timed(r, async () => {
      const shop = makeShop(deps, { plan: 'pro' })
      const product = addProduct(deps, shop.store.id, { price: 1500, name: 'Mug' })
      const acknowledged: string[] = []
      let refused = 0
      const order = async () => {
        r.tried++
        const [res, body] = await api.post('/api/orders', {
          storeId: shop.store.id,
          name: 'Ana Pérez',
          phone: uniqPhone(),
          address: 'Calle 1 '.repeat(50),
          items: [{ productId: product.id, quantity: 1 }],
        })
        if (res.status === 201) acknowledged.push(body.id)
        else if (res.status === 503) {
          refused++
          if (body?.code !== 'SERVICE_UNAVAILABLE' || !(Number(res.headers.get('retry-after')) > 0))
            fail(r, `503 without SERVICE_UNAVAILABLE/Retry-After: ${JSON.stringify(body)}`)
        } else {
          if (res.status >= 500) r.fiveXx++
          fail(r, `order: ${res.status} ${JSON.stringify(body)}`)
        }
        return res.status
      }
      for (let i = 0; i < 5; i++) await order()

      fillDisk(filler)
      // The WAL may still have room from earlier frames: post until writes fail.
      let status = 201
      for (let i = 0; i < 2000 && status === 201; i++) status = await order()
      if (status !== 503) return fail(r, `writes never failed on a full disk (last ${status})`)
      const loggedBefore = lines.filter((l) => l.msg === 'storage write failed').length
      for (let i = 0; i < burst; i++)
        if ((await order()) !== 503) fail(r, 'a write on the full disk did not answer 503')
      r.tried++
      const [p] = await api.post('/api/v1/products', { name: 'Bowl', price: 3 }, { key: shop.key })
      if (p.status !== 503) fail(r, `product create on a full disk: ${p.status}`)
      const logged = lines.filter((l) => l.msg === 'storage write failed').length
      if (logged - loggedBefore > 2)
        fail(
          r,
          `${logged - loggedBefore} log lines for ${burst} failed writes (one per distinct error a minute expected)`,
        )
      if (lines.some((l) => l.msg === 'unhandled error'))
        fail(r, 'a storage error was logged as an unhandled error (500)')

      const [h, hb] = await api.get('/health')
      if (h.status !== 503 || hb?.status !== 'degraded' || hb?.reason !== 'disk_full')
        fail(r, `/health on a full disk: ${h.status} ${JSON.stringify(hb)}`)

      // Reads keep working.
      const reads = [
        '/api/v1/orders?limit=100',
        `/api/v1/orders/${acknowledged[0]}`,
        '/api/v1/products',
        `/api/v1/stores/${shop.store.slug}`,
        '/api/v1/stores',
      ]
      for (const path of reads) {
        r.tried++
        const [res, body] = await api.get(path, path.includes('/stores') ? {} : { key: shop.key })
        if (res.status !== 200) fail(r, `read ${path} on a full disk: ${res.status} ${JSON.stringify(body)}`)
        if (path.startsWith('/api/v1/orders?') && body.total !== acknowledged.length)
          fail(r, `orders listed ${body.total}, acknowledged ${acknowledged.length}`)
      }

      // Space returns: no restart; /health turns ok by itself (probe) and orders go through.
      unlinkSync(filler)
      const freed = performance.now()
      let healthy = false
      while (!healthy && performance.now() - freed < 12_000) {
        healthy = (await api.get('/health'))[0].status === 200
        if (!healthy) await Bun.sleep(100)
      }
      const recoverySec = (performance.now() - freed) / 1000
      if (!healthy) fail(r, '/health still degraded 12 s after space returned')
      if ((await order()) !== 201) fail(r, 'no order accepted after space returned')

      // Every acknowledged order is there, on a fresh connection, and the file is sound.
      const fresh = openDb({ dataDir: config.dataDir, synchronous: 'NORMAL' })
      try {
        const integrity = fresh.$client
          .query<{ integrity_check: string }, []>('PRAGMA integrity_check')
          .get()?.integrity_check
        if (integrity !== 'ok') fail(r, `integrity_check: ${integrity}`)
        const have = new Set(
          fresh.$client
            .query<{ id: string }, []>('SELECT id FROM orders')
            .all()
            .map((o) => o.id),
        )
        for (const id of acknowledged) {
          if (!have.has(id)) {
            r.ordersLost++
            fail(r, `acknowledged order ${id} is missing`)
          }
        }
        if (have.size !== acknowledged.length)
          fail(r, `${have.size} orders stored, ${acknowledged.length} acknowledged`)
      } finally {
        fresh.$client.close()
      }
      r.notes.push(
        `${acknowledged.length} orders acknowledged, all intact; ${refused} writes refused with 503 + ` +
          `Retry-After; ${logged} log line(s); healthy again ${recoverySec.toFixed(1)} s after space ` +
          'returned, no restart',
      )
    })
  } finally {
    app.gate.close()
    closeDeps(deps)
    const u = Bun.spawnSync(['umount', mountDir])
    if (u.exitCode !== 0) Bun.spawnSync(['umount', '-l', mountDir])
    rmSync(mountDir, { recursive: true, force: true })
  }
  return r
}
