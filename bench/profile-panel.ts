/**
 * In-process CPU cost of the panel's busiest pages, signed in (no TLS, no socket): the orders
 * inbox, the dashboard and the newest order's page of a store with 2,000 orders on the pro plan, each request through
 * `app.handle` with the session cookie, N times after a warm-up, µs of process CPU per request.
 * Not a registered bench (bench/panel-pages.ts is, over TLS): a tool for finding where the
 * time goes, e.g. `bun --cpu-prof-md bench/profile-panel.ts 2000 dashboard`.
 * Args: a count, page names to run (default all).
 */
import { Database } from 'bun:sqlite'
import path from 'node:path'
import { BENCH_PASSWORD, fillOrders, seed, seedOwner, tempDir } from './lib'
import { testConfig } from '../src/config'
import { createDeps, closeDeps } from '../src/deps'
import { createApp } from '../src/app'

const args = process.argv.slice(2)
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 2000)
const only = args.filter((a) => !/^\d+$/.test(a) && !a.startsWith('--'))
const ORIGIN = 'http://localhost'

const dataDir = tempDir()
const seeded = await seed(dataDir, { products: 20, variantsPerProduct: 2, categories: 2, scopes: ['orders:read'] })
const email = await seedOwner(dataDir, seeded.storeId)
const sdb = new Database(path.join(dataDir, 'storefront.db'))
const variants = sdb
  .query<{ id: string; productId: string; price: number }, []>(
    'SELECT id, product_id AS productId, price FROM variants',
  )
  .all()
sdb.close()
await fillOrders(dataDir, seeded.storeId, variants, 2000)

const deps = createDeps(testConfig({ dataDir, logLevel: 'silent' }))
const app = createApp(deps)
const jar = new Map<string, string>()
const keep = (res: Response) => {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';')
    const eq = pair!.indexOf('=')
    jar.set(pair!.slice(0, eq), pair!.slice(eq + 1))
  }
}
const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
const login = await app.handle(new Request(`${ORIGIN}/admin/login`))
keep(login)
const token = /name="_csrf" value="([^"]+)"/.exec(await login.text())?.[1] ?? ''
const signIn = await app.handle(
  new Request(`${ORIGIN}/admin/login`, {
    method: 'POST',
    body: new URLSearchParams({ _csrf: token, email, password: BENCH_PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, cookie: cookie() },
  }),
)
keep(signIn)
if (!jar.has('__Host-sid')) throw new Error(`sign-in failed: ${signIn.status}`)

const newest = new Database(path.join(dataDir, 'storefront.db'))
  .query<{ id: string }, []>('SELECT id FROM orders ORDER BY created_at DESC LIMIT 1')
  .get()!
const pages: Record<string, string> = {
  inbox: '/admin/orders',
  dashboard: '/admin',
  order: `/admin/orders/${newest.id}`,
}
for (const [name, p] of Object.entries(pages)) {
  if (only.length && !only.includes(name)) continue
  const req = () => new Request(ORIGIN + p, { headers: { cookie: cookie() } })
  let bytes = 0
  for (let i = 0; i < 200; i++) {
    const r = await app.handle(req())
    if (r.status !== 200) throw new Error(`${name}: ${r.status}`)
    bytes = (await r.arrayBuffer()).byteLength
  }
  const before = process.cpuUsage()
  for (let i = 0; i < N; i++) await (await app.handle(req())).arrayBuffer()
  const used = process.cpuUsage(before)
  console.log(
    `${name.padEnd(10)} ${((used.user + used.system) / N).toFixed(1).padStart(8)} µs CPU/request  (${bytes} B)`,
  )
}
closeDeps(deps)
