/**
 * `bun bench/mcp-auth.ts [rounds]` — what an assistant's OAuth token costs on /mcp beside an API
 * key, in one run on one app (in-process, `app.handle`, a temp DATA_DIR): a `tools/call` of
 * `get_store` (the /mcp request plus its in-process API request, each through the gate) and a
 * bare `tools/list`, the two credentials interleaved call by call. A key is found through the
 * gate's key cache; a token is looked up at every request (grant, membership, role: a revocation
 * or role change applies to the next call), once for /mcp and once for each tool's API request.
 * Standalone (not in `bun run bench`): it measures per-call CPU, not a server under load.
 */
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApp } from '../src/app'
import { testConfig } from '../src/config'
import { closeDeps, createDeps } from '../src/deps'
import { createLogger } from '../src/lib/log'
import { createKey } from '../src/modules/keys'
import { approveAuthorization, checkAuthorizeRequest, exchangeCode, registerClient } from '../src/modules/oauth'
import { createOwner } from '../src/modules/people'
import { createStore } from '../src/modules/platform-stores/service'
import { printTable } from './lib'
import { createHash, randomBytes } from 'node:crypto'

const rounds = Number(process.argv[2] ?? 2000)
const dataDir = path.join(tmpdir(), `sf-bench-mcp-auth-${process.pid}`)
const config = testConfig({ dataDir, logLevel: 'silent', dbSynchronous: 'NORMAL', rateLimitKey: 1e9 })
const deps = createDeps(config, { log: createLogger('silent') })
const app = createApp(deps)

const store = createStore({ ctx: deps, input: { name: 'Bench', slug: 'bench', plan: 'pro' } })
const owner = createOwner({
  ctx: deps,
  input: { storeId: store.id, email: 'o@example.com', name: 'Owner', passwordHash: 'x' },
})
const key = createKey({ ctx: deps, input: { storeId: store.id, scopes: ['all'] } }).key
const client = registerClient({ ctx: deps, input: { client_name: 'Bench', redirect_uris: ['http://127.0.0.1/cb'] } })
const verifier = randomBytes(32).toString('base64url')
const checked = checkAuthorizeRequest({
  ctx: deps,
  input: {
    params: {
      client_id: client.client_id,
      redirect_uri: 'http://127.0.0.1/cb',
      response_type: 'code',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    },
    resource: 'http://localhost/mcp',
  },
})
if (!('request' in checked)) throw new Error(`authorization request refused: ${checked.fault}`)
const { code } = approveAuthorization({
  ctx: deps,
  input: { request: checked.request, userId: owner.id, storeId: store.id, role: 'owner' },
})
const token = exchangeCode({
  ctx: deps,
  input: { code, client_id: client.client_id, redirect_uri: 'http://127.0.0.1/cb', code_verifier: verifier },
}).access_token

const rpc = (bearer: string, method: string, params: unknown) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })

async function once(bearer: string, method: string, params: unknown): Promise<number> {
  const t = performance.now()
  const res = await app.handle(rpc(bearer, method, params))
  await res.text()
  if (res.status !== 200) throw new Error(`${method}: ${res.status}`)
  return performance.now() - t
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const rows = []
for (const [label, method, params] of [
  ['tools/call get_store', 'tools/call', { name: 'get_store', arguments: {} }],
  ['tools/list', 'tools/list', {}],
] as const) {
  for (let i = 0; i < 200; i++) await once(key, method, params), await once(token, method, params) // warm-up
  const byKey: number[] = []
  const byToken: number[] = []
  for (let i = 0; i < rounds; i++) {
    byKey.push(await once(key, method, params))
    byToken.push(await once(token, method, params))
  }
  const k = median(byKey) * 1000
  const tk = median(byToken) * 1000
  rows.push({
    call: label,
    'API key µs (median)': Math.round(k),
    'OAuth token µs (median)': Math.round(tk),
    'token − key µs': Math.round(tk - k),
    ratio: `${(tk / k).toFixed(2)}x`,
  })
}
console.log(`/mcp per call, ${rounds} interleaved calls each (Bun ${Bun.version})`)
printTable(rows)
app.gate.close()
closeDeps(deps)
rmSync(dataDir, { recursive: true, force: true })
