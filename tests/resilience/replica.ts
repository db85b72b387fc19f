/**
 * Replication survives losing the machine.
 *
 * The real service (`bun src/index.ts`) runs with REPLICA_URL=file://… and takes orders from
 * concurrent clients; mid-stream the service and its Litestream are both SIGKILLed at the same
 * instant, as when the machine dies (a SIGKILLed service alone would leave Litestream running and
 * shipping, which flatters the figures). Then `admin restore --from-replica` runs into a fresh
 * DATA_DIR holding only a copy of secret.key, the operator's part. There every order acknowledged
 * (201) more than the stated lag (1 s) before the kill must be present with the same row and
 * lines; the replica must have one generation (the service never restarted the WAL behind
 * Litestream's back, which would have forced a new one); and the service must start on the
 * restored DATA_DIR, read the webhook created before, and sign a delivery with its old secret.
 */
import { Database } from 'bun:sqlite'
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { openDb } from '../../src/db/client'
import { systemClock } from '../../src/lib/time'
import { createKey } from '../../src/modules/keys/service'
import { createStore } from '../../src/modules/platform-stores/service'
import type { Deps } from '../../src/deps'
import { isOurLitestream } from '../../src/replica/pid'
import { tempDir } from '../helpers/app'
import { addProduct, uniqPhone } from '../helpers/factories'
import { freePort, ROOT, spawnServer } from '../helpers/server'
import { startReceiver, verify } from '../helpers/webhook-receiver'
import { fail, newResult, timed, type CaseResult } from './lib'

/** The lag the docs state: an order acknowledged longer ago than this is in the replica. */
export const STATED_LAG_MS = 1000

interface Acked {
  id: string
  at: number
}
type Health = { replica?: { state: string; lagSeconds: number | null } }

const tls = { rejectUnauthorized: false }
const until = async (what: string, cond: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(20)
  }
}
/** `bun run admin … --json` as its own process; async, so the clients keep posting meanwhile. */
const admin = async (dataDir: string, env: Record<string, string>, ...argv: string[]) => {
  const t0 = performance.now()
  const p = Bun.spawn(['bun', 'run', '--silent', 'admin', ...argv, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ])
  return { code, json: JSON.parse(out || '{}') as Record<string, unknown>, ms: performance.now() - t0, stderr }
}

/**
 * `rate`: orders a second, paced, so the stream lasts several times the stated lag (at full speed
 * 1,000 orders took 0.7 s here: every one of them within the lag, which would prove nothing).
 */
