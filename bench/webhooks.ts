/**
 * Webhooks: what delivery costs and how fast it is, against the real server (child process,
 * TLS, FULL-synchronous SQLite) and a loopback receiver in this process.
 *
 * 1. Order-created-to-receipt latency: `POST /api/orders` at a fixed 200 orders/s (open loop:
 *    one request every 5 ms whether or not earlier ones answered) with one active endpoint
 *    subscribed to `order.created`; latency is receipt at the receiver minus the moment the POST
 *    was sent (and minus the moment its 201 arrived). Every receipt is checked for its order id;
 *    a sample is verified with the `standardwebhooks` package.
 * 2. Order-post throughput with one active webhook vs none (wrk, distinct phones per request so
 *    deduplication never answers 409), rounds on the same server in ABBA BAAB order by toggling the
 *    endpoint's `isActive`, mean of each, waiting for the outbox to drain after each round with it.
 *
 * Targets: p50 < 1 s at 200 orders/s (we aim far lower), and throughput with a webhook ≥ 90 %
 * of without.
 */
import { Webhook } from 'standardwebhooks'
import {
  runStandalone,
  checkoutScript,
  cpuPlan,
  cpuTimeMs,
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

const RATE = 200
const TARGET_P50_MS = 1000
const TARGET_RATIO = 0.9

interface Receipt {
  at: number
  body: string
  headers: Record<string, string>
}

export async function run(opts: BenchOpts): Promise<BenchResult> {
  const dataDir = tempDir()
  const seeded = await seed(dataDir, { products: 5, variantsPerProduct: 2, categories: 1 })
  const server = await startServer({
    dataDir,
    env: {
      WEBHOOK_ALLOW_PRIVATE: '1',
      RATE_LIMIT_ORDERS_PER_MIN: '1000000000',
      RATE_LIMIT_KEY_PER_MIN: '1000000000',
      LOG_LEVEL: 'info',
    },
  })
  // The receiver: records the arrival time of each order id.
  const receipts = new Map<string, Receipt>()
  let received = 0
  const seenIds = new Set<string>()
  let duplicates = 0
  const receiver = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const body = await req.text()
      const at = performance.now()
      received++
      const msgId = req.headers.get('webhook-id') ?? ''
      if (seenIds.has(msgId)) duplicates++
      else seenIds.add(msgId)
      const id = (JSON.parse(body) as { data: { id: string } }).data.id
      if (!receipts.has(id)) receipts.set(id, { at, body, headers: Object.fromEntries(req.headers.entries()) })
      return new Response(null, { status: 204 })
    },
  })
  const auth = { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' }
  const api = (method: string, p: string, body?: unknown) =>
    fetchOnce(server.url + p, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) })
  const notes: string[] = [
    cpuPlan().description,
    'receiver: Bun.serve on 127.0.0.1 in the bench process (plain HTTP); server: TLS, DB_SYNCHRONOUS=FULL',
  ]
  try {
    const created = await api('POST', '/api/v1/webhooks', {
      url: `http://127.0.0.1:${receiver.port}/hook`,
      events: ['order.created'],
    })
    if (created.status !== 201) throw new Error(`register webhook: ${created.status} ${created.text}`)
    const hook = JSON.parse(created.text).data as { id: string; secret: string }
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

    // ---- 1. latency at a fixed rate ----
    const seconds = opts.quick ? 3 : 10
    const n = RATE * seconds
    const sentAt: number[] = []
    const answeredAt: number[] = []
    const ids: (string | undefined)[] = []
    let failures = 0
    const inflight: Promise<void>[] = []
    // Warm-up: JIT, TLS sessions, the receiver connection.
    for (let i = 0; i < 50; i++)
      await fetchOnce(`${server.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: orderBody(),
      })
    await sleep(300)
    const cpuA = cpuTimeMs(server.pid)
    const t0 = performance.now()
    for (let i = 0; i < n; i++) {
      const due = t0 + (i * 1000) / RATE
      const wait = due - performance.now()
      if (wait > 1) await sleep(wait)
      sentAt[i] = performance.now()
      inflight.push(
        fetch(`${server.url}/api/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: orderBody(),
          tls: { rejectUnauthorized: false },
        } as RequestInit).then(async (res) => {
          answeredAt[i] = performance.now()
          const text = await res.text()
          if (res.status !== 201) failures++
          else ids[i] = (JSON.parse(text) as { id: string }).id
        }),
      )
    }
    const sendSpan = performance.now() - t0
    await Promise.all(inflight)
    const until = performance.now() + 30_000
    while (ids.some((id) => id && !receipts.has(id)) && performance.now() < until) await sleep(10)
    const cpuWithHook = (cpuTimeMs(server.pid) - cpuA) / n // ms of server CPU per order, deliveries included

    // The same fixed-rate run with the endpoint inactive: server CPU per order without delivery.
    const fixedRate = async () => {
      const c0 = cpuTimeMs(server.pid)
      const start = performance.now()
      const pending: Promise<unknown>[] = []
      for (let i = 0; i < n; i++) {
        const wait = start + (i * 1000) / RATE - performance.now()
        if (wait > 1) await sleep(wait)
        pending.push(
          fetchOnce(`${server.url}/api/orders`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: orderBody(),
          }),
        )
      }
      await Promise.all(pending)
      await sleep(200)
      return (cpuTimeMs(server.pid) - c0) / n
    }
    const fromSend: number[] = []
    const from201: number[] = []
    let missing = 0
    ids.forEach((id, i) => {
      if (!id) return
      const r = receipts.get(id)
      if (!r) return void missing++
      fromSend.push(r.at - sentAt[i]!)
      from201.push(r.at - answeredAt[i]!)
    })
    fromSend.sort((a, b) => a - b)
    from201.sort((a, b) => a - b)
    const postLat = ids.map((_, i) => answeredAt[i]! - sentAt[i]!).sort((a, b) => a - b)
    // Signature check on a sample of receipts.
    let verified = 0
    for (const id of ids.filter(Boolean).slice(0, 20)) {
      const r = receipts.get(id!)!
      new Webhook(hook.secret).verify(r.body, r.headers)
      verified++
    }

    // ---- 2. order-post throughput with and without the webhook ----
    const setActive = async (isActive: boolean) => {
      const r = await api('PUT', `/api/v1/webhooks/${hook.id}`, { isActive })
      if (r.status !== 200) throw new Error(`toggle webhook: ${r.status} ${r.text}`)
    }
    await setActive(false)
    const cpuWithout = await fixedRate()
    await setActive(true)
    const drained = async () => {
      const stop = performance.now() + 60_000
      for (;;) {
        const p = JSON.parse(
          (await api('GET', `/api/v1/webhooks/${hook.id}/deliveries?status=pending&limit=1`)).text,
        ).total
        const s = JSON.parse(
          (await api('GET', `/api/v1/webhooks/${hook.id}/deliveries?status=sending&limit=1`)).text,
        ).total
        if (p + s === 0) return
        if (performance.now() > stop) throw new Error(`outbox did not drain: ${p} pending, ${s} sending`)
        await sleep(50)
      }
    }
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
    // The Bun fallback can't vary bodies: it would hit deduplication. Throughput needs wrk.
    const canVary = !opts.bunLoad
    const without: LoadResult[] = []
    const withHook: LoadResult[] = []
    const duringRound: number[] = []
    let deliveredInRounds = 0
    let postedInRounds = 0
    if (canVary) {
      await setActive(false)
      // A full unmeasured round first: throughput falls steeply while the database outgrows
      // SQLite's 64 MB page cache (the first measured round ran ~20 % faster than the rest),
      // and the comparison is meant for the steady state after that.
      await load({ ...common, luaScript: lua() })
      // ABBA BAAB order: the database grows with every round and throughput drifts down with
      // it, so plain alternation (off first in every pair) would favour the rounds without a
      // webhook; balanced, a linear (and a quadratic) drift cancels out of the means. Four
      // rounds each, because single 10 s rounds on these VMs vary by ±15 %.
      const order = opts.quick ? [false, true] : [false, true, true, false, true, false, false, true]
      for (const active of order) {
        await setActive(active)
        const before = received
        const r = await load({ ...common, luaScript: lua() })
        if (!active) {
          without.push(r)
          continue
        }
        withHook.push(r)
        duringRound.push((received - before) / opts.duration)
        await drained() // while still active: an inactive endpoint's rows wait
        await setActive(false)
        deliveredInRounds += received - before
        postedInRounds += r.requests - r.non2xx
      }
    } else {
      notes.push(
        'throughput comparison skipped: it needs wrk (distinct bodies per request); ' +
          'install with apt-get install -y wrk',
      )
    }
    const best = (rs: LoadResult[]) => (rs.length ? rs.reduce((a, b) => (b.rps > a.rps ? b : a)) : undefined)
    const mean = (rs: LoadResult[]) => rs.reduce((a, r) => a + r.rps, 0) / rs.length
    const w0 = best(without)
    const w1 = best(withHook)
    const ratio = w0 && w1 ? mean(withHook) / mean(without) : NaN
    const bestRatio = w0 && w1 ? w1.rps / w0.rps : NaN
    const p50 = pct(fromSend, 50)
    notes.push(
      `latency run: ${n} orders sent in ${(sendSpan / 1000).toFixed(2)} s ` +
        `(${fmtInt(n / (sendSpan / 1000))}/s achieved)`,
    )
    const pass =
      p50 < TARGET_P50_MS && missing === 0 && failures === 0 && (Number.isNaN(ratio) || ratio >= TARGET_RATIO)

    const rows: Record<string, string>[] = [
      {
        measure: `order → receipt @ ${RATE}/s (${n} orders)`,
        p50: fmtMs(p50),
        p90: fmtMs(pct(fromSend, 90)),
        p99: fmtMs(pct(fromSend, 99)),
        max: fmtMs(fromSend[fromSend.length - 1] ?? NaN),
        notes: `missing ${missing}, non-201 ${failures}, ${verified} signatures verified`,
      },
      {
        measure: '201 answered → receipt',
        p50: fmtMs(pct(from201, 50)),
        p90: fmtMs(pct(from201, 90)),
        p99: fmtMs(pct(from201, 99)),
        max: fmtMs(from201[from201.length - 1] ?? NaN),
        notes: 'negative: the webhook arrived before the 201',
      },
      {
        measure: 'POST /api/orders latency @ 200/s',
        p50: fmtMs(pct(postLat, 50)),
        p90: fmtMs(pct(postLat, 90)),
        p99: fmtMs(pct(postLat, 99)),
        max: fmtMs(postLat[postLat.length - 1] ?? NaN),
        notes: '',
      },
    ]
    rows.push({
      measure: `server CPU per order @ ${RATE}/s`,
      p50: '',
      p90: '',
      p99: '',
      max: '',
      notes:
        `with webhook ${fmtUs(cpuWithHook * 1000)} (delivery included), ` +
        `without ${fmtUs(cpuWithout * 1000)}: +${fmtPct(cpuWithHook / cpuWithout - 1)}`,
    })
    const tput = [w0 && { orders: 'no webhook', r: w0 }, w1 && { orders: 'one active webhook', r: w1 }]
      .filter((x): x is { orders: string; r: LoadResult } => Boolean(x))
      .map(({ orders, r }) => ({
        measure: `throughput: ${orders} (best round)`,
        p50: fmtMs(r.p50),
        p90: fmtMs(r.p90),
        p99: fmtMs(r.p99),
        max: '',
        notes:
          `${fmtInt(r.rps)} orders/s, server CPU/req ${fmtUs(r.cpuUsPerReq)}, ` +
          `CPU use ${fmtPct(r.serverCpuShare)}, non-2xx ${r.non2xx}, errors ${r.errors}`,
      }))
    if (w0 && w1)
      notes.push(
        `with webhook / without: ${fmtPct(ratio)} of the throughput, ` +
          `mean of the rounds (target ≥ ${fmtPct(TARGET_RATIO)}); ` +
          `best round / best round ${fmtPct(bestRatio)}; ${fmtInt(deliveredInRounds)} deliveries received ` +
          `for ${fmtInt(postedInRounds)} orders wrk counted with the webhook on (wrk does not count the ` +
          'requests still in flight when a round ends)',
      )
    if (duringRound.length)
      notes.push(
        'deliveries received while wrk ran (per second, each ' +
          `round): ${duringRound.map(fmtInt).join(', ')} (the governor's WEBHOOK_BUSY_RATE bounds them ` +
          'under pressure)',
      )
    notes.push(
      `rounds (orders/s): without ${without.map((r) => fmtInt(r.rps)).join(', ')}; ` +
        `with ${withHook.map((r) => fmtInt(r.rps)).join(', ')}`,
    )
    if (w0 && w1) {
      // Server CPU per order, mean over the rounds: what a saturated core's throughput follows,
      // and unaffected by CPU time the VM loses to its neighbours (which swings req/s).
      const cpu = (rs: LoadResult[]) => rs.reduce((a, r) => a + r.cpuUsPerReq, 0) / rs.length
      notes.push(
        `server CPU per order, mean of the rounds: without ${fmtUs(cpu(without))}, ` +
          `with ${fmtUs(cpu(withHook))} (CPU-predicted throughput ` +
          `ratio ${fmtPct(cpu(without) / cpu(withHook))})`,
      )
    }
    notes.push(
      `receiver: ${fmtInt(received)} requests, ${duplicates} repeated webhook-ids (at-least-once: ` +
        'repeats happen only after a lost answer)',
    )
    notes.push(
      `targets: p50 order→receipt < ${TARGET_P50_MS} ms at ${RATE}/s; ` +
        `throughput with a webhook ≥ ${fmtPct(TARGET_RATIO)} of without`,
    )
    return {
      name: 'webhooks',
      title:
        `Webhooks: order.created delivery latency at ${RATE} orders/s and order-post throughput ` +
        `with/without an endpoint (${opts.connections} connections, ${opts.duration} s rounds)`,
      rows: [...rows, ...tput],
      notes,
      pass,
      summary:
        `webhooks: order→receipt p50 ${fmtMs(p50)}, p99 ${fmtMs(pct(fromSend, 99))} @ ${RATE}/s; ` +
        `throughput with webhook ${Number.isNaN(ratio) ? 'n/a' : fmtPct(ratio)} of without`,
    }
  } finally {
    receiver.stop(true)
    await server.stop()
  }
}

if (import.meta.main) await runStandalone(run)
