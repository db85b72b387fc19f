/**
 * MCP test plumbing: a real HTTPS server (startServer on port 0, temp DATA_DIR, its generated
 * certificate as the CA), and SDK clients over Streamable HTTP (/mcp) or stdio (`bun src/mcp/stdio.ts`).
 */
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { testConfig, type Config } from '../../src/config'
import { createDeps } from '../../src/deps'
import { createLogger } from '../../src/lib/log'
import { startServer, type RunningServer } from '../../src/server'
import { tempDir, type Json } from './app'

export const ROOT = path.join(import.meta.dir, '../..')

/** The documented list (docs/mcp.md), verbatim. */
export const CONTRACT_TOOLS = `get_store update_store list_products get_product
create_product update_product delete_product list_categories create_category update_category
delete_category list_orders get_order update_order_status list_discounts create_discount
update_discount delete_discount list_reviews moderate_review delete_review list_customers
get_customer get_stats list_shipping_options create_shipping_option update_shipping_option
delete_shipping_option list_webhooks create_webhook update_webhook delete_webhook create_order
check_slug`.split(/\s+/)

export interface McpTestServer {
  running: RunningServer
  certFile: string
  ca: string
  stop(): Promise<void>
}

export async function startMcpTestServer(overrides: Partial<Config> = {}): Promise<McpTestServer> {
  const config = testConfig({
    dataDir: tempDir('sf-mcp-'),
    port: 0,
    httpPort: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    dbSynchronous: 'NORMAL',
    ...overrides,
  })
  const running = await startServer(config, { deps: createDeps(config, { log: createLogger('silent') }) })
  const certFile = running.certFile!
  return {
    running,
    certFile,
    ca: readFileSync(certFile, 'utf8'),
    async stop() {
      await running.stop()
      rmSync(config.dataDir, { recursive: true, force: true })
    },
  }
}

