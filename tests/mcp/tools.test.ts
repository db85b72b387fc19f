/**
 * The tool table as data, and the executor's mapping of inputs, API answers and failures, with
 * the API itself (in-process) where the behaviour is the API's.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import {
  ConnectionError,
  describeFetchError,
  httpClient,
  inProcessClient,
  loadSettings,
  SettingsError,
  type ApiClient,
  type ApiRequest,
} from '../../src/mcp/client'
import { buildRequest, executeTool } from '../../src/mcp/execute'
import { TOOLS, TOOLS_BY_NAME } from '../../src/mcp/tools'
import { policyFor } from '../helpers/access'
import { makeApp, type TestApp, windowStartClock } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { CONTRACT_TOOLS, type ToolResult } from '../helpers/mcp'

const apps: TestApp[] = []
afterEach(() => {
  for (const a of apps.splice(0)) a.close()
})
const newApp = (...args: Parameters<typeof makeApp>) => {
  const a = makeApp(...args)
  apps.push(a)
  return a
}

const def = (name: string) => TOOLS_BY_NAME.get(name)!
const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text

/** A fake API that records requests and answers from a script. */
function fakeApi(answer: (req: ApiRequest) => { status: number; body: unknown; headers?: Record<string, string> }) {
  const seen: ApiRequest[] = []
  const client: ApiClient = async (req) => {
    seen.push(req)
    const a = answer(req)
    return { status: a.status, body: a.body, headers: new Headers(a.headers) }
  }
  return { client, seen }
}

describe('tool definitions', () => {
  test('exactly the 34 documented names', () => {
    expect(TOOLS.map((t) => t.name).sort()).toEqual([...CONTRACT_TOOLS].sort())
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(34)
  })

  test('scope and paid feature match what the gate enforces for the same request', () => {
    for (const t of TOOLS) {
      const policy = policyFor(t.method, t.path.replace(':id', 'x'))
      if (t.scope === null) expect(policy.kind).toBe('public')
      else {
        expect(policy).toMatchObject({ kind: 'key', scope: t.scope })
        expect((policy as { feature?: string }).feature).toBe(t.feature)
        expect(t.description).toContain(`scope ${t.scope}`)
      }
      if (t.feature) expect(t.description).toContain('Pro')
    }
  })

  test('every tool calls a route the app registers; /mcp stays out of the OpenAPI document', async () => {
    const { app } = newApp()
    const routes = new Set(app.routes.map((r) => `${r.method} ${r.path}`))
    for (const t of TOOLS) expect(routes.has(`${t.method} ${t.path}`)).toBe(true)
    expect(routes.has('POST /mcp')).toBe(true)
    const doc = (await (await app.handle(new Request('http://localhost/docs/json'))).json()) as {
      paths: Record<string, unknown>
    }
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/mcp'))).toEqual([])
  })

  test('annotations: reads are read-only, deletes destructive, POST not idempotent, closed world', () => {
    for (const t of TOOLS) {
      expect(t.annotations).toEqual({
        title: expect.any(String),
        readOnlyHint: t.method === 'GET',
        destructiveHint: t.method === 'DELETE',
        idempotentHint: t.method !== 'POST',
        openWorldHint: false,
      })
    }
  })

  test('input schemas are plain JSON Schema objects mirroring the API validation', () => {
    for (const t of TOOLS) {
      expect(t.inputSchema.type).toBe('object')
      const s = JSON.stringify(t.inputSchema)
      // No Elysia coercion branches, OpenAPI-only keywords or custom messages leak into tools.
      expect(s).not.toContain('"nullable"')
      expect(s).not.toContain('"format":"integer"')
      expect(s).not.toContain('"error"')
      if (t.params.includes('id')) expect(t.inputSchema.required).toContain('id')
    }
    expect(def('list_orders').inputSchema.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 })
    expect(def('list_orders').inputSchema.properties.status).toMatchObject({
      enum: ['pending', 'confirmed', 'shipped', 'delivered', 'cancelled'],
    })
    expect(def('moderate_review').inputSchema.required).toEqual(['id', 'status'])
    expect(def('create_product').inputSchema.required).toEqual(['name', 'price'])
    expect(def('create_order').inputSchema.required).toEqual(['name', 'phone', 'items'])
    expect((def('update_order_status').inputSchema.properties.status as { default?: unknown }).default).toBeUndefined()
    expect(def('create_discount').inputSchema.properties.type).toMatchObject({
      type: 'string',
      enum: ['percentage', 'fixed'],
    })
  })
})

