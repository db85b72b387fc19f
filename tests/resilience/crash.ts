/**
 * Crash safety: the real server (`bun src/index.ts`, own DATA_DIR, HTTPS with its generated
 * certificate, random free ports) takes N orders with distinct phones while the runner SIGKILLs
 * it (by pid) at random moments in the write burst and starts it again each time.
 *
 * Afterwards, through the API and the database file:
 * - every order that got a 201 exists exactly once (GET by id, list total, one order per phone);
 * - an order whose answer was lost to a kill is retried: with an Idempotency-Key the retry gets
 *   the first 201 again, without one it gets 409 DUPLICATE_ORDER when the first attempt had
 *   committed (and then exactly one order carries that phone) or a 201 when it had not;
 * - every order's `order.created` event reached the loopback receiver at least once (the
 *   receiver also fails ~10 % of deliveries with 500, so retries are exercised), each signature
 *   verifies with the `standardwebhooks` package;
 * - after every kill, on the fresh restart, `PRAGMA integrity_check` is `ok` and
 *   `PRAGMA foreign_key_check` finds nothing.
 */
import { Database } from 'bun:sqlite'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { testConfig } from '../../src/config'
import { createDeps, closeDeps } from '../../src/deps'
import { createLogger } from '../../src/lib/log'
import { tempDir } from '../helpers/app'
import { makeKey, makeStore } from '../helpers/factories'
import { freePort, spawnServer } from '../helpers/server'
import { startReceiver, verify } from '../helpers/webhook-receiver'
import { fail, newResult, timed, type CaseResult } from './lib'

export interface CrashOptions {
  orders: number
  kills: number
  /** Requests in flight at once. */
  concurrency?: number
  /** How long to wait for the last events after the last order. */
  eventTimeoutMs?: number
  seed?: number
  log?: (line: string) => void
}

/** mulberry32: a seeded PRNG, so a failing run can be repeated with the printed seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Spawned = Awaited<ReturnType<typeof spawnServer>>

interface OrderSpec {
  phone: string
  body: Record<string, unknown>
  idempotencyKey?: string
}

interface Outcome {
  status: number
  id?: string
  code?: string
  /** An earlier attempt got no answer (connection cut by a kill). */
  ambiguous: boolean
  attempts: number
  /** The 201 was the stored answer of an earlier attempt (Idempotency-Key). */
  replayed?: boolean
}

