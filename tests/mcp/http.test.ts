/**
 * The hosted MCP endpoint: the SDK's Streamable HTTP client against a real HTTPS server at /mcp,
 * each tool call running in-process with the caller's key (scopes, plans, limits per call).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { makeKey, makeShop } from '../helpers/factories'
import {
  callTool,
  CONTRACT_TOOLS,
  fullFlow,
  httpMcpClient,
  ok,
  startMcpTestServer,
  type McpTestServer,
} from '../helpers/mcp'

let srv: McpTestServer
const clients: Client[] = []
const connect = async (key: string) => {
  const c = await httpMcpClient(srv, key)
  clients.push(c)
  return c
}

beforeAll(async () => {
  srv = await startMcpTestServer({ webhookAllowPrivate: true })
})
afterAll(async () => {
  for (const c of clients) await c.close()
  await srv.stop()
})

describe('MCP over Streamable HTTP at /mcp', () => {
  test('lists exactly the documented tools with descriptions, object schemas and annotations', async () => {
    const { key } = makeShop(srv.running.deps)
    const client = await connect(key)
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([...CONTRACT_TOOLS].sort())
    expect(tools).toHaveLength(34)
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(30)
      expect(t.inputSchema.type).toBe('object')
      expect(t.annotations?.openWorldHint).toBe(false)
      expect(t.annotations?.readOnlyHint).toBe(
        t.name.startsWith('get_') || t.name.startsWith('list_') || t.name === 'check_slug',
      )
      expect(t.annotations?.destructiveHint).toBe(t.name.startsWith('delete_'))
    }
  })

  test('full flow on a pro store: every tool succeeds once', async () => {
    const { store, key } = makeShop(srv.running.deps, { plan: 'pro' })
    const used = await fullFlow(await connect(key), srv, store)
    expect([...used].sort()).toEqual([...CONTRACT_TOOLS].sort())
    // The order create_order placed is recorded as the assistant's, not the storefront's.
    const sources = srv.running.deps.db.$client.query('SELECT source FROM orders WHERE store_id = ?').all(store.id)
    expect(sources).toEqual([{ source: 'mcp' }])
  })

  test('API errors come back as tool errors with the API code', async () => {
    const deps = srv.running.deps
    const { key } = makeShop(deps, { plan: 'free' })
    const client = await connect(key)

    const missing = await callTool(client, 'get_product', { id: 'nope' })
    expect(missing.isError).toBe(true)
    expect(missing.structuredContent).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect((missing.content[0] as { text: string }).text).toContain('NOT_FOUND')

    await ok(client, 'create_product', { name: 'Cup', price: 3 })
    const dup = await callTool(client, 'create_product', { name: 'Cup', price: 3 })
    expect(dup.structuredContent).toMatchObject({ status: 409, code: 'DUPLICATE_SLUG' })

    const bad = await callTool(client, 'list_products', { limit: 500 })
    expect(bad.structuredContent).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { field: 'limit', reason: 'out_of_range' },
    })

    const plan = await callTool(client, 'get_stats')
    expect(plan.isError).toBe(true)
    expect(plan.structuredContent).toMatchObject({ status: 403, code: 'PLAN_REQUIRED', feature: 'advancedAnalytics' })
  })

  test("scopes apply per tool call with the caller's key", async () => {
    const deps = srv.running.deps
    const { store } = makeShop(deps)
    const client = await connect(makeKey(deps, store.id, ['products:read']))
    expect((await ok(client, 'list_products')).total).toBe(0)
    const denied = await callTool(client, 'create_product', { name: 'Cup', price: 3 })
    expect(denied.isError).toBe(true)
    expect(denied.structuredContent).toMatchObject({ status: 403, code: 'FORBIDDEN' })
    expect(denied.structuredContent!.error).toContain('products:write')
    // create_order without storeId looks the store up, which needs store:read.
    const noStore = await callTool(client, 'create_order', {
      name: 'A',
      phone: '+14155550123',
      items: [{ productId: 'x', quantity: 1 }],
    })
    expect(noStore.structuredContent).toMatchObject({ status: 403, code: 'FORBIDDEN' })
  })

  test('a bad key is refused at /mcp itself (401)', async () => {
    const res = await fetch(`${srv.running.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sfk_wrong',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      tls: { ca: srv.ca },
    } as RequestInit)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(httpMcpClient(srv, 'sfk_wrong')).rejects.toThrow()
  })

  test('GET and DELETE answer 405: the endpoint is stateless', async () => {
    const { key } = makeShop(srv.running.deps)
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${srv.running.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${key}` },
        tls: { ca: srv.ca },
      } as RequestInit)
      expect(res.status).toBe(405)
      expect(res.headers.get('allow')).toBe('POST')
    }
  })
})
