/**
 * Request logs: one line per request with the
 * contract's fields, the request id kept or replaced and echoed, nothing secret or personal in
 * a line, one line per webhook attempt, repeating errors logged once a minute with a count,
 * and LOG_LEVEL=warn silencing request lines in the real process.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { makeApp, expectStatus, tempDir } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { makeCatalog, orderBody } from '../helpers/factories'
import { freePort, ROOT } from '../helpers/server'
import { startReceiver } from '../helpers/webhook-receiver'
import { fixedClock } from '../../src/lib/time'
import { LogOnce } from '../../src/lib/log-once'
import type { Logger } from '../../src/lib/log'

interface Line {
  level: string
  msg: string
  [k: string]: unknown
}

const FIELDS = ['id', 'method', 'route', 'path', 'status', 'ms', 'storeId', 'keyPrefix', 'ip'].sort()

/** A Logger that keeps every line, with `enabled` answering for `min` like the real one. */
function capture(min: 'debug' | 'info' | 'warn' = 'debug') {
  const lines: Line[] = []
  const order = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }
  const at = (level: keyof typeof order) => (msg: string, fields?: Record<string, unknown>) => {
    if (order[level] >= order[min]) lines.push({ level, msg, ...fields })
  }
  const log: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    enabled: (l) => order[l] >= order[min],
  }
  return { log, lines, requests: () => lines.filter((l) => l.msg === 'request') }
}

let cleanup: (() => void)[] = []
afterEach(() => {
  for (const f of cleanup.reverse()) f()
  cleanup = []
})
function app(min: 'debug' | 'info' | 'warn' = 'debug', overrides = {}) {
  const c = capture(min)
  const t = makeApp(overrides, { log: c.log })
  cleanup.push(() => t.close())
  return { t, ...c }
}

