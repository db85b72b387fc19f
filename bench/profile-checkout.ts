/**
 * In-process CPU cost of checkout and of webhook delivery (no TLS, no HTTP server): N orders
 * (2 lines + shipping, distinct phones) through `app.handle`, 50 at a time, without and with
 * one active endpoint (a loopback receiver in a child process, so its CPU isn't counted).
 * Prints µs of process CPU per order. Not a registered bench: a tool for finding where the
 * time goes, e.g. `bun --cpu-prof-md bench/profile-checkout.ts --hook 20000`.
 * Flags: --hook / --nohook (one mode only), --rounds N (alternating rounds), --nosend (events
 * are written but the dispatcher is never woken: the outbox write alone), --normal
 * (DB_SYNCHRONOUS=NORMAL), --ddl "SQL; SQL" (applied to the seeded database first, to compare
 * schema variants), --tracked (stock tracked on both variants, as the orders bench's tracked
 * phases). Also prints the outbox/log row counts, the WAL file size after each round, and the
 * WAL frames (pages) written per order: SQLite's own checkpoints are off here (no server, no
 * checkpointer), so the WAL only grows and its growth over a round is what the orders wrote.
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { seed, tempDir } from './lib'
import { testConfig } from '../src/config'
import { createDeps, closeDeps } from '../src/deps'
import { createApp } from '../src/app'

const args = process.argv.slice(2)
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 20000)
const C = 50
const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 1
const base = args.includes('--hook') ? [true] : args.includes('--nohook') ? [false] : [false, true]
// Alternating rounds (off, on, off, on…) so drift (a growing DB, a noisy neighbour) hits both alike.
const modes = Array.from({ length: rounds }, () => base).flat()
// --ddl "SQL": applied to the seeded database first, to compare schema variants.
const ddl = args.includes('--ddl') ? args[args.indexOf('--ddl') + 1]! : ''
const sync = args.includes('--normal') ? 'NORMAL' : 'FULL'

const dataDir = tempDir()
const seeded = await seed(dataDir, { products: 5, variantsPerProduct: 2, categories: 1 })
const sdb = new Database(path.join(dataDir, 'storefront.db'))
const shippingId = 'shipbench'
if (ddl.trim()) sdb.run(ddl) // several statements, trigger bodies included
if (args.includes('--tracked'))
  for (const v of seeded.variantIds.slice(0, 2)) sdb.run('UPDATE variants SET stock = 1000000000 WHERE id = ?', [v])
sdb.run(
  'INSERT INTO shipping_options (id, store_id, name, price, is_active, created_at, updated_at) ' +
    "VALUES (?, ?, 'Courier', 499, 1, 0, 0)",
  [shippingId, seeded.storeId],
)
sdb.close()

const receiverSrc = path.join(dataDir, 'receiver.ts')
await Bun.write(
  receiverSrc,
  "const s = Bun.serve({ port: 0, hostname: '127.0.0.1', async fetch(req) { await req.arrayBuffer(); " +
    'return new Response(null, { status: 204 }) } }); console.log(s.port)\n',
)
const recv = Bun.spawn(['bun', receiverSrc], { stdout: 'pipe' })
const reader = recv.stdout.getReader()
const port = Number(new TextDecoder().decode((await reader.read()).value).trim())

const config = testConfig({
  dataDir,
  logLevel: 'silent',
  dbSynchronous: sync,
  webhookAllowPrivate: true,
  rateLimitOrders: 1e9,
  rateLimitKeyPerMin: 1e9,
} as never)
const deps = createDeps(config)
const app = createApp(deps)
deps.db.$client.run('PRAGMA wal_autocheckpoint = 0') // the WAL only grows: its growth is the orders' pages
const pageSize = deps.db.$client.query<{ page_size: number }, []>('PRAGMA page_size').get()!.page_size
const walFile = path.join(dataDir, 'storefront.db-wal')
const auth = { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' }
const res = await app.handle(
  new Request('http://localhost/api/v1/webhooks', {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['order.created'] }),
  }),
)
if (res.status !== 201) throw new Error(`webhook: ${res.status} ${await res.text()}`)
const hookId = ((await res.json()) as { data: { id: string } }).data.id
if (args.includes('--nosend')) deps.dispatcher.notify = () => {} // events are written, never sent
const setActive = (on: boolean) =>
  deps.db.$client.run('UPDATE webhooks SET is_active = ? WHERE id = ?', [on ? 1 : 0, hookId])

const [v1, v2] = seeded.variantIds
let phone = 2_000_000
const items = `[{"variantId":"${v1}","quantity":1},{"variantId":"${v2}","quantity":2}]`
const body = () =>
  `{"storeId":"${seeded.storeId}","name":"Bench Buyer","address":"1 Main St, Springfield",` +
  `"phone":"+1415${++phone}","items":${items},"shippingOptionId":"${shippingId}","notes":"leave at the door"}`

async function round(n: number): Promise<void> {
  let next = 0
  let bad = 0
  const worker = async () => {
    while (next < n) {
      next++
      const r = await app.handle(
        new Request('http://localhost/api/orders', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.0.0.1' },
          body: body(),
        }),
      )
      if (r.status !== 201) bad++
      await r.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: C }, worker))
  if (bad) console.log(`${bad} non-201`)
}

await round(2000) // warm-up
for (const hook of modes) {
  setActive(hook)
  await deps.dispatcher.idle()
  const wal0 = Bun.file(walFile).size
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  await round(N)
  await deps.dispatcher.idle()
  const wall = performance.now() - t0
  const c = process.cpuUsage(c0)
  const outboxLeft = deps.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM webhook_outbox').get()!.n
  const logRows = deps.db.$client.query<{ n: number }, []>('SELECT count(*) AS n FROM webhook_deliveries').get()!.n
  console.log(`  outbox ${outboxLeft}, log ${logRows}`)
  const walBytes = Bun.file(walFile).size
  const walKb = walBytes / 1024
  const frames = (walBytes - wal0) / (pageSize + 24) / N
  const sent = deps.db.$client
    .query<{ n: number }, []>("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded'")
    .get()!.n
  console.log(
    `${hook ? 'hook  ' : 'nohook'} ${sync}: ${((c.user + c.system) / N).toFixed(1)} µs CPU/order ` +
      `(user ${(c.user / N).toFixed(1)}, ` +
      `sys ${(c.system / N).toFixed(1)}), ${Math.round((N / wall) * 1000)} orders/s wall, ` +
      `delivered total ${sent}, WAL ${walKb.toFixed(0)} KB, ${frames.toFixed(2)} WAL pages/order ` +
      `(${((frames * pageSize) / 1024).toFixed(1)} KB)`,
  )
}
app.gate.close()
closeDeps(deps)
recv.kill()