describe('executor', () => {
  test('flat input → path, query and body; the id is encoded and never part of the body', () => {
    const put = buildRequest(def('update_product'), { id: '../store', name: 'X', price: 2, bogus: 1 })
    expect(put).toEqual({
      req: { method: 'PUT', path: '/api/v1/products/..%2Fstore', body: { name: 'X', price: 2 }, headers: {} },
    })
    const list = buildRequest(def('list_products'), { limit: 5, isActive: 'all', offset: undefined })
    expect(list).toEqual({
      req: { method: 'GET', path: '/api/v1/products?limit=5&isActive=all', body: undefined, headers: {} },
    })
    const order = buildRequest(def('create_order'), {
      storeId: 's',
      name: 'A',
      phone: '+1',
      items: [],
      idempotencyKey: 'k1',
    })
    expect(order).toMatchObject({
      req: { headers: { 'idempotency-key': 'k1' }, body: { storeId: 's', name: 'A', phone: '+1', items: [] } },
    })
    expect((order as { req: ApiRequest }).req.body).not.toHaveProperty('idempotencyKey')
  })

  test('a missing id is refused locally, shaped like the API 400', async () => {
    const { client, seen } = fakeApi(() => ({ status: 200, body: {} }))
    const r = (await executeTool(def('delete_product'), {}, client)) as ToolResult
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { field: 'id', reason: 'required' },
    })
    expect(seen).toHaveLength(0)
  })

  test('429 carries Retry-After; 402 gets a code; connection failures say what failed', async () => {
    const limited = fakeApi(() => ({
      status: 429,
      body: {
        error: 'Rate limit exceeded. Retry in 42 seconds.',
        code: 'RATE_LIMIT_EXCEEDED',
        details: { retryAfter: 42 },
      },
      headers: { 'retry-after': '42' },
    }))
    const r429 = (await executeTool(def('list_orders'), {}, limited.client)) as ToolResult
    expect(r429.structuredContent).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfter: 42 })
    expect(text(r429)).toContain('Retry after 42 seconds')

    const suspended = fakeApi(() => ({
      status: 402,
      body: { error: 'payment_required', message: 'Store suspended', state: 'suspended', upgradeUrl: 'https://x' },
    }))
    const r402 = (await executeTool(def('get_store'), {}, suspended.client)) as ToolResult
    expect(r402.structuredContent).toMatchObject({
      status: 402,
      code: 'PAYMENT_REQUIRED',
      state: 'suspended',
      upgradeUrl: 'https://x',
    })
    expect(text(r402)).toContain('402 PAYMENT_REQUIRED: Store suspended')

    const down: ApiClient = async () => {
      throw new ConnectionError(
        'could not connect to https://localhost:1: connection refused — is the service running?',
      )
    }
    const rDown = (await executeTool(def('get_store'), {}, down)) as ToolResult
    expect(rDown.isError).toBe(true)
    expect(rDown.structuredContent).toMatchObject({ code: 'CONNECTION_FAILED' })
    expect(text(rDown)).toContain('connection refused')
  })

  test('create_order fills storeId from the key store', async () => {
    const { client, seen } = fakeApi((req) =>
      req.path === '/api/v1/store'
        ? { status: 200, body: { data: { id: 'store1' } } }
        : { status: 201, body: { id: 'o1', orderNumber: 'ORD-000001' } },
    )
    const r = (await executeTool(
      def('create_order'),
      { name: 'A', phone: '+14155550123', items: [{ productId: 'p', quantity: 1 }] },
      client,
    )) as ToolResult
    expect(r.isError).toBeUndefined()
    expect(r.structuredContent).toEqual({ id: 'o1', orderNumber: 'ORD-000001' })
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /api/v1/store', 'POST /api/orders'])
    expect((seen[1]!.body as { storeId: string }).storeId).toBe('store1')
  })

  test('the per-key limit applies per tool call, with retryAfter in the result', async () => {
    const t = newApp({ rateLimitKey: 2 }, { clock: windowStartClock() })
    const { key } = makeShop(t.deps)
    const outer = new Request('http://localhost/mcp', { method: 'POST', headers: { authorization: `Bearer ${key}` } })
    const client = inProcessClient((r) => t.app.handle(r), outer, '203.0.113.9')
    expect((await executeTool(def('get_store'), {}, client)).isError).toBeUndefined()
    expect((await executeTool(def('list_products'), {}, client)).isError).toBeUndefined()
    const r = (await executeTool(def('list_orders'), {}, client)) as ToolResult
    expect(r.isError).toBe(true)
    expect(r.structuredContent).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED' })
    expect(r.structuredContent!.retryAfter).toBeGreaterThan(0)
  })

  test("public tools count against the caller's IP, not a shared one", async () => {
    const t = newApp({ rateLimitCheckSlug: 1 }, { clock: windowStartClock() })
    const { key } = makeShop(t.deps)
    const outer = new Request('http://localhost/mcp', { method: 'POST', headers: { authorization: `Bearer ${key}` } })
    const a = inProcessClient((r) => t.app.handle(r), outer, '203.0.113.1')
    const b = inProcessClient((r) => t.app.handle(r), outer, '203.0.113.2')
    expect((await executeTool(def('check_slug'), { slug: 'abc' }, a)).isError).toBeUndefined()
    expect(((await executeTool(def('check_slug'), { slug: 'abc' }, a)) as ToolResult).structuredContent).toMatchObject({
      status: 429,
    })
    expect((await executeTool(def('check_slug'), { slug: 'abc' }, b)).isError).toBeUndefined()
  })
})