describe('one line per request', () => {
  test('20 requests → 20 lines with the documented fields, each id the one in its response', async () => {
    const { t, requests } = app()
    const { store, key } = makeShop(t.deps)
    const calls: [string, string, string | undefined][] = [
      ['GET', '/api/v1/products', key],
      ['GET', '/api/v1/categories', key],
      ['GET', '/api/v1/store', key],
      ['GET', '/api/v1/products/nope', key],
      ['GET', '/api/v1/orders', undefined], // 401
      ['GET', '/health', undefined],
      ['GET', `/api/v1/stores/${store.slug}`, undefined],
      ['GET', '/no-such-page', undefined],
      ['POST', '/api/v1/categories', key],
      ['GET', '/api/check-slug?slug=free-one', undefined],
    ]
    const ids: string[] = []
    for (let i = 0; i < 20; i++) {
      const [method, p, k] = calls[i % calls.length]!
      const [res] = await t.api.call(method, p, method === 'POST' ? { name: `Cat ${i}` } : undefined, { key: k })
      ids.push(res.headers.get('x-request-id')!)
    }
    const lines = requests()
    expect(lines).toHaveLength(20)
    expect(new Set(ids).size).toBe(20)
    lines.forEach((l, i) => {
      const [method, p, k] = calls[i % calls.length]!
      expect(
        Object.keys(l)
          .filter((f) => f !== 'msg' && f !== 'level')
          .sort(),
      ).toEqual(FIELDS)
      expect(l.level).toBe('info')
      expect(l.id).toBe(ids[i]!)
      expect(l.method).toBe(method)
      expect(l.path).toBe(p.split('?')[0]!) // never the query string
      expect(typeof l.status).toBe('number')
      expect(typeof l.ms).toBe('number')
      expect(l.storeId).toBe(k ? store.id : null)
      expect(l.keyPrefix).toBe(k ? k.slice(0, 12) : null)
      expect(typeof l.ip).toBe('string')
    })
    expect(lines.map((l) => l.status)).toEqual([
      200, 200, 200, 404, 401, 200, 200, 404, 201, 200, 200, 200, 200, 404, 401, 200, 200, 404, 201, 200,
    ])
    expect(lines[3]!.route).toBe('/api/v1/products/:id')
    expect(lines[6]!.route).toBe('/api/v1/stores/:slug')
    expect(lines[7]!.route).toBeNull() // no route matched
  })

  test('a refused key request still names its store and key (429)', async () => {
    const { t, requests } = app('debug', { rateLimitKey: 1 })
    const { store, key } = makeShop(t.deps)
    await t.api.get('/api/v1/products', { key })
    const [res] = await t.api.get('/api/v1/products', { key })
    expect(res.status).toBe(429)
    expect(requests()[1]).toMatchObject({ status: 429, storeId: store.id, keyPrefix: key.slice(0, 12) })
  })

  test('the client IP behind a trusted proxy', async () => {
    const { t, requests } = app('debug', { trustProxy: true })
    await t.api.get('/health', { headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' } })
    expect(requests()[0]!.ip).toBe('203.0.113.9')
  })
})

describe('X-Request-Id', () => {
  test('a well-formed incoming id is kept: in the response and the line', async () => {
    const { t, requests } = app()
    const { key } = makeShop(t.deps)
    for (const id of ['abc', 'trace-1.2_3', 'A'.repeat(64)]) {
      const [res] = await t.api.get('/api/v1/products', { key, headers: { 'x-request-id': id } })
      expect(res.headers.get('x-request-id')).toBe(id)
      expect(requests().at(-1)!.id).toBe(id)
    }
    // Errors and answers given before routing carry it too.
    const [r401] = await t.api.get('/api/v1/orders', { headers: { 'x-request-id': 'on-401' } })
    expect(r401.headers.get('x-request-id')).toBe('on-401')
    const [r404] = await t.api.get('/missing', { headers: { 'x-request-id': 'on-404' } })
    expect(r404.headers.get('x-request-id')).toBe('on-404')
    expect(
      requests()
        .slice(-2)
        .map((l) => l.id),
    ).toEqual(['on-401', 'on-404'])
  })

  test('a malformed one is replaced by a generated id', async () => {
    const { t, requests } = app()
    for (const bad of ['', 'A'.repeat(65), 'has space', 'quote"', 'new\\nline', 'ñ', '{"json":1}']) {
      const [res] = await t.api.get('/health', { headers: { 'x-request-id': bad } })
      const id = res.headers.get('x-request-id')!
      expect(id).toMatch(/^[A-Za-z0-9._-]{1,64}$/)
      expect(id).not.toBe(bad)
      expect(requests().at(-1)!.id).toBe(id)
    }
  })
})

describe('nothing secret or personal in a line', () => {
  test('no key, phone, address, name, body or query in any line', async () => {
    const { t, lines } = app()
    const { store, key } = makeShop(t.deps)
    const cat = makeCatalog(t.deps, store.id)
    const body = orderBody(store.id, cat, {
      name: 'Zelda Secretname',
      address: 'Avenida Privada 742',
      notes: 'ring twice',
    })
    const [res, order] = await t.api.post('/api/orders', body)
    expectStatus(res, order).toBe(201)
    await t.api.get(`/api/v1/customers?q=${encodeURIComponent(body.phone)}`, { key })
    await t.api.post('/api/v1/products', { name: 'Body text here', price: 1 }, { key })
    await t.api.get('/api/v1/products', { key: key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A') }) // a mistyped key
    await t.api.post(
      '/api/v1/webhooks',
      { url: 'https://hooks.example.com/x?token=tok-secret-123', events: ['order.created'] },
      { key },
    )
    const text = JSON.stringify(lines)
    expect(lines.filter((l) => l.msg === 'request').length).toBe(5)
    for (const secret of [
      key,
      key.slice(12),
      body.phone,
      body.phone.replace('+', ''),
      'Avenida',
      'Zelda',
      'ring twice',
      'Body text here',
      'tok-secret-123',
      'whsec_',
    ]) {
      expect(text).not.toContain(secret)
    }
    // The mistyped key exists nowhere: its line names no key.
    expect(lines.filter((l) => l.msg === 'request')[3]).toMatchObject({ status: 401, keyPrefix: null, storeId: null })
  })
})

describe('LOG_LEVEL', () => {
  test('warn: no request lines, and nothing is timed', async () => {
    const { t, lines } = app('warn')
    const [res] = await t.api.get('/health', { headers: { 'x-request-id': 'still-echoed' } })
    expect(res.headers.get('x-request-id')).toBe('still-echoed')
    expect(lines).toHaveLength(0)
  })

  test('the real process: info writes JSON request lines on stderr, warn none', async () => {
    const run = async (level: string) => {
      const dataDir = tempDir('sf-log-')
      const [port, httpPort] = [await freePort(), await freePort()]
      // Not spawnServer: it waits for the "listening" line, which is itself at info.
      const proc = Bun.spawn(['bun', 'src/index.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          PORT: String(port),
          HTTP_PORT: String(httpPort),
          LOG_LEVEL: level,
        },
        stdout: 'ignore',
        stderr: 'pipe',
      })
      const stderr = new Response(proc.stderr).text()
      try {
        const get = async (i: number) =>
          fetch(`https://127.0.0.1:${port}/health`, {
            headers: { 'x-request-id': `proc-${i}` },
            tls: { ca: readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8') },
          } as RequestInit)
        const until = Date.now() + 20_000
        for (;;) {
          const up = await get(-1).then(
            (r) => r.ok,
            () => false,
          )
          if (up) break
          if (Date.now() > until || proc.exitCode !== null) throw new Error(`server did not start: ${await stderr}`)
          await Bun.sleep(50)
        }
        for (let i = 0; i < 3; i++) expect((await get(i)).headers.get('x-request-id')).toBe(`proc-${i}`)
      } finally {
        proc.kill('SIGTERM')
        await proc.exited
        rmSync(dataDir, { recursive: true, force: true })
      }
      return (await stderr)
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line)
    }
    const info = (await run('info')).filter((l) => l.msg === 'request' && l.id !== 'proc--1')
    expect(info.map((l) => [l.id, l.status, l.route, l.ip])).toEqual(
      [0, 1, 2].map((i) => [`proc-${i}`, 200, '/health', '127.0.0.1']),
    )
    expect(info.every((l) => typeof l.time === 'string' && l.level === 'info')).toBe(true)
    const warn = await run('warn')
    expect(warn.filter((l) => l.msg === 'request')).toHaveLength(0)
  }, 30_000)
})

describe('webhook attempts', () => {
  test('one line per attempt: endpoint, delivery, status, ms; never the URL or payload', async () => {
    const { t, lines } = app('debug', { webhookAllowPrivate: true, webhookRetrySchedule: [0] })
    const rx = startReceiver()
    cleanup.push(() => rx.stop())
    let n = 0
    rx.respond = () => new Response('receiver says no: Zelda', { status: ++n === 1 ? 500 : 204 })
    const { store, key } = makeShop(t.deps)
    const [res, hook] = await t.api.post(
      '/api/v1/webhooks',
      { url: `${rx.url}?token=tok-secret-9`, events: ['order.created'] },
      { key },
    )
    expectStatus(res, hook).toBe(201)
    const cat = makeCatalog(t.deps, store.id)
    const [r, order] = await t.api.post('/api/orders', orderBody(store.id, cat, { name: 'Zelda' }))
    expectStatus(r, order).toBe(201)
    await rx.waitFor(() => rx.received.length === 2)
    await t.deps.dispatcher.idle()
    const attempts = lines.filter((l) => l.msg === 'webhook attempt')
    expect(attempts).toHaveLength(2)
    expect(attempts.map((a) => [a.webhookId, a.deliveryId, a.status, a.ok, a.storeId])).toEqual([
      [hook.data.id, rx.received[0]!.id, 500, false, store.id],
      [hook.data.id, rx.received[0]!.id, 204, true, store.id],
    ])
    for (const a of attempts) expect(typeof a.ms).toBe('number')
    const text = JSON.stringify(attempts)
    for (const s of ['tok-secret-9', 'receiver says no', 'Zelda', '127.0.0.1']) expect(text).not.toContain(s)
  })

  test('an endpoint that does not answer: status null and the kind of failure', async () => {
    const { t, lines } = app('debug', { webhookAllowPrivate: true })
    const port = await freePort() // nothing listens there
    const { store, key } = makeShop(t.deps)
    const [res] = await t.api.post(
      '/api/v1/webhooks',
      { url: `http://127.0.0.1:${port}/hook`, events: ['order.created'] },
      { key },
    )
    expect(res.status).toBe(201)
    const cat = makeCatalog(t.deps, store.id)
    await t.api.post('/api/orders', orderBody(store.id, cat))
    const until = Date.now() + 5000
    while (!lines.some((l) => l.msg === 'webhook attempt') && Date.now() < until) await Bun.sleep(5)
    const a = lines.find((l) => l.msg === 'webhook attempt')!
    expect(a).toMatchObject({ status: null, ok: false })
    expect(typeof a.failure).toBe('string')
    expect(String(a.failure)).not.toContain(String(port))
  })
})

describe('repeating errors: once a minute per error, with a count', () => {
  test('LogOnce: first at once, repeats counted, the next minute logs the count', () => {
    const { log, lines } = capture()
    const clock = fixedClock()
    const once = new LogOnce(log, clock)
    for (let i = 0; i < 100; i++) once.error('disk', 'storage write failed', { code: 'SQLITE_FULL' })
    once.error('other', 'something else')
    expect(lines.map((l) => [l.msg, l.count])).toEqual([
      ['storage write failed', 1],
      ['something else', 1],
    ])
    clock.advance(60_000)
    once.error('disk', 'storage write failed')
    expect(lines.at(-1)).toMatchObject({ msg: 'storage write failed', count: 100, sinceLastLogSec: 60 })
    once.error('disk', 'storage write failed')
    expect(once.reset()).toBe(1)
  })

  test('the same 500 on every request: one error line, a request line each', async () => {
    const { t, lines } = app()
    const a = t.app.get('/boom', () => {
      throw new Error('kaput')
    })
    for (let i = 0; i < 5; i++) expect((await a.handle(new Request('http://localhost/boom'))).status).toBe(500)
    expect(lines.filter((l) => l.msg === 'unhandled error')).toHaveLength(1)
    expect(lines.filter((l) => l.msg === 'request' && l.status === 500)).toHaveLength(5)
  })

  test('a dispatcher tick that keeps failing (e.g. disk full) is logged once, not every tick', async () => {
    const { t, lines } = app('debug', { webhookAllowPrivate: true })
    const { store, key } = makeShop(t.deps)
    const [res] = await t.api.post(
      '/api/v1/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['order.created'] },
      { key },
    )
    expect(res.status).toBe(201)
    // Every tick's transaction now fails the way a full disk fails it.
    const client = t.deps.db.$client as unknown as { transaction: (fn: () => unknown) => unknown }
    const real = client.transaction.bind(client)
    client.transaction = () =>
      Object.assign(() => 0, {
        immediate: () => {
          throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
        },
      })
    for (let i = 0; i < 20; i++) t.deps.dispatcher.pump()
    client.transaction = real
    const failed = lines.filter((l) => l.msg === 'webhook dispatch failed')
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatchObject({ level: 'error', count: 1 })
    void store
  })
})
