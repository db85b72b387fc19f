/**
 * Push fan-out: what 100 subscribed devices cost the checkout, and how soon a push leaves after
 * the order's 201. Against the real server (child process, TLS, FULL-synchronous SQLite) and a
 * fake push service on loopback in this process (plain HTTP: PUSH_ALLOW_PRIVATE=1).
 *
 * 1. Latency: `POST /api/orders` at a fixed 10 orders/s (open loop) with 100 devices of the
 *    store's owner subscribed; every push request the service receives is decrypted (as the
 *    browser would, `http_ece`) to its order, and timed from that order's 201.
 * 2. Throughput: order posts with the 100 devices wanting new orders vs not (the owner's
 *    preference toggled between rounds, so the same server and database serve both), rounds in
 *    ABBA BAAB order like the webhooks bench, the queue drained after each round with devices.
 *
 * Target: throughput with 100 devices ≥ 90 % of without (mean of the rounds).
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import ece from 'http_ece'
import { createECDH, randomBytes, type ECDH } from 'node:crypto'
import {
  runStandalone,
  checkoutScript,
  cpuPlan,
  fetchOnce,
  fmtInt,
  fmtMs,
  fmtPct,
  fmtUs,
  load,
  percentile as pct,
  seed,
  sleep,
  startServer,
  tempDir,
  type BenchOpts,
  type BenchResult,
  type LoadResult,
} from './lib'

const DEVICES = 100
const RATE = 10
const TARGET_RATIO = 0.9

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 5, variantsPerProduct: 2, categories: 1 })
  // The fake push service: arrival time and body per request, by device path.
  const arrivals: { device: number; at: number; body: Buffer }[] = []
  const service = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = Buffer.from(await req.arrayBuffer())
      arrivals.push({ device: Number(new URL(req.url).pathname.slice(3)), at: performance.now(), body })
      return new Response(null, { status: 201 })
    },
  })
  const devices: { ecdh: ECDH; auth: Buffer }[] = []
  const userId = await seedDevices(dataDir, seeded.storeId, service.port!, devices)
  const server = await startServer({
    dataDir,
    env: { PUSH_ALLOW_PRIVATE: '1', RATE_LIMIT_ORDERS_PER_MIN: '1000000000', LOG_LEVEL: 'info' },
  })
  const db = new Database(path.join(dataDir, 'storefront.db'))
  db.exec('PRAGMA busy_timeout = 5000')
  const wants = (on: boolean) =>
    db.run(
      'INSERT INTO push_preferences (user_id, new_orders, updated_at) VALUES (?1, ?2, ?3) ' +
        'ON CONFLICT (user_id) DO UPDATE SET new_orders = ?2',
      [userId, on ? 1 : 0, Date.now()],
    )
  const queued = () =>
    (
      db.query('SELECT (SELECT count(*) FROM push_outbox) + (SELECT count(*) FROM push_deliveries) AS n').get() as {
        n: number
      }
    ).n
  const countOf = (table: string) => JSON.stringify(db.query(`SELECT count(*) AS n FROM ${table}`).get())
  const drained = async () => {
    const stop = performance.now() + 180_000
    while (queued() > 0) {
      if (performance.now() > stop)
        throw new Error(
          `push queue did not drain: ${queued()} rows; deliveries by attempts ${JSON.stringify(
            db
              .query('SELECT attempts, count(*) AS n, min(locked_until) AS l FROM push_deliveries GROUP BY attempts')
              .all(),
          )}; received ${arrivals.length}; orders ${countOf('orders')}; outbox ${countOf('push_outbox')}; ` +
            `subs ${countOf('push_subscriptions')}`,
        )
      await sleep(50)
    }
  }
  const variantId = seeded.variantIds[0]!
  let phone = 2_000_000
  const orderBody = () =>
    JSON.stringify({
      storeId: seeded.storeId,
      name: 'Bench Buyer',
      phone: `+1415${++phone}`,
      address: 'Calle 1',
      items: [{ variantId, quantity: 1 }],
    })
  const notes = [
    cpuPlan().description,
    `fake push service: Bun.serve on 127.0.0.1 in the bench process; ${DEVICES} devices of the owner`,
  ]
  try {
    // ---- 1. 201 → push request at a fixed rate ----
    wants(true)
    for (let i = 0; i < 20; i++)
      await fetchOnce(`${server.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: orderBody(),
      })
    await drained()
    arrivals.length = 0
    const seconds = opts.quick ? 3 : 10
    const n = RATE * seconds
    const answered = new Map<string, number>()
    const pending: Promise<void>[] = []
    const t0 = performance.now()
    for (let i = 0; i < n; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now()
      if (wait > 1) await sleep(wait)
      pending.push(
        fetch(`${server.url}/api/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: orderBody(),
          tls: { rejectUnauthorized: false },
        } as RequestInit).then(async (res) => {
          const at = performance.now()
          const body = (await res.json()) as { id: string }
          if (res.status === 201) answered.set(`order-${body.id}`, at)
        }),
      )
    }
    await Promise.all(pending)
    await drained()
    const sendSpan = Math.max(...arrivals.map((a) => a.at)) - t0
    const fromAnswer: number[] = []
    for (const a of arrivals) {
      const d = devices[a.device]!
      const payload = JSON.parse(
        ece.decrypt(a.body, { version: 'aes128gcm', privateKey: d.ecdh, authSecret: d.auth }).toString('utf8'),
      ) as { tag: string }
      const at = answered.get(payload.tag)
      if (at !== undefined) fromAnswer.push(a.at - at)
    }
    fromAnswer.sort((a, b) => a - b)
    const expected = answered.size * DEVICES

    // ---- 2. throughput with and without the devices ----
    let base = 2_500_000
    // A fresh phone per request (each round starts further on): no order is a duplicate.
    const lua = () => checkoutScript(seeded.storeId, variantId, (base += 700_000))
    const common = {
      url: `${server.url}/api/orders`,
      connections: opts.connections,
      durationSec: opts.duration,
      bunLoad: opts.bunLoad,
      serverPid: server.pid,
    }
    const without: LoadResult[] = []
    const withDevices: LoadResult[] = []
    const sentDuring: number[] = []
    const backlog: number[] = []
    if (!opts.bunLoad) {
      wants(false)
      await load({ ...common, luaScript: lua() })
      const order = opts.quick ? [false, true] : [false, true, true, false, true, false, false, true]
      for (const on of order) {
        wants(on)
        const before = arrivals.length
        const r = await load({ ...common, luaScript: lua() })
        if (!on) {
          without.push(r)
          continue
        }
        withDevices.push(r)
        sentDuring.push((arrivals.length - before) / opts.duration)
        backlog.push(queued())
        // A saturated round leaves ~10^5 pushes queued (a row per order, a hundred devices
        // each): minutes of sending, which would run into the next round. The bench discards
        // them; the latency run above measures sending itself.
        db.run('DELETE FROM push_outbox')
        db.run('DELETE FROM push_deliveries')
      }
    } else notes.push('throughput comparison skipped: it needs wrk (distinct bodies per request)')
    const mean = (rs: LoadResult[]) => rs.reduce((a, r) => a + r.rps, 0) / rs.length
    const ratio = without.length && withDevices.length ? mean(withDevices) / mean(without) : NaN
    const rows: Record<string, string>[] = [
      {
        measure: `201 → push request @ ${RATE} orders/s × ${DEVICES} devices`,
        p50: fmtMs(pct(fromAnswer, 50)),
        p90: fmtMs(pct(fromAnswer, 90)),
        p99: fmtMs(pct(fromAnswer, 99)),
        max: fmtMs(fromAnswer[fromAnswer.length - 1] ?? NaN),
        notes: `${fmtInt(fromAnswer.length)} of ${fmtInt(expected)} pushes received and decrypted`,
      },
      ...[
        ['no device wants new orders', without],
        [`${DEVICES} devices`, withDevices],
      ].flatMap(([label, rs]) =>
        (rs as LoadResult[]).length
          ? [
              {
                measure: `checkout: ${label} (mean of ${(rs as LoadResult[]).length} rounds)`,
                p50: fmtMs(mean(rs as LoadResult[]) ? (rs as LoadResult[])[0]!.p50 : NaN),
                p90: '',
                p99: fmtMs((rs as LoadResult[])[0]!.p99),
                max: '',
                notes:
                  `${fmtInt(mean(rs as LoadResult[]))} orders/s; server CPU/order ` +
                  fmtUs((rs as LoadResult[]).reduce((a, r) => a + r.cpuUsPerReq, 0) / (rs as LoadResult[]).length),
              },
            ]
          : [],
      ),
    ]
    notes.push(
      `rounds (orders/s): without ${without.map((r) => fmtInt(r.rps)).join(', ')}; ` +
        `with ${withDevices.map((r) => fmtInt(r.rps)).join(', ')}`,
    )
    if (sentDuring.length)
      notes.push(
        'pushes sent while wrk ran (per second, each ' +
          `round): ${sentDuring.map(fmtInt).join(', ')} (PUSH_BUSY_RATE bounds them under pressure; ` +
          'the rest wait in the queue, a row per order)',
      )
    if (backlog.length)
      notes.push(`queued after each round with devices (outbox + deliveries rows): ${backlog.map(fmtInt).join(', ')}`)
    notes.push(
      `latency run: ${fmtInt(expected)} pushes in ${(sendSpan / 1000).toFixed(1)} s from the first order ` +
        `to the last push (${fmtInt(expected / (sendSpan / 1000))} pushes/s)`,
    )
    notes.push(`target: checkout with ${DEVICES} devices ≥ ${fmtPct(TARGET_RATIO)} of without`)
    const pass = fromAnswer.length === expected && (Number.isNaN(ratio) || ratio >= TARGET_RATIO)
    return {
      name: 'push-fanout',
      title:
        `Push fan-out: ${DEVICES} subscribed devices, 201 → push request at ${RATE} orders/s, ` +
        `checkout with/without them (${opts.connections} connections, ${opts.duration} s rounds)`,
      rows,
      notes,
      pass,
      summary:
        `push fan-out: 201→push p50 ${fmtMs(pct(fromAnswer, 50))}, p99 ${fmtMs(pct(fromAnswer, 99))}; ` +
        `checkout with ${DEVICES} devices ${Number.isNaN(ratio) ? 'n/a' : fmtPct(ratio)} of without`,
    }
  } finally {
    db.close()
    service.stop(true)
    await server.stop()
  }
}

/**
 * The store's owner and `DEVICES` subscriptions of theirs, written before the server starts; returns the owner's id.
 */
async function seedDevices(
  dataDir: string,
  storeId: string,
  port: number,
  out: { ecdh: ECDH; auth: Buffer }[],
): Promise<string> {
  const { testConfig } = await import('../src/config')
  const { createDeps, closeDeps } = await import('../src/deps')
  const { createOwner } = await import('../src/modules/people')
  const { subscribe } = await import('../src/modules/push')
  const deps = createDeps(testConfig({ dataDir, logLevel: 'silent', pushAllowPrivate: true }))
  try {
    const user = createOwner({
      ctx: deps,
      input: { storeId, email: 'push@bench.example', name: 'Bench Owner', passwordHash: null },
    })
    for (let i = 0; i < DEVICES; i++) {
      const ecdh = createECDH('prime256v1')
      ecdh.generateKeys()
      const auth = randomBytes(16)
      out.push({ ecdh, auth })
      await subscribe(
        { ...deps, config: deps.config },
        user.id,
        {
          endpoint: `http://127.0.0.1:${port}/d/${i}`,
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        },
        'bench',
      )
    }
    return user.id
  } finally {
    closeDeps(deps)
  }
}

if (import.meta.main) await runStandalone(run)