describe('settings and connection messages', () => {
  test('loadSettings lists every problem', () => {
    expect(() => loadSettings({})).toThrow(SettingsError)
    let err: unknown
    try {
      loadSettings({ STOREFRONT_URL: 'ftp://x', STOREFRONT_API_KEY: 'a b' })
    } catch (e) {
      err = e
    }
    expect((err as SettingsError).problems).toEqual([
      expect.stringContaining('STOREFRONT_URL="ftp://x": expected an https:// origin'),
      expect.stringContaining('whitespace'),
    ])
    expect(loadSettings({ STOREFRONT_URL: 'https://localhost:3443/', STOREFRONT_API_KEY: 'sfk_x' })).toEqual({
      url: 'https://localhost:3443',
      apiKey: 'sfk_x',
      ca: undefined,
      caFile: undefined,
    })
  })

  test('TLS and network failures are described for the operator', async () => {
    expect(describeFetchError({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'https://h:1', {})).toBe(
      'could not connect to https://h:1: certificate not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE) — set ' +
        "STOREFRONT_CA_FILE to the server's certificate, e.g. data/tls/cert.pem",
    )
    expect(describeFetchError({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'https://h:1', { caFile: '/c.pem' })).toContain(
      'not trusted by STOREFRONT_CA_FILE=/c.pem',
    )
    // A real refused connection through the stdio client.
    const call = httpClient({ url: 'https://127.0.0.1:1', apiKey: 'sfk_x' })
    await expect(call({ method: 'GET', path: '/api/v1/store' })).rejects.toThrow(
      /could not connect to https:\/\/127\.0\.0\.1:1: connection refused/,
    )
  })
})
