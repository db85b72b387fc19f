/**
 * Serving over real sockets: the self-signed certificate made
 * on first start and reused, operator PEM files, the HTTP_PORT redirect, /health, and
 * TRUST_PROXY mode (X-Forwarded-Proto redirect, client IP = rightmost X-Forwarded-For).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { X509Certificate } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import selfsigned from 'selfsigned'
import { testConfig } from '../../src/config'
import { loadTls } from '../../src/tls'
import { tempDir, windowStartClock } from '../helpers/app'
import { startTestServer, type TestServer } from '../helpers/server'

describe('HTTPS with the generated certificate', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startTestServer({}, { keepDir: true })
  })
  afterAll(async () => {
    await s.stop()
    rmSync(s.config.dataDir, { recursive: true, force: true })
  })

  test('is created in DATA_DIR/tls: EC P-256, SHA-256, SAN localhost + 127.0.0.1', () => {
    const certFile = path.join(s.config.dataDir, 'tls', 'cert.pem')
    expect(s.running.certFile).toBe(certFile)
    expect(existsSync(path.join(s.config.dataDir, 'tls', 'key.pem'))).toBe(true)
    const cert = new X509Certificate(readFileSync(certFile))
    expect(cert.subjectAltName).toContain('DNS:localhost')
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1')
    expect(cert.publicKey.asymmetricKeyType).toBe('ec')
    expect(cert.signatureAlgorithm).toBe('ecdsa-with-SHA256')
    expect(cert.validToDate.getTime()).toBeGreaterThan(Date.now() + 800 * 86_400_000)
  })

  test('a client that verifies against the certificate gets /health 200 {status:"ok"} without a key', async () => {
    expect(s.running.url).toBe(`https://127.0.0.1:${s.running.port}`)
    const res = await s.fetch('/health')
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', replica: { state: 'off', lagSeconds: null } })
    // The same certificate verifies for the name localhost too.
    const byName = await fetch(`https://localhost:${s.running.port}/health`, { tls: { ca: s.ca } } as RequestInit)
    expect(byName.status).toBe(200)
  })

  test('a client that verifies against the system roots refuses the self-signed certificate', async () => {
    await expect(fetch(`${s.running.url}/health`)).rejects.toThrow()
  })

  test('/health is never rate limited and carries no rate-limit headers', async () => {
    const limited = await startTestServer({ rateLimitAnonymous: 2, rateLimitStoreReads: 2 })
    try {
      for (let i = 0; i < 10; i++) {
        const res = await limited.fetch('/health')
        expect(res.status).toBe(200)
        expect(res.headers.get('x-ratelimit-limit')).toBeNull()
        await res.body?.cancel()
      }
    } finally {
      await limited.stop()
    }
  })

  test('is reused, byte for byte, on the next start', async () => {
    const before = readFileSync(s.running.certFile!, 'utf8')
    const keyBefore = readFileSync(path.join(s.config.dataDir, 'tls', 'key.pem'), 'utf8')
    const again = await startTestServer({ dataDir: s.config.dataDir }, { keepDir: true })
    try {
      expect(readFileSync(again.running.certFile!, 'utf8')).toBe(before)
      expect(readFileSync(path.join(s.config.dataDir, 'tls', 'key.pem'), 'utf8')).toBe(keyBefore)
      const res = await fetch(`${again.running.url}/health`, { tls: { ca: before } } as RequestInit)
      expect(res.status).toBe(200)
    } finally {
      await again.stop()
    }
  })
})

test('a generated certificate that has expired (or is about to) is replaced at start', async () => {
  const dataDir = tempDir('sf-tls-')
  try {
    const old = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 400 * 86_400_000),
      notAfterDate: new Date(Date.now() + 86_400_000),
    } as never)
    mkdirSync(path.join(dataDir, 'tls'))
    writeFileSync(path.join(dataDir, 'tls', 'cert.pem'), old.cert)
    writeFileSync(path.join(dataDir, 'tls', 'key.pem'), old.private)
    const tls = await loadTls(testConfig({ dataDir }))
    expect(tls.generated).toBe(true)
    expect(tls.cert).not.toBe(old.cert)
    expect(readFileSync(path.join(dataDir, 'tls', 'cert.pem'), 'utf8')).toBe(tls.cert)
    expect((await loadTls(testConfig({ dataDir }))).generated).toBe(false)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
})

test('TLS_CERT_FILE / TLS_KEY_FILE are served when set, and nothing is generated', async () => {
  const dir = tempDir('sf-pem-')
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  } as never)
  mkdirSync(path.join(dir, 'pem'))
  const certFile = path.join(dir, 'pem', 'operator-cert.pem')
  const keyFile = path.join(dir, 'pem', 'operator-key.pem')
  writeFileSync(certFile, pems.cert)
  writeFileSync(keyFile, pems.private)
  const s = await startTestServer({ tlsCertFile: certFile, tlsKeyFile: keyFile })
  try {
    expect(s.running.certFile).toBe(certFile)
    expect(existsSync(path.join(s.config.dataDir, 'tls'))).toBe(false)
    const res = await fetch(`${s.running.url}/health`, { tls: { ca: pems.cert } } as RequestInit)
    expect(res.status).toBe(200)
    // A different self-signed certificate does not verify it: it really is the operator's.
    const other = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
    } as never)
    await expect(fetch(`${s.running.url}/health`, { tls: { ca: other.cert } } as RequestInit)).rejects.toThrow()
  } finally {
    await s.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

describe('HTTP_PORT redirects everything to https', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startTestServer()
  })
  afterAll(() => s.stop())

  for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'HEAD']) {
    test(`${method} keeps path and query`, async () => {
      const res = await fetch(`http://127.0.0.1:${s.running.httpPort}/api/v1/products?limit=5&q=a%20b`, {
        method,
        redirect: 'manual',
        body: method === 'POST' || method === 'PUT' ? '{"name":"x"}' : undefined,
      })
      expect(res.status).toBe(301)
      expect(res.headers.get('location')).toBe(`https://127.0.0.1:${s.running.port}/api/v1/products?limit=5&q=a%20b`)
    })
  }

  test('/health on the plain port is redirected too', async () => {
    const res = await fetch(`http://127.0.0.1:${s.running.httpPort}/health`, { redirect: 'manual' })
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(`https://127.0.0.1:${s.running.port}/health`)
  })

  test('the Host name is kept (without its port)', async () => {
    const res = await fetch(`http://localhost:${s.running.httpPort}/x`, { redirect: 'manual' })
    expect(res.headers.get('location')).toBe(`https://localhost:${s.running.port}/x`)
  })

  test('following the redirect lands on the https service', async () => {
    const res = await fetch(`http://127.0.0.1:${s.running.httpPort}/health`, { tls: { ca: s.ca } } as RequestInit)
    expect(res.status).toBe(200)
    expect(res.url).toBe(`https://127.0.0.1:${s.running.port}/health`)
  })

  test('PUBLIC_URL is the origin of the redirect when set', async () => {
    const p = await startTestServer({ publicUrl: 'https://shop.example.com' })
    try {
      const res = await fetch(`http://127.0.0.1:${p.running.httpPort}/api/orders?a=1`, {
        method: 'POST',
        redirect: 'manual',
      })
      expect(res.status).toBe(301)
      expect(res.headers.get('location')).toBe('https://shop.example.com/api/orders?a=1')
    } finally {
      await p.stop()
    }
  })
})

describe('TRUST_PROXY=1', () => {
  let s: TestServer
  beforeAll(async () => {
    s = await startTestServer({ trustProxy: true, rateLimitAnonymous: 2 }, { clock: windowStartClock() })
  })
  afterAll(() => s.stop())

  const https = (extra: Record<string, string> = {}) => ({ headers: { 'x-forwarded-proto': 'https', ...extra } })

  test('listens plain HTTP on PORT, generates no certificate and opens no redirect port', () => {
    expect(s.running.url).toBe(`http://127.0.0.1:${s.running.port}`)
    expect(s.running.httpPort).toBeUndefined()
    expect(existsSync(path.join(s.config.dataDir, 'tls'))).toBe(false)
  })

  test('X-Forwarded-Proto other than https (or absent) → 301 to https, path and query kept', async () => {
    for (const headers of [
      { 'x-forwarded-proto': 'http', host: 'shop.example.com' },
      { host: 'shop.example.com' },
    ] as Record<string, string>[]) {
      const res = await s.fetch('/api/v1/products?limit=3', { headers })
      expect(res.status).toBe(301)
      expect(res.headers.get('location')).toBe('https://shop.example.com/api/v1/products?limit=3')
    }
  })

  test('/health answers 200 whatever X-Forwarded-Proto says', async () => {
    for (const proto of ['http', 'https', undefined]) {
      const res = await s.fetch('/health', { headers: proto ? { 'x-forwarded-proto': proto } : {} })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ status: 'ok', replica: { state: 'off', lagSeconds: null } })
    }
  })

  test('the client IP is the rightmost X-Forwarded-For entry; a spoofed leftmost one changes nothing', async () => {
    const status = async (xff: string) => {
      const res = await s.fetch('/api/no-such-endpoint', https({ 'x-forwarded-for': xff }))
      await res.body?.cancel()
      return res.status
    }
    // 203.0.113.7 spends its two requests even though the client rotates the left part.
    expect(await status('1.1.1.1, 203.0.113.7')).toBe(404)
    expect(await status('2.2.2.2, 203.0.113.7')).toBe(404)
    expect(await status('3.3.3.3, 203.0.113.7')).toBe(429)
    expect(await status('203.0.113.7')).toBe(429)
    // Another rightmost address has its own counter, even with the first one spoofed on the left.
    expect(await status('203.0.113.7, 198.51.100.9')).toBe(404)
    expect(await status('198.51.100.9')).toBe(404)
    expect(await status('198.51.100.9')).toBe(429)
  })
})

test('without TRUST_PROXY, X-Forwarded-For and X-Forwarded-Proto are ignored', async () => {
  const s = await startTestServer({ rateLimitAnonymous: 2 }, { clock: windowStartClock() })
  try {
    const statuses: number[] = []
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) {
      const res = await s.fetch('/api/no-such-endpoint', {
        headers: { 'x-forwarded-for': ip, 'x-forwarded-proto': 'http' },
      })
      await res.body?.cancel()
      statuses.push(res.status)
    }
    // One socket address, one counter; and no redirect on the https port.
    expect(statuses).toEqual([404, 404, 429])
  } finally {
    await s.stop()
  }
})