export async function httpMcpClient(srv: McpTestServer, key: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${srv.running.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    // Bun's fetch trusts the service's self-signed certificate through `tls.ca`, verification on.
    fetch: (url, init) => fetch(url, { ...init, tls: { ca: srv.ca } } as RequestInit),
  })
  const client = new Client({ name: 'storefront-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

export async function stdioMcpClient(
  env: Record<string, string>,
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['src/mcp/stdio.ts'],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const client = new Client({ name: 'storefront-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, transport, stderr: () => stderr }
}

export type ToolResult = CallToolResult & { structuredContent?: Json }

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult
}

/** A successful call's structured content; fails the test with the error text otherwise. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const r = await callTool(client, name, args)
  if (r.isError) throw new Error(`${name} failed: ${(r.content[0] as { text: string }).text}`)
  return r.structuredContent
}

/**
 * The whole API through the tools, once each at least: catalog, shipping, discount, an order
 * placed with create_order and moved confirmed → shipped, stats, reviews, customers, webhooks.
 * Returns the names of the tools that succeeded. The store must be on a paid plan.
 */
export async function fullFlow(
  client: Client,
  srv: McpTestServer,
  store: { id: string; slug: string },
): Promise<Set<string>> {
  const { expect } = await import('bun:test')
  const used = new Set<string>()
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    const out = await ok(client, name, args)
    used.add(name)
    return out
  }

  expect((await run('get_store')).data.id).toBe(store.id)
  expect((await run('update_store', { description: 'Hand-made mugs' })).data.description).toBe('Hand-made mugs')
  expect(await run('check_slug', { slug: store.slug })).toEqual({ slug: store.slug, available: false })
  expect((await run('check_slug', { slug: `free-${store.slug}`.slice(0, 50) })).available).toBe(true)

  const category = (await run('create_category', { name: 'Mugs' })).data
  expect((await run('update_category', { id: category.id, position: 2 })).data.position).toBe(2)
  expect((await run('list_categories')).data.map((c: Json) => c.id)).toEqual([category.id])

  const product = (await run('create_product', { name: 'Blue Mug', price: 12.5, categoryId: category.id })).data
  expect(product).toMatchObject({ name: 'Blue Mug', slug: 'blue-mug', price: 12.5, categoryId: category.id })
  expect((await run('get_product', { id: product.id })).data.id).toBe(product.id)
  const page = await run('list_products', { limit: 1, offset: 0 })
  expect(page).toMatchObject({ total: 1, limit: 1, offset: 0 })

  const shipping = (await run('create_shipping_option', { name: 'Courier', price: 4, estimatedDays: 2 })).data
  expect(shipping).toMatchObject({ name: 'Courier', price: 4, estimatedDays: 2 })
  expect((await run('list_shipping_options')).total).toBe(1)

  const discount = (await run('create_discount', { code: 'SAVE10', type: 'percentage', value: 10 })).data
  expect((await run('list_discounts')).data.map((d: Json) => d.code)).toEqual(['SAVE10'])

  // storeId omitted: the tool fills in the key's own store.
  const placed = await run('create_order', {
    name: 'Ana',
    phone: '+1 415 555 0123',
    address: '1 Main St',
    items: [{ productId: product.id, quantity: 2 }],
    shippingOptionId: shipping.id,
    discountCode: 'save10',
  })
  expect(placed.orderNumber).toMatch(/^ORD-\d{6}$/)
  const order = (await run('get_order', { id: placed.id })).data
  // 2 × 12.50 = 25.00, −10 % = 22.50, + 4.00 shipping.
  expect(order).toMatchObject({
    status: 'pending',
    total: 26.5,
    customerPhone: '+14155550123',
    shippingOption: { name: 'Courier', price: 4 },
  })

  expect((await run('update_order_status', { id: placed.id, status: 'confirmed' })).data.status).toBe('confirmed')
  expect((await run('update_order_status', { id: placed.id, status: 'shipped' })).data.status).toBe('shipped')
  const back = await callTool(client, 'update_order_status', { id: placed.id, status: 'confirmed' })
  expect(back.isError).toBe(true)
  expect(back.structuredContent).toMatchObject({
    status: 409,
    code: 'INVALID_STATUS_TRANSITION',
    details: { from: 'shipped', to: 'confirmed' },
  })
  const orders = await run('list_orders', { status: 'shipped' })
  expect(orders.data.map((o: Json) => o.id)).toEqual([placed.id])

  const stats = (await run('get_stats')).data
  expect(stats).toMatchObject({ totalOrders: 1, revenue: 26.5, ordersByStatus: { shipped: 1, pending: 0 } })
  expect(stats.topProducts[0]).toMatchObject({ productId: product.id, quantity: 2 })

  const customers = await run('list_customers')
  expect(customers.data).toHaveLength(1)
  expect(customers.data[0]).toMatchObject({ phone: '+14155550123', ordersCount: 1 })
  const customer = (await run('get_customer', { id: customers.data[0].id })).data
  expect(customer.orders.map((o: Json) => o.id)).toEqual([placed.id])

  // A review arrives through the public endpoint; the tools moderate it.
  const posted = await fetch(`${srv.running.url}/api/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      storeId: store.id,
      productId: product.id,
      customerName: 'Ana',
      rating: 5,
      comment: 'Lovely',
    }),
    tls: { ca: srv.ca },
  } as RequestInit)
  expect(posted.status).toBe(201)
  const review = (await run('list_reviews', { status: 'pending', productId: product.id })).data[0]
  expect(review).toMatchObject({ productId: product.id, rating: 5, status: 'pending' })
  expect((await run('moderate_review', { id: review.id, status: 'approved' })).data.status).toBe('approved')
  expect((await run('list_reviews', { status: 'approved' })).total).toBe(1)
  expect((await run('delete_review', { id: review.id })).data).toEqual({ id: review.id, deleted: true })

  const hook = (
    await run('create_webhook', { url: 'https://127.0.0.1:9/hooks', events: ['order.created', 'order.updated'] })
  ).data
  expect(hook.secret).toStartWith('whsec_')
  expect((await run('list_webhooks')).data.map((w: Json) => w.id)).toEqual([hook.id])
  expect((await run('list_webhooks')).data[0].secret).toBeUndefined()
  expect((await run('update_webhook', { id: hook.id, isActive: false })).data.isActive).toBe(false)
  expect((await run('delete_webhook', { id: hook.id })).data).toEqual({ id: hook.id, deleted: true })

  expect((await run('update_discount', { id: discount.id, value: 15 })).data.value).toBe(15)
  expect((await run('delete_discount', { id: discount.id })).data).toEqual({ id: discount.id, deleted: true })
  expect((await run('update_shipping_option', { id: shipping.id, price: 5 })).data.price).toBe(5)
  expect((await run('delete_shipping_option', { id: shipping.id })).data).toEqual({ id: shipping.id, deleted: true })
  expect((await run('update_product', { id: product.id, price: 13 })).data.price).toBe(13)
  expect((await run('delete_product', { id: product.id })).data).toEqual({ id: product.id, deleted: true })
  expect((await callTool(client, 'get_product', { id: product.id })).structuredContent).toMatchObject({
    status: 404,
    code: 'NOT_FOUND',
  })
  expect((await run('delete_category', { id: category.id })).data).toEqual({ id: category.id, deleted: true })
  return used
}
