/**
 * The load generator of bench/mixed.ts (a child process, pinned to the load CPU): MIXED_SPEC
 * (JSON) → `connections` keep-alive loops for `durationSec`, each request drawn at random from
 * the weighted endpoints over several stores; prints per-endpoint latency percentiles (ms,
 * as the client sees them) and statuses as one JSON object on stdout.
 */
import { percentile } from './lib/percentile'
interface StoreSpec {
  storeId: string
  slug: string
  key: string
  productIds: string[]
  variantIds: string[]
  shippingId: string
  customerId: string
}
interface Spec {
  base: string
  connections: number
  durationSec: number
  stores: StoreSpec[]
  weights: Record<string, number>
}
const spec = JSON.parse(process.env.MIXED_SPEC!) as Spec

type Req = { url: string; init: RequestInit }
let phone = 2_000_000 + Math.floor(Math.random() * 1_000_000)
const pick = <T>(a: T[]) => a[Math.floor(Math.random() * a.length)]!
const auth = (s: StoreSpec, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${s.key}`, ...extra })

const make: Record<string, (s: StoreSpec) => Req> = {
  'GET products?limit=50': (s) => ({ url: `/api/v1/products?limit=50`, init: { headers: auth(s) } }),
  'GET products/:id': (s) => ({ url: `/api/v1/products/${pick(s.productIds)}`, init: { headers: auth(s) } }),
  'GET stores/:slug': (s) => ({ url: `/api/v1/stores/${s.slug}`, init: {} }),
  'GET /s/:slug': (s) => ({ url: `/s/${s.slug}`, init: { headers: { 'accept-encoding': 'gzip' } } }),
  'GET orders?limit=50': (s) => ({ url: `/api/v1/orders?limit=50`, init: { headers: auth(s) } }),
  'GET customers/:id': (s) => ({ url: `/api/v1/customers/${s.customerId}`, init: { headers: auth(s) } }),
  'POST /api/orders': (s) => ({
    url: '/api/orders',
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        storeId: s.storeId,
        name: 'Mixed Buyer',
        address: '1 Main St',
        phone: `+1415${(phone++ % 8_000_000) + 2_000_000}`,
        items: [{ variantId: pick(s.variantIds), quantity: 1 }],
        shippingOptionId: s.shippingId,
      }),
    },
  }),
  'PUT products/:id': (s) => ({
    url: `/api/v1/products/${pick(s.productIds)}`,
    init: {
      method: 'PUT',
      headers: auth(s, { 'content-type': 'application/json' }),
      body: JSON.stringify({ price: 10 + Math.floor(Math.random() * 9000) / 100 }),
    },
  }),
}
const names = Object.keys(spec.weights)
const cum: number[] = []
let total = 0
for (const n of names) cum.push((total += spec.weights[n]!))
const choose = () => {
  const r = Math.random() * total
  return names[cum.findIndex((c) => r < c)]!
}

const lat = new Map<string, number[]>(names.map((n) => [n, []]))
const statuses = new Map<string, Record<string, number>>(names.map((n) => [n, {}]))
let errors = 0
const end = performance.now() + spec.durationSec * 1000
async function loop() {
  while (performance.now() < end) {
    const name = choose()
    const req = make[name]!(pick(spec.stores))
    const t0 = performance.now()
    try {
      const res = await fetch(spec.base + req.url, {
        ...req.init,
        keepalive: true,
        tls: { rejectUnauthorized: false },
      } as RequestInit)
      await res.arrayBuffer()
      lat.get(name)!.push(performance.now() - t0)
      const st = statuses.get(name)!
      st[res.status] = (st[res.status] ?? 0) + 1
    } catch {
      errors++
    }
  }
}
const started = performance.now()
await Promise.all(Array.from({ length: spec.connections }, loop))
const elapsed = (performance.now() - started) / 1000
const out: Record<string, unknown> = { elapsed, errors, endpoints: {} }
for (const n of names) {
  const a = lat.get(n)!.sort((x, y) => x - y)
  const pct = (p: number) => percentile(a, p)
  ;(out.endpoints as Record<string, unknown>)[n] = {
    n: a.length,
    p50: pct(50),
    p99: pct(99),
    statuses: statuses.get(n),
  }
}
process.stdout.write(JSON.stringify(out))
