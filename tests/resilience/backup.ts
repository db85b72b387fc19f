/**
 * Backup while orders are being posted, restore into a fresh DATA_DIR.
 *
 * The real service (`bun src/index.ts`) takes orders from several concurrent clients; mid-stream
 * `bun run admin backup --to DIR` runs as its own process. Then `admin restore` is tried against
 * the running service's DATA_DIR (must refuse, nothing changed), the service stops, and the
 * snapshot is restored into a fresh DATA_DIR. There every order acknowledged (201 received)
 * before the backup process was started must be present with the same total and items,
 * `PRAGMA integrity_check` is ok, the webhook secret still decrypts with the restored
 * secret.key, and an order reads back over HTTP with the same key.
 */
import { Database } from 'bun:sqlite'
import { existsSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { createApp } from '../../src/app'
import { testConfig } from '../../src/config'
import { closeDeps, createDeps } from '../../src/deps'
import { openDb } from '../../src/db/client'
import { createLogger } from '../../src/lib/log'
import { secretBoxFor } from '../../src/lib/secret-box'
import { systemClock } from '../../src/lib/time'
import { createKey } from '../../src/modules/keys/service'
import { createStore } from '../../src/modules/platform-stores/service'
import type { Deps } from '../../src/deps'
import { tempDir } from '../helpers/app'
import { addProduct, uniqPhone } from '../helpers/factories'
import { freePort, ROOT, spawnServer } from '../helpers/server'
import { startReceiver } from '../helpers/webhook-receiver'
import { fail, newResult, timed, type CaseResult } from './lib'

interface Acked {
  id: string
  at: number
}

export async function runBackup(
  opts: { clients?: number; ordersBefore?: number; ordersAfter?: number } = {},
): Promise<CaseResult> {
  const r = newResult('backup/restore')
  const clients = opts.clients ?? 8
  const parent = tempDir('sf-backup-')
  const dataDir = path.join(parent, 'live')
  const backups = path.join(parent, 'snapshots')
  const fresh = path.join(parent, 'restored')
  const receiver = startReceiver()
  let server: Awaited<ReturnType<typeof spawnServer>> | undefined

  await timed(r, async () => {
    const db = openDb({ dataDir, synchronous: 'NORMAL' })
    const store = createStore({
      ctx: { db, clock: systemClock },
      input: { name: 'Backup Shop', plan: 'pro', currency: 'USD', whatsapp: '+14155550100' },
    })
    const key = createKey({ ctx: { db, clock: systemClock }, input: { storeId: store.id, scopes: ['all'] } }).key
    const products = [1000, 2550, 799].map((price) =>
      addProduct({ db, clock: systemClock } as Deps, store.id, { price }),
    )
    db.$client.close()

    const port = await freePort()
    server = await spawnServer({
      DATA_DIR: dataDir,
      PORT: String(port),
      HTTP_PORT: String(await freePort()),
      WEBHOOK_ALLOW_PRIVATE: '1',
      RATE_LIMIT_ORDERS_PER_MIN: '1000000',
      RATE_LIMIT_KEY_PER_MIN: '1000000',
    })
    const base = `https://127.0.0.1:${port}`
    const post = (p: string, body: unknown, auth: boolean) =>
      fetch(base + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(body),
        tls: { rejectUnauthorized: false },
      } as RequestInit)

    const hook = await post('/api/v1/webhooks', { url: receiver.url, events: ['order.created'] }, true)
    const hookBody = (await hook.json()) as { data: { id: string; secret: string } }
    if (hook.status !== 201) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hookBody)}`)

    // Concurrent clients post orders until told to stop; each 201 is recorded when it arrives.
    const acked: Acked[] = []
    let stop = false
    let posted = 0
    const loops = Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; !stop; i++) {
        const items = [
          { productId: products[(c + i) % 3]!.id, quantity: 1 + (i % 4) },
          { productId: products[(c + i + 1) % 3]!.id, quantity: 1 },
        ]
        posted++
        const res = await post(
          '/api/orders',
          { storeId: store.id, name: `Client ${c}`, phone: uniqPhone(), address: `Street ${i}`, items },
          false,
        )
        const body = (await res.json()) as { id?: string }
        if (res.status === 201 && body.id) acked.push({ id: body.id, at: performance.now() })
        else if (res.status >= 500) r.fiveXx++
      }
    })
    const waitFor = async (cond: () => boolean, ms = 60_000) => {
      const until = Date.now() + ms
      while (!cond()) {
        if (Date.now() > until) throw new Error('timed out waiting for orders')
        await Bun.sleep(5)
      }
    }
    await waitFor(() => acked.length >= (opts.ordersBefore ?? 300))

    // The snapshot begins after this instant: everything acknowledged before it must be in it.
    const began = performance.now()
    const backup = Bun.spawn(['bun', 'run', '--silent', 'admin', 'backup', '--to', backups, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
      stdout: 'pipe',
      stderr: 'pipe',
    })
    const backupOut = await new Response(backup.stdout).text()
    const backupCode = await backup.exited
    const ended = performance.now()
    const afterBackup = acked.length
    await waitFor(() => acked.length >= afterBackup + (opts.ordersAfter ?? 100))
    if (backupCode !== 0)
      throw new Error(`admin backup exited ${backupCode}: ${backupOut} ${await new Response(backup.stderr).text()}`)
    const snap = JSON.parse(backupOut) as { snapshot: string; integrity: string; ms: number; dbBytes: number }
    if (snap.integrity !== 'ok') fail(r, `snapshot integrity: ${snap.integrity}`)

    // Restore is refused while the service holds DATA_DIR; nothing is touched.
    const refused = Bun.spawnSync(['bun', 'run', '--silent', 'admin', 'restore', snap.snapshot, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir },
    })
    const refusal = JSON.parse(refused.stdout.toString() || '{}') as { code?: string }
    if (refused.exitCode !== 1 || refusal.code !== 'SERVICE_RUNNING')
      fail(r, `restore under a running service: exit ${refused.exitCode} ${refused.stdout}`)
    if (existsSync(path.join(dataDir, 'pre-restore'))) fail(r, 'a refused restore moved files')

    stop = true
    await Promise.all(loops)
    await Bun.sleep(100)
    server.proc.kill('SIGTERM')
    await server.proc.exited
    server = undefined

    const restore = Bun.spawnSync(['bun', 'run', '--silent', 'admin', 'restore', snap.snapshot, '--json'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: fresh },
    })
    const restored = JSON.parse(restore.stdout.toString() || '{}') as { integrity?: string }
    if (restore.exitCode !== 0 || restored.integrity !== 'ok')
      throw new Error(`restore: exit ${restore.exitCode} ${restore.stdout} ${restore.stderr}`)

    // Every order acknowledged before the backup began: present, same total, same lines.
    const before = acked.filter((a) => a.at < began)
    const during = acked.filter((a) => a.at >= began && a.at <= ended).length
    r.tried = acked.length
    if (during === 0)
      fail(r, 'no order was acknowledged while the backup ran: it did not overlap writes, so this proves nothing')
    const liveDb = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
    const restoredDb = new Database(path.join(fresh, 'storefront.db'), { readonly: true })
    const orderOf = (d: Database, id: string) =>
      d
        .query<{ total: number; lines: string }, [string]>(
          "SELECT o.total, (SELECT group_concat(product_id || 'x' || quantity || '=' || subtotal, ',') " +
            'FROM order_items WHERE order_id = o.id) AS lines FROM orders o WHERE o.id = ?',
        )
        .get(id)
    for (const a of before) {
      const live = orderOf(liveDb, a.id)
      const copy = orderOf(restoredDb, a.id)
      if (!copy) {
        r.ordersLost++
        fail(r, `order ${a.id} acknowledged before the backup began is missing from the restore`)
      } else if (JSON.stringify(copy) !== JSON.stringify(live))
        fail(r, `order ${a.id} differs: ${JSON.stringify(copy)} vs ${JSON.stringify(live)}`)
    }
    const inSnapshot = restoredDb.query<{ n: number }, []>('SELECT count(*) AS n FROM orders').get()!.n
    const integrity = restoredDb.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()!.integrity_check
    if (integrity !== 'ok') fail(r, `restored integrity_check: ${integrity}`)
    if (inSnapshot > acked.length)
      fail(r, `the snapshot has ${inSnapshot} orders, more than the ${acked.length} acknowledged`)
    const sealed = restoredDb.query<{ id: string; secret: string }, []>('SELECT id, secret FROM webhooks').get()!
    liveDb.close()
    restoredDb.close()

    // The webhook secret opens with the restored secret.key.
    try {
      const opened = secretBoxFor({ dataDir: fresh }).open(sealed.secret, sealed.id)
      if (opened !== hookBody.data.secret) fail(r, 'the restored webhook secret decrypts to another value')
    } catch (err) {
      fail(r, `the restored webhook secret does not decrypt: ${(err as Error).message}`)
    }
    // Files at rest in the snapshot and the restored DATA_DIR.
    for (const f of [
      path.join(snap.snapshot, 'storefront.db'),
      path.join(snap.snapshot, 'secret.key'),
      path.join(fresh, 'storefront.db'),
      path.join(fresh, 'secret.key'),
    ]) {
      const mode = statSync(f).mode & 0o777
      if (mode !== 0o600) fail(r, `${path.relative(parent, f)} is ${mode.toString(8)}, not 600`)
    }

    // The restored DATA_DIR serves: the same key reads an order acknowledged before the backup.
    const config = testConfig({ dataDir: fresh, logLevel: 'silent' })
    const deps = createDeps(config, { log: createLogger('silent') })
    const app = createApp(deps)
    try {
      const res = await app.handle(
        new Request(`http://localhost/api/v1/orders/${before[0]!.id}`, { headers: { authorization: `Bearer ${key}` } }),
      )
      if (res.status !== 200) fail(r, `GET a restored order: ${res.status}`)
    } finally {
      app.gate.close()
      closeDeps(deps)
    }
    r.notes.push(
      `${before.length} orders acknowledged before the backup began, ` +
        `all restored; ${during} more acknowledged while it ran (${Math.round(ended - began)} ms as a ` +
        `process, ${snap.ms} ms copying ${(snap.dbBytes / 1024).toFixed(0)} KiB); ` +
        `the snapshot holds ${inSnapshot} of ${acked.length} (${posted} posted by ${clients} clients)`,
    )
  })

  if (server) {
    server.proc.kill(9)
    await server.proc.exited
  }
  receiver.stop()
  rmSync(parent, { recursive: true, force: true })
  return r
}
