/**
 * `bun run mcp` as an MCP client starts it: the SDK's stdio client spawns `bun src/mcp/stdio.ts`
 * against a real HTTPS server started here, trusting its generated certificate via
 * STOREFRONT_CA_FILE. Each spawned process is closed by its own transport and checked gone.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { makeKey, makeShop } from '../helpers/factories'
import { tempDir } from '../helpers/app'
import {
  callTool,
  CONTRACT_TOOLS,
  fullFlow,
  ROOT,
  startMcpTestServer,
  stdioMcpClient,
  type McpTestServer,
} from '../helpers/mcp'

let srv: McpTestServer
beforeAll(async () => {
  srv = await startMcpTestServer({ webhookAllowPrivate: true })
})
afterAll(async () => {
  await srv.stop()
})

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Connects, runs `fn`, then closes the transport (which ends exactly that child) and checks it exited. */
async function withStdio(
  env: Record<string, string>,
  fn: (c: Awaited<ReturnType<typeof stdioMcpClient>>) => Promise<void>,
) {
  const session = await stdioMcpClient(env)
  const pid = session.transport.pid!
  try {
    await fn(session)
  } finally {
    await session.client.close()
  }
  for (let i = 0; i < 50 && alive(pid); i++) await Bun.sleep(20)
  expect(alive(pid)).toBe(false)
}

/** Starts the server with the given environment and no client: for start-up failures. */
async function startFails(env: Record<string, string>) {
  const proc = Bun.spawn([process.execPath, 'src/mcp/stdio.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const timer = setTimeout(() => proc.kill(), 10_000)
  const code = await proc.exited
  clearTimeout(timer)
  return { code, stderr: await new Response(proc.stderr).text(), stdout: await new Response(proc.stdout).text() }
}

describe('MCP over stdio (bun run mcp)', () => {
  test('full flow against the HTTPS API, trusting STOREFRONT_CA_FILE', async () => {
    const { store, key } = makeShop(srv.running.deps, { plan: 'pro' })
    await withStdio(
      { STOREFRONT_URL: srv.running.url, STOREFRONT_API_KEY: key, STOREFRONT_CA_FILE: srv.certFile },
      async ({ client }) => {
        const { tools } = await client.listTools()
        expect(tools.map((t) => t.name).sort()).toEqual([...CONTRACT_TOOLS].sort())
        const used = await fullFlow(client, srv, store)
        expect(used.size).toBe(34)
      },
    )
  })

  test('401, 403, 404 and 409 come back as tool errors with the API code', async () => {
    const deps = srv.running.deps
    const { store, key } = makeShop(deps)
    const settings = { STOREFRONT_URL: srv.running.url, STOREFRONT_CA_FILE: srv.certFile }

    await withStdio({ ...settings, STOREFRONT_API_KEY: 'sfk_not_a_real_key' }, async ({ client }) => {
      const r = await callTool(client, 'get_store')
      expect(r.isError).toBe(true)
      expect(r.structuredContent).toMatchObject({ status: 401, code: 'UNAUTHORIZED' })
    })

    await withStdio(
      { ...settings, STOREFRONT_API_KEY: makeKey(deps, store.id, ['orders:read']) },
      async ({ client }) => {
        const r = await callTool(client, 'update_order_status', { id: 'x', status: 'confirmed' })
        expect(r.structuredContent).toMatchObject({ status: 403, code: 'FORBIDDEN' })
        expect((r.content[0] as { text: string }).text).toContain('orders:write')
      },
    )

    await withStdio({ ...settings, STOREFRONT_API_KEY: key }, async ({ client }) => {
      expect((await callTool(client, 'get_order', { id: 'nope' })).structuredContent).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
      })
      await callTool(client, 'create_category', { name: 'Cups', slug: 'cups' })
      const dup = await callTool(client, 'create_category', { name: 'Cups again', slug: 'cups' })
      expect(dup.isError).toBe(true)
      expect(dup.structuredContent).toMatchObject({ status: 409, code: 'DUPLICATE_SLUG' })
    })
  })

  test('an untrusted certificate is a tool error that says what to set', async () => {
    const { key } = makeShop(srv.running.deps)
    await withStdio({ STOREFRONT_URL: srv.running.url, STOREFRONT_API_KEY: key }, async ({ client }) => {
      const r = await callTool(client, 'get_store')
      expect(r.isError).toBe(true)
      const text = (r.content[0] as { text: string }).text
      expect(text).toContain(`could not connect to ${srv.running.url}`)
      expect(text).toContain('certificate not trusted')
      expect(text).toContain('STOREFRONT_CA_FILE')
    })
  })

  test('missing settings stop the start with exit code 2 and a message on stderr', async () => {
    const none = await startFails({})
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('STOREFRONT_URL is not set')
    expect(none.stderr).toContain('STOREFRONT_API_KEY is not set')
    expect(none.stdout).toBe('')

    const badCa = await startFails({
      STOREFRONT_URL: srv.running.url,
      STOREFRONT_API_KEY: 'sfk_x',
      STOREFRONT_CA_FILE: '/nonexistent/cert.pem',
    })
    expect(badCa.code).toBe(2)
    expect(badCa.stderr).toContain('STOREFRONT_CA_FILE=/nonexistent/cert.pem: cannot be read (ENOENT)')

    const dir = tempDir('sf-mcp-ca-')
    const notPem = path.join(dir, 'ca.pem')
    writeFileSync(notPem, 'hello')
    const wrongCa = await startFails({
      STOREFRONT_URL: 'localhost:3443',
      STOREFRONT_API_KEY: 'sfk_x',
      STOREFRONT_CA_FILE: notPem,
    })
    rmSync(dir, { recursive: true, force: true })
    expect(wrongCa.code).toBe(2)
    expect(wrongCa.stderr).toContain('STOREFRONT_URL="localhost:3443": expected an https:// origin')
    expect(wrongCa.stderr).toContain('not a PEM certificate')
  })
})
