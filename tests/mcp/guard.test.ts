/**
 * /mcp hardening: a request whose Origin names another site is
 * refused unless MCP_ALLOWED_ORIGINS lists it (DNS-rebinding guidance of the MCP specification);
 * each message of a JSON-RPC batch counts against the key's limit; the stdio client refuses to
 * send its key over plain http except to this machine.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadSettings, SettingsError } from '../../src/mcp/client'
import { makeApp, type Json, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'

let t: TestApp
let strict: TestApp
let key: string
let strictKey: string
beforeAll(() => {
  t = makeApp({ rateLimitKey: 30, mcpAllowedOrigins: ['https://assistant.example'] })
  key = makeShop(t.deps).key
  strict = makeApp({ publicUrl: 'https://api.shop.example' })
  strictKey = makeShop(strict.deps).key
})
afterAll(() => {
  t.close()
  strict.close()
})

const rpc = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} })

async function mcp(
  app: TestApp,
  body: unknown,
  opts: { key?: string; origin?: string; host?: string } = {},
): Promise<[Response, Json]> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  }
  if (opts.key) headers.authorization = `Bearer ${opts.key}`
  if (opts.origin) headers.origin = opts.origin
  if (opts.host) headers.host = opts.host
  const res = await app.app.handle(
    new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
  )
  const text = await res.text()
  return [res, text ? JSON.parse(text) : null]
}

describe('Origin', () => {
  test('no Origin (a non-browser client) passes', async () => {
    const [res, body] = await mcp(t, rpc(1), { key })
    expect(res.status).toBe(200)
    expect(body.result.tools.length).toBeGreaterThan(10)
  })

  test('another site → 403 FORBIDDEN, before the key is even read', async () => {
    for (const k of [key, undefined]) {
      const [res, body] = await mcp(t, rpc(1), { key: k, origin: 'https://evil.example' })
      expect(res.status).toBe(403)
      expect(body.code).toBe('FORBIDDEN')
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull()
    }
  })

  test('a listed origin and the own origin pass', async () => {
    const [listed] = await mcp(t, rpc(1), { key, origin: 'https://assistant.example' })
    expect(listed.status).toBe(200)
    const [own] = await mcp(t, rpc(1), { key, origin: 'http://localhost' })
    expect(own.status).toBe(200)
  })

  test('with PUBLIC_URL the own origin is that one, whatever Host says (a rebinding page)', async () => {
    const [rebound, body] = await mcp(strict, rpc(1), {
      key: strictKey,
      origin: 'http://attacker.example',
      host: 'attacker.example',
    })
    expect(rebound.status).toBe(403)
    expect(body.code).toBe('FORBIDDEN')
    const [own] = await mcp(strict, rpc(1), { key: strictKey, origin: 'https://api.shop.example' })
    expect(own.status).toBe(200)
  })
})

describe('JSON-RPC batches', () => {
  test('each message counts against the key; an over-limit batch → 429 and runs nothing', async () => {
    const { key: k } = makeShop(t.deps)
    const [res] = await mcp(
      t,
      Array.from({ length: 10 }, (_, i) => rpc(i + 1)),
      { key: k },
    )
    expect(res.status).toBe(200)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('20')
    const [big, bigBody] = await mcp(
      t,
      Array.from({ length: 100 }, (_, i) => rpc(i + 1)),
      { key: k },
    )
    expect(big.status).toBe(429)
    expect(bigBody.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(Number(big.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(big.headers.get('x-ratelimit-remaining')).toBe('0')
  })
})

describe('stdio client: STOREFRONT_URL', () => {
  const settings = (url: string) => () => loadSettings({ STOREFRONT_URL: url, STOREFRONT_API_KEY: 'sfk_x' })
  test('plain http to another host is refused (the key would travel in clear)', () => {
    for (const url of ['http://api.example.com', 'http://10.0.0.5:3443', 'http://localhost.evil.example']) {
      expect(settings(url)).toThrow(SettingsError)
      expect(settings(url)).toThrow(/in clear/)
    }
  })
  test('https anywhere, and http to loopback, are accepted', () => {
    for (const url of [
      'https://api.example.com',
      'http://localhost:3443',
      'http://127.0.0.1:3443',
      'http://[::1]:3443',
    ]) {
      expect(settings(url)().url).toBe(url)
    }
  })
})