export async function runReplicaRestore(
  opts: { orders?: number; clients?: number; rate?: number } = {},
): Promise<CaseResult> {
  const r = newResult('replica-restore')
  const clients = opts.clients ?? 8
  const rate = opts.rate ?? 250
  const parent = tempDir('sf-replica-')
  const live = path.join(parent, 'live')
  const replicaDir = path.join(parent, 'replica')
  const fresh = path.join(parent, 'restored')
  const replicaEnv = { REPLICA_URL: `file://${replicaDir}` }
  const receiver = startReceiver()
  const started: Awaited<ReturnType<typeof spawnServer>>[] = []
  let litestreamPid: number | undefined

  await timed(r, async () => {
    const db = openDb({ dataDir: live, synchronous: 'NORMAL' })
    const store = createStore({
      ctx: { db, clock: systemClock },
      input: { name: 'Replica Shop', plan: 'pro', currency: 'USD', whatsapp: '+14155550100' },
    })
    const key = createKey({ ctx: { db, clock: systemClock }, input: { storeId: store.id, scopes: ['all'] } }).key
    const products = [1000, 2550, 799].map((price) =>
      addProduct({ db, clock: systemClock } as Deps, store.id, { price }),
    )
    db.$client.close()

    const env = { WEBHOOK_ALLOW_PRIVATE: '1', RATE_LIMIT_ORDERS_PER_MIN: '1000000', RATE_LIMIT_KEY_PER_MIN: '1000000' }
    const port = await freePort()
    const server = await spawnServer({
      ...env,
      ...replicaEnv,
      DATA_DIR: live,
      PORT: String(port),
      HTTP_PORT: String(await freePort()),
    })
    started.push(server)
    const base = `https://127.0.0.1:${port}`
    const call = (method: string, p: string, body?: unknown) =>
      fetch(base + p, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: body === undefined ? undefined : JSON.stringify(body),
        tls,
      } as RequestInit)
    const health = async () => (await (await fetch(`${base}/health`, { tls } as RequestInit)).json()) as Health
    // Replicating once the first shipment (the snapshot) is in.
    await until('the first shipment', async () => (await health()).replica?.lagSeconds === 0)
    litestreamPid = Number(readFileSync(path.join(live, 'litestream.pid'), 'utf8'))

    // review.created only: the check after the restore is one signed delivery, not 1,000 during the run.
    const hook = await call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['review.created'] })
    const hookBody = (await hook.json()) as { data: { id: string; secret: string } }
    if (hook.status !== 201) throw new Error(`webhook create: ${hook.status} ${JSON.stringify(hookBody)}`)

    const acked: Acked[] = []
    let killed = false
    let posted = 0
    const t0 = performance.now()
    const loops = Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; !killed; i++) {
        const due = t0 + (posted * 1000) / rate
        if (due > performance.now()) await Bun.sleep(due - performance.now())
        if (killed) break
        const items = [
          { productId: products[(c + i) % 3]!.id, quantity: 1 + (i % 4) },
          { productId: products[(c + i + 1) % 3]!.id, quantity: 1 },
        ]
        posted++
        try {
          const res = await fetch(`${base}/api/orders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              storeId: store.id,
              name: `Client ${c}`,
              phone: uniqPhone(),
              address: `Street ${i}`,
              items,
            }),
            tls,
          } as RequestInit)
          const body = (await res.json()) as { id?: string }
          if (res.status === 201 && body.id) acked.push({ id: body.id, at: performance.now() })
          else if (res.status >= 500) r.fiveXx++
        } catch {
          if (!killed) throw new Error('an order failed before the kill')
        }
      }
    })
    // The lag /health reports under this load, sampled while the orders go in.
    let maxLag = 0
    const sampler = (async () => {
      while (!killed) {
        maxLag = Math.max(maxLag, (await health().catch(() => ({}) as Health)).replica?.lagSeconds ?? 0)
        await Bun.sleep(100)
      }
    })()
    // Restore refuses while the service holds DATA_DIR (checked while the orders go in).
    const refused = await admin(live, replicaEnv, 'restore', '--from-replica')
    if (refused.code !== 1 || refused.json.code !== 'SERVICE_RUNNING')
      fail(r, `restore under a running service: exit ${refused.code} ${JSON.stringify(refused.json)}`)
    await until('orders', () => acked.length >= (opts.orders ?? 1000), 120_000)

    // The machine dies: the service and its Litestream at the same instant.
    const killAt = performance.now()
    killed = true
    process.kill(litestreamPid, 'SIGKILL')
    server.proc.kill('SIGKILL')
    await server.proc.exited
    await Promise.all([...loops, sampler])
    r.tried = acked.length

    // The operator's part: secret.key kept with the replica target, copied into the new DATA_DIR.
    mkdirSync(fresh, { recursive: true, mode: 0o700 })
    copyFileSync(path.join(live, 'secret.key'), path.join(fresh, 'secret.key'))
    const restore = await admin(fresh, replicaEnv, 'restore', '--from-replica')
    if (restore.code !== 0 || restore.json.integrity !== 'ok' || restore.json.secretKey !== 'secret.key')
      throw new Error(`restore: exit ${restore.code} ${JSON.stringify(restore.json)} ${restore.stderr}`)

    const generations = readdirSync(path.join(replicaDir, 'generations'))
    if (generations.length !== 1)
      fail(r, `the replica has ${generations.length} generations: the WAL was restarted behind Litestream's back`)
    // Each WAL index is one restart of the WAL, after a Litestream checkpoint that copied it all.
    const walIndexes = new Set(
      readdirSync(path.join(replicaDir, 'generations', generations[0]!, 'wal')).map((f) => f.split('_')[0]),
    ).size

    // Every order acknowledged more than the stated lag before the kill: present, same row, same lines.
    const liveDb = new Database(path.join(live, 'storefront.db'), { readonly: true })
    const restoredDb = new Database(path.join(fresh, 'storefront.db'), { readonly: true })
    const orderOf = (d: Database, id: string) =>
      d
        .query<Record<string, unknown>, [string]>(
          "SELECT o.*, (SELECT group_concat(product_id || 'x' || quantity || '=' || subtotal, ',') " +
            'FROM order_items WHERE order_id = o.id) AS lines FROM orders o WHERE o.id = ?',
        )
        .get(id)
    let missingRecent = 0
    let oldestMissingMs = 0
    for (const a of acked) {
      const copy = orderOf(restoredDb, a.id)
      const age = killAt - a.at
      if (!copy) {
        oldestMissingMs = Math.max(oldestMissingMs, age)
        if (age > STATED_LAG_MS) {
          r.ordersLost++
          fail(r, `order ${a.id} acknowledged ${Math.round(age)} ms before the kill is missing from the restore`)
        } else missingRecent++
      } else if (JSON.stringify(copy) !== JSON.stringify(orderOf(liveDb, a.id)))
        fail(r, `order ${a.id} differs after the restore`)
    }
    const restoredOrders = restoredDb.query<{ n: number }, []>('SELECT count(*) AS n FROM orders').get()!.n
    liveDb.close()
    restoredDb.close()

    // The service starts on the restored DATA_DIR, reads the webhook and signs with its old secret.
    const t1 = performance.now()
    const port2 = await freePort()
    const again = await spawnServer({
      ...env,
      DATA_DIR: fresh,
      PORT: String(port2),
      HTTP_PORT: String(await freePort()),
    })
    started.push(again)
    const startMs = performance.now() - t1
    const base2 = `https://127.0.0.1:${port2}`
    const read = await fetch(`${base2}/api/v1/webhooks/${hookBody.data.id}`, {
      headers: { authorization: `Bearer ${key}` },
      tls,
    } as RequestInit)
    const readBody = (await read.json()) as { data?: { url?: string } }
    if (read.status !== 200 || readBody.data?.url !== receiver.url)
      fail(r, `GET the webhook after the restore: ${read.status} ${JSON.stringify(readBody)}`)
    const review = await fetch(`${base2}/api/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        storeId: store.id,
        productId: products[0]!.id,
        customerName: 'Ana',
        rating: 5,
        comment: 'Still here',
      }),
      tls,
    } as RequestInit)
    if (review.status !== 201) fail(r, `a review on the restored service: ${review.status} ${await review.text()}`)
    else {
      await receiver.waitFor(() => receiver.received.length > 0, 15_000)
      try {
        verify(hookBody.data.secret, receiver.received[0]!)
      } catch (err) {
        fail(r, `the restored service's delivery does not verify with the webhook's secret: ${(err as Error).message}`)
      }
    }
    again.proc.kill('SIGTERM')
    if ((await again.proc.exited) !== 0) fail(r, 'the restored service did not stop cleanly')

    r.notes.push(
      `${acked.length} orders acked in ${((killAt - t0) / 1000).toFixed(1)} s (${posted} posted ` +
        `by ${clients} clients at ${rate}/s), ${restoredOrders} restored; ` +
        `missing: ${missingRecent}, all acked within ${Math.round(oldestMissingMs)} ms of the kill ` +
        `(stated lag ${STATED_LAG_MS} ms); ` +
        `/health lag under load max ${maxLag} s; restore ${Math.round(restore.ms)} ms as a process ` +
        `(${restore.json.ms} ms inside), service start on it ${Math.round(startMs)} ms; ` +
        `replica: 1 generation, ${walIndexes} WAL index(es)`,
    )
  })

  for (const s of started) {
    if (s.proc.exitCode === null) {
      s.proc.kill('SIGKILL')
      await s.proc.exited
    }
  }
  // Only if the kill above was not reached: the Litestream this case started, by its pid, while
  // /proc still shows it is that one.
  if (litestreamPid !== undefined && isOurLitestream(litestreamPid, live)) process.kill(litestreamPid, 'SIGKILL')
  receiver.stop()
  rmSync(parent, { recursive: true, force: true })
  return r
}