export async function runCrash(opts: CrashOptions): Promise<CaseResult> {
  const r = newResult(`crash (${opts.orders} orders, ${opts.kills} kills)`)
  const log = opts.log ?? (() => {})
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31)
  const rand = prng(seed)
  r.notes.push(`seed ${seed}`)
  const dataDir = tempDir('sf-crash-')
  const receiver = startReceiver()
  // ~10 % of deliveries fail with 500, so retries and the sweep are part of what is proven.
  receiver.respond = () => new Response(null, { status: rand() < 0.1 ? 500 : 204 })
  let server: Spawned | undefined

  await timed(r, async () => {
    // Seed a pro store and a key with the same services the admin CLI calls.
    const seedDeps = createDeps(testConfig({ dataDir, logLevel: 'silent' }), { log: createLogger('silent') })
    const store = makeStore(seedDeps, { plan: 'pro' })
    const key = makeKey(seedDeps, store.id)
    closeDeps(seedDeps)

    const [port, httpPort] = [await freePort(), await freePort()]
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HTTP_PORT: String(httpPort),
      HOST: '127.0.0.1',
      TRUST_PROXY: '',
      RATE_LIMIT_ORDERS_PER_MIN: '1000000',
      RATE_LIMIT_KEY_PER_MIN: '1000000',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCHEDULE: '1,1,1,2,2,5',
      WEBHOOK_POLL_CRON: '* * * * * *',
      WEBHOOK_TIMEOUT_MS: '2000',
      SHUTDOWN_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'info',
    }
    let up: Promise<void> = Promise.resolve()
    const start = async () => {
      server = await spawnServer(env)
    }
    await start()
    const ca = readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8')
    const base = `https://127.0.0.1:${port}`
    const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(base + p, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        tls: { ca },
        signal: AbortSignal.timeout(15_000),
      } as RequestInit)
      const text = await res.text()
      let json: any = text
      try {
        json = JSON.parse(text)
      } catch {}
      return [res, json] as const
    }

    // Catalog and webhook through the API, as a merchant would.
    const variantIds: string[] = []
    for (let i = 0; i < 3; i++) {
      const [res, body] = await call('POST', '/api/v1/products', {
        name: `Shirt ${i}`,
        price: 10 + i,
        variants: [
          { name: 'S', price: 10 + i },
          { name: 'L', price: 12 + i },
        ],
      })
      if (res.status !== 201) throw new Error(`product create: ${res.status} ${JSON.stringify(body)}`)
      for (const v of body.data.variants) variantIds.push(v.id)
    }
    const [shipRes, ship] = await call('POST', '/api/v1/shipping', { name: 'Courier', price: 4.5 })
    if (shipRes.status !== 201) throw new Error(`shipping create: ${shipRes.status} ${JSON.stringify(ship)}`)
    const [hookRes, hook] = await call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['order.created'] })
    if (hookRes.status !== 201) throw new Error(`webhook create: ${hookRes.status} ${JSON.stringify(hook)}`)
    const secret: string = hook.data.secret

    // Distinct valid US numbers: +1 415 2xx xxxx upwards.
    const phoneBase = 2_000_000 + Math.floor(rand() * 5_000_000)
    const specs: OrderSpec[] = Array.from({ length: opts.orders }, (_, i) => {
      const phone = `+1415${phoneBase + i}`
      const items = [
        { variantId: variantIds[Math.floor(rand() * variantIds.length)]!, quantity: 1 + Math.floor(rand() * 3) },
      ]
      return {
        phone,
        body: {
          storeId: store.id,
          name: `Crash ${i}`,
          phone,
          address: 'Calle 1',
          items,
          ...(rand() < 0.5 ? { shippingOptionId: ship.data.id } : {}),
        },
        // Half the orders carry an Idempotency-Key; the other half rely on deduplication.
        ...(i % 2 === 0 ? { idempotencyKey: `crash-${seed}-${i}` } : {}),
      }
    })

    const outcomes: (Outcome | undefined)[] = new Array(opts.orders)
    let done = 0
    let next = 0
    const placeOne = async (spec: OrderSpec): Promise<Outcome> => {
      let ambiguous = false
      for (let attempts = 1; ; attempts++) {
        await up
        try {
          const [res, body] = await call(
            'POST',
            '/api/orders',
            spec.body,
            spec.idempotencyKey ? { 'idempotency-key': spec.idempotencyKey } : {},
          )
          if (res.status >= 500) {
            r.fiveXx++
            fail(r, `POST /api/orders ${res.status}: ${JSON.stringify(body)}`)
          }
          return {
            status: res.status,
            id: body?.id,
            code: body?.code,
            ambiguous,
            attempts,
            replayed: res.headers.get('idempotent-replayed') === 'true',
          }
        } catch {
          // Connection refused or cut by a kill: the order may or may not have committed.
          ambiguous = true
          await Bun.sleep(20)
        }
      }
    }
    const worker = async () => {
      while (next < specs.length) {
        const i = next++
        outcomes[i] = await placeOne(specs[i]!)
        done++
      }
    }

    // Kill points: after a random number of answered orders, plus a few random milliseconds, so
    // every kill lands inside the write burst.
    // Kill k falls in the k-th of kills+1 equal stretches of the run (jittered), and never before
    // the restarted server has answered a few orders of its own.
    const stretch = opts.orders / (opts.kills + 1)
    const thresholds = Array.from({ length: opts.kills }, (_, k) =>
      Math.floor(stretch * (k + 1) + (rand() - 0.5) * stretch * 0.6),
    )
    let integrityChecks = 0
    const killer = async () => {
      let lastKillAt = 0
      for (const [k, at] of thresholds.entries()) {
        const target = Math.min(opts.orders - 1, Math.max(at, lastKillAt + Math.min(5, Math.ceil(stretch / 4))))
        while (done < target) await Bun.sleep(1)
        lastKillAt = done
        await Bun.sleep(Math.floor(rand() * 15))
        let release!: () => void
        up = new Promise<void>((res) => (release = res))
        const victim = server!.proc
        process.kill(victim.pid, 'SIGKILL')
        await victim.exited
        log(`kill ${k + 1}/${opts.kills} after ${done} answered orders (pid ${victim.pid})`)
        await start()
        // On the fresh restart (the server recovered the WAL itself), check the file from a
        // second connection while the server runs.
        const problem = integrity(dataDir)
        integrityChecks++
        if (problem) fail(r, `after kill ${k + 1}: ${problem}`)
        release()
      }
    }
    await Promise.all([killer(), ...Array.from({ length: opts.concurrency ?? 16 }, worker)])
    r.notes.push(`${integrityChecks} integrity checks after kills`)

    // Classify the answers.
    const byPhone = new Map<string, Outcome>()
    const committedIds = new Map<string, string>() // id → phone
    let ambiguousCount = 0
    let recoveredByDedup = 0
    let replayed = 0
    for (const [i, o] of outcomes.entries()) {
      const spec = specs[i]!
      r.tried++
      if (!o) {
        fail(r, `order ${i} never answered`)
        continue
      }
      byPhone.set(spec.phone, o)
      if (o.ambiguous) ambiguousCount++
      if (o.replayed) replayed++
      if (o.replayed && !o.ambiguous) fail(r, `order ${i} (${spec.phone}): a replayed 201 on its first attempt`)
      if (o.status === 201 && o.id) committedIds.set(o.id, spec.phone)
      else if (o.status === 409 && o.code === 'DUPLICATE_ORDER' && o.ambiguous && !spec.idempotencyKey)
        recoveredByDedup++
      else
        fail(
          r,
          `order ${i} (${spec.phone}) ` +
            `answered ${o.status} ${o.code ?? ''}${o.ambiguous ? ' after a cut connection' : ''}`,
        )
    }
    r.notes.push(
      `${ambiguousCount} orders lost their answer to a kill and were retried; ` +
        `the first attempt had committed for ${replayed} (Idempotency-Key replay) ` +
        `+ ${recoveredByDedup} (409 DUPLICATE_ORDER)`,
    )

    // Every order as the API lists it.
    const listed: { id: string; customerPhone: string }[] = []
    let total = -1
    for (let offset = 0; ; offset += 100) {
      const [res, body] = await call('GET', `/api/v1/orders?limit=100&offset=${offset}`)
      if (res.status !== 200) throw new Error(`list orders: ${res.status} ${JSON.stringify(body)}`)
      total = body.total
      listed.push(...body.data)
      if (body.data.length < 100) break
    }
    const phonesListed = new Map<string, string[]>()
    for (const o of listed) phonesListed.set(o.customerPhone, [...(phonesListed.get(o.customerPhone) ?? []), o.id])
    for (const [phone, ids] of phonesListed) {
      if (ids.length > 1) {
        r.duplicates += ids.length - 1
        fail(r, `${ids.length} orders for ${phone}: ${ids.join(', ')}`)
      }
      if (!byPhone.has(phone)) fail(r, `an order for ${phone}, which the runner never sent`)
    }
    const expected = committedIds.size + recoveredByDedup
    if (total !== expected) fail(r, `list total ${total}, expected ${expected}`)
    if (listed.length !== total) fail(r, `list pages hold ${listed.length} orders, total says ${total}`)

    // Every 201 exists, by id, once; the dedup-recovered ones exist once by phone.
    const allIds = new Map<string, string>(committedIds)
    for (const [id, phone] of committedIds) {
      const [res, body] = await call('GET', `/api/v1/orders/${id}`)
      if (res.status !== 200 || body.data.customerPhone !== phone) {
        r.ordersLost++
        fail(r, `order ${id} (${phone}) answered 201 but GET by id gives ${res.status}`)
      }
    }
    for (const [phone, o] of byPhone) {
      if (o.status === 409 && o.ambiguous) {
        const ids = phonesListed.get(phone) ?? []
        if (ids.length === 0) {
          r.ordersLost++
          fail(r, `${phone}: 409 DUPLICATE_ORDER on retry, but no order exists`)
        } else allIds.set(ids[0]!, phone)
      }
    }

    // Events: wait (bounded) for every order's order.created to arrive at least once.
    const seenOrders = new Map<string, number>()
    const seenMessages = new Set<string>()
    let scanned = 0
    let badSignatures = 0
    const scan = () => {
      for (; scanned < receiver.received.length; scanned++) {
        const msg = receiver.received[scanned]!
        try {
          const payload = verify(secret, msg) as { type: string; data: { id: string } }
          seenMessages.add(msg.id)
          if (payload.type === 'order.created')
            seenOrders.set(payload.data.id, (seenOrders.get(payload.data.id) ?? 0) + 1)
        } catch {
          badSignatures++
        }
      }
    }
    const missing = () => [...allIds.keys()].filter((id) => !seenOrders.has(id))
    const until = Date.now() + (opts.eventTimeoutMs ?? 60_000)
    const waitStart = Date.now()
    for (;;) {
      scan()
      if (missing().length === 0 || Date.now() > until) break
      await Bun.sleep(100)
    }
    r.notes.push(`events complete ${((Date.now() - waitStart) / 1000).toFixed(1)} s after the last order`)
    if (badSignatures) fail(r, `${badSignatures} webhook requests failed signature verification`)
    const lost = missing()
    r.eventsLost = lost.length
    if (lost.length)
      fail(r, `${lost.length} orders without an order.created event, e.g. ${lost.slice(0, 5).join(', ')}`)
    const redelivered = [...seenOrders.values()].filter((n) => n > 1).length
    r.notes.push(
      `${receiver.received.length} webhook requests, ${seenMessages.size} distinct ` +
        `webhook-ids, ${seenOrders.size} distinct orders; ${redelivered} events arrived more than once (at ` +
        'least once)',
    )
    for (const id of seenOrders.keys())
      if (!allIds.has(id)) fail(r, `event for order ${id}, which no answer or list accounts for`)

    // Graceful stop, then the file once more.
    const last = server!.proc
    process.kill(last.pid, 'SIGTERM')
    await last.exited
    server = undefined
    const problem = integrity(dataDir)
    if (problem) fail(r, `after the final stop: ${problem}`)
    const db = new Database(path.join(dataDir, 'storefront.db'), { readonly: true })
    const dupRows = db
      .query<{ n: number }, []>(
        'SELECT count(*) AS n FROM (SELECT customer_phone FROM orders GROUP BY store_id, customer_phone ' +
          'HAVING count(*) > 1)',
      )
      .get()!.n
    db.close()
    if (dupRows) fail(r, `${dupRows} phones with more than one order in the database file`)
  })

  if (server) {
    process.kill(server.proc.pid, 'SIGKILL')
    await server.proc.exited
  }
  receiver.stop()
  rmSync(dataDir, { recursive: true, force: true })
  return r
}

/** `undefined` when the database file is sound, else what is wrong. */
export function integrity(dataDir: string): string | undefined {
  const db = new Database(path.join(dataDir, 'storefront.db'))
  try {
    db.exec('PRAGMA busy_timeout = 5000')
    const check = db
      .query<{ integrity_check: string }, []>('PRAGMA integrity_check')
      .all()
      .map((row) => row.integrity_check)
    if (check.length !== 1 || check[0] !== 'ok') return `integrity_check: ${check.slice(0, 5).join('; ')}`
    const fk = db.query('PRAGMA foreign_key_check').all()
    if (fk.length) return `foreign_key_check: ${fk.length} rows, e.g. ${JSON.stringify(fk[0])}`
    return undefined
  } finally {
    db.close()
  }
}
