/**
 * The operator's settings: parsed once, defaults for unset or
 * empty variables, and a start that stops with every bad variable named.
 */
import { describe, expect, test } from 'bun:test'
import path from 'node:path'
import { ConfigError, loadConfig } from '../../src/config'
import { ROOT } from '../helpers/server'

describe('loadConfig', () => {
  test('defaults match the documented table', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({
      port: 3443,
      httpPort: 3080,
      host: '0.0.0.0',
      trustProxy: false,
      tlsCertFile: undefined,
      tlsKeyFile: undefined,
      publicUrl: undefined,
      rateLimitKey: 100,
      rateLimitOrders: 10,
      rateLimitReviews: 3,
      rateLimitCheckSlug: 30,
    })
    expect(c.dataDir).toBe(path.resolve('./data'))
  })

  test('reads every variable it is given', () => {
    const c = loadConfig({
      DATA_DIR: '/srv/shop',
      PORT: '8443',
      HTTP_PORT: '8080',
      HOST: '127.0.0.1',
      TLS_CERT_FILE: '/etc/c.pem',
      TLS_KEY_FILE: '/etc/k.pem',
      TRUST_PROXY: '1',
      PUBLIC_URL: 'https://shop.example.com/',
      RATE_LIMIT_KEY_PER_MIN: '250',
    })
    expect(c).toMatchObject({
      dataDir: '/srv/shop',
      port: 8443,
      httpPort: 8080,
      host: '127.0.0.1',
      tlsCertFile: '/etc/c.pem',
      tlsKeyFile: '/etc/k.pem',
      trustProxy: true,
      publicUrl: 'https://shop.example.com',
      rateLimitKey: 250,
    })
  })

  test('empty variables take their defaults; TRUST_PROXY=0 is off', () => {
    expect(loadConfig({ PORT: '', TRUST_PROXY: '0' })).toMatchObject({ port: 3443, trustProxy: false })
  })

  test('every bad variable is named, in one error', () => {
    let err: unknown
    try {
      loadConfig({
        PORT: 'abc',
        HTTP_PORT: '70000',
        RATE_LIMIT_KEY_PER_MIN: '0',
        TRUST_PROXY: 'maybe',
        PUBLIC_URL: 'ftp://x',
        LOG_LEVEL: 'loud',
      })
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ConfigError)
    const problems = (err as ConfigError).problems
    for (const name of [
      'PORT=',
      'HTTP_PORT=',
      'RATE_LIMIT_KEY_PER_MIN=',
      'TRUST_PROXY=',
      'PUBLIC_URL=',
      'LOG_LEVEL=',
    ]) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true)
    }
    expect(problems).toHaveLength(6)
    expect((err as Error).message).toContain('PORT="abc"')
  })

  test('numbers must be whole and in range', () => {
    for (const bad of ['-1', '1.5', '1e3', ' ', '0x10', '65536'])
      expect(() => loadConfig({ PORT: bad })).toThrow(ConfigError)
    expect(loadConfig({ PORT: '0' }).port).toBe(0)
  })

  test('the memory watch: 32 MB steps by default, 0 turns it off, a negative step is refused', () => {
    expect(loadConfig({}).memoryCollectStepMb).toBe(32)
    expect(loadConfig({ MEMORY_COLLECT_STEP_MB: '0' }).memoryCollectStepMb).toBe(0)
    expect(loadConfig({ MEMORY_COLLECT_STEP_MB: '16' }).memoryCollectStepMb).toBe(16)
    expect(() => loadConfig({ MEMORY_COLLECT_STEP_MB: '-1' })).toThrow(ConfigError)
  })

  test('a certificate without its key (or the reverse) is refused', () => {
    expect(() => loadConfig({ TLS_CERT_FILE: '/c.pem' })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE/)
    expect(() => loadConfig({ TLS_KEY_FILE: '/k.pem' })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE/)
  })
})

test('`bun src/index.ts` with bad values exits 2 naming each bad variable, and listens nowhere', () => {
  const p = Bun.spawnSync(['bun', 'src/index.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: 'abc', RATE_LIMIT_KEY_PER_MIN: '0', DATA_DIR: '/nonexistent/never-created' },
    timeout: 20_000,
  })
  expect(p.exitCode).toBe(2)
  const stderr = p.stderr.toString()
  expect(stderr).toContain('PORT="abc"')
  expect(stderr).toContain('RATE_LIMIT_KEY_PER_MIN="0"')
  expect(stderr).not.toContain('listening')
})
