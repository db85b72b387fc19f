/**
 * The admin CLI: every command with --json prints exactly one JSON object
 * with the documented fields; errors are JSON too, with a non-zero exit; migrations run first;
 * and what the CLI does through its own connection takes effect on a running app's very next
 * request (PRAGMA data_version invalidation).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Database } from 'bun:sqlite'
import { rmSync } from 'node:fs'
import path from 'node:path'
import { runAdmin } from '../../src/cli/admin'
import { fixedClock, type Clock } from '../../src/lib/time'
import { makeApp, expectStatus, tempDir, type Json, type TestApp } from '../helpers/app'
import { ROOT } from '../helpers/server'

/** Runs one command; returns the exit code, the parsed JSON and how many lines were printed. */
function admin(dataDir: string, ...argv: string[]): { code: number; json: Json; lines: number } {
  return adminAt(undefined, dataDir, ...argv)
}
/** The same, judging dates (key expiry) by `clock`, as the app under test does. */
function adminAt(
  clock: Clock | undefined,
  dataDir: string,
  ...argv: string[]
): { code: number; json: Json; lines: number } {
  const out: string[] = []
  const code = runAdmin(
    [...argv, '--json'],
    (s) => out.push(s),
    { DATA_DIR: dataDir },
    () => {},
    { clock },
  )
  expect(out.length).toBe(1)
  return { code, json: JSON.parse(out[0]!), lines: out.length }
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('commands and their JSON', () => {
  let dir: string
  beforeAll(() => {
    dir = tempDir('sf-cli-')
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('migrations run before the first command on an empty DATA_DIR', () => {
    const { code, json } = admin(dir, 'store:list')
    expect(code).toBe(0)
    expect(json).toEqual({ data: [] })
    const db = new Database(path.join(dir, 'storefront.db'), { readonly: true })
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name)
    db.close()
    expect(tables).toEqual(expect.arrayContaining(['stores', 'api_keys', 'rate_limits']))
  })

  let storeId: string
  test('store:create → { id, slug, name, plan, currency, status }, published, plan free by default', () => {
    const { code, json } = admin(
      dir,
      'store:create',
      '--name',
      'Café Luna',
      '--currency',
      'eur',
      '--whatsapp',
      '+34 612 345 678',
    )
    // Read before toMatchObject: Bun 1.4.5's toMatchObject writes its asymmetric matchers into the received object.
    storeId = json.id
    expect(code).toBe(0)
    expect(json).toMatchObject({
      id: expect.any(String),
      slug: 'cafe-luna',
      name: 'Café Luna',
      plan: 'free',
      currency: 'EUR',
      status: 'active',
    })
    expect(json.isPublished).toBe(true)
    const db = new Database(path.join(dir, 'storefront.db'), { readonly: true })
    const row = db.query<Record<string, unknown>, [string]>('SELECT * FROM stores WHERE id = ?').get(storeId)!
    db.close()
    expect(row).toMatchObject({ is_published: 1, is_maintenance: 0, plan: 'free', whatsapp_number: '+34612345678' })

    const pro = admin(dir, 'store:create', '--name', 'Second', '--slug', 'second-shop', '--plan', 'pro')
    expect(pro.json).toMatchObject({ slug: 'second-shop', plan: 'pro', currency: 'USD', status: 'active' })
  })

  test('store:list → { data: [store…] }', () => {
    const { json } = admin(dir, 'store:list')
    expect(json.data.map((s: Json) => s.slug)).toEqual(['cafe-luna', 'second-shop'])
    for (const s of json.data)
      expect(Object.keys(s)).toEqual(expect.arrayContaining(['id', 'slug', 'name', 'plan', 'currency', 'status']))
  })

  test('store:plan <store> <plan> by slug or id', () => {
    expect(admin(dir, 'store:plan', 'cafe-luna', 'lifetime').json).toMatchObject({ id: storeId, plan: 'lifetime' })
    expect(admin(dir, 'store:plan', storeId, 'pro').json).toMatchObject({ id: storeId, plan: 'pro' })
  })

  test('store:suspend --reason → suspended; store:reinstate → active', () => {
    expect(admin(dir, 'store:suspend', 'cafe-luna', '--reason', 'chargeback').json).toMatchObject({
      id: storeId,
      status: 'suspended',
    })
    expect(admin(dir, 'store:reinstate', 'cafe-luna').json).toMatchObject({ id: storeId, status: 'active' })
  })

  let keyId: string
  test('key:create → { id, key, scopes, expiresAt }; key:list never shows the secret', () => {
    const created = admin(
      dir,
      'key:create',
      '--store',
      'cafe-luna',
      '--scopes',
      'products:read,orders:write',
      '--name',
      'POS',
      '--expires-at',
      '2030-01-01T00:00:00Z',
    )
    expect(created.code).toBe(0)
    keyId = created.json.id
    const secret: string = created.json.key
    expect(created.json).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^sfk_[0-9A-Za-z]{33}$/),
      scopes: ['products:read', 'orders:write'],
      expiresAt: '2030-01-01T00:00:00.000Z',
    })
    const all = admin(dir, 'key:create', '--store', storeId, '--scopes', 'all')
    const allSecret: string = all.json.key
    expect(all.json).toMatchObject({ scopes: ['all'], expiresAt: null })

    const { json } = admin(dir, 'key:list', '--store', 'cafe-luna')
    expect(json.data).toHaveLength(2)
    const listed = json.data.find((k: Json) => k.id === keyId)
    expect(listed).toMatchObject({
      id: keyId,
      name: 'POS',
      prefix: secret.slice(0, 12),
      scopes: ['products:read', 'orders:write'],
      expiresAt: '2030-01-01T00:00:00.000Z',
      revokedAt: null,
      lastUsedAt: null,
    })
    const text = JSON.stringify(json)
    expect(text).not.toContain(secret)
    expect(text).not.toContain(allSecret)
    expect(text).not.toMatch(/"hash"/)
  })

  test('key:revoke → { id, revokedAt }, idempotent', () => {
    const first = admin(dir, 'key:revoke', keyId)
    expect(first.json).toEqual({ id: keyId, revokedAt: expect.stringMatching(ISO) })
    const again = admin(dir, 'key:revoke', keyId)
    expect(again.json).toEqual(first.json)
    expect(admin(dir, 'key:list', '--store', storeId).json.data.find((k: Json) => k.id === keyId).revokedAt).toBe(
      first.json.revokedAt,
    )
  })

  const failures: [string, string[], string, number][] = [
    ['an unknown store', ['store:plan', 'no-such-store', 'pro'], 'NOT_FOUND', 1],
    ['an unknown plan', ['store:plan', 'cafe-luna', 'platinum'], 'VALIDATION_ERROR', 1],
    ['a duplicate slug', ['store:create', '--name', 'Dup', '--slug', 'cafe-luna'], 'DUPLICATE_SLUG', 1],
    ['a missing --name', ['store:create'], 'USAGE', 2],
    [
      'an unknown scope',
      ['key:create', '--store', 'cafe-luna', '--scopes', 'products:read,products:delete'],
      'USAGE',
      2,
    ],
    ['an empty scope list', ['key:create', '--store', 'cafe-luna', '--scopes', ','], 'USAGE', 2],
    [
      'a bad --expires-at',
      ['key:create', '--store', 'cafe-luna', '--scopes', 'all', '--expires-at', 'tomorrow'],
      'USAGE',
      2,
    ],
    ['an unknown key', ['key:revoke', 'nope'], 'NOT_FOUND', 1],
    ['a bad suspend reason', ['store:suspend', 'cafe-luna', '--reason', 'bored'], 'USAGE', 2],
    ['an unknown command', ['store:explode'], 'USAGE', 2],
  ]
  for (const [name, argv, code, exit] of failures) {
    test(`${name} → one JSON error, exit ${exit}`, () => {
      const r = admin(dir, ...argv)
      expect(r.code).toBe(exit)
      expect(r.json).toMatchObject({ error: expect.any(String), code })
    })
  }

  test('an unknown scope names the bad scope', () => {
    expect(admin(dir, 'key:create', '--store', 'cafe-luna', '--scopes', 'products:delete').json.error).toContain(
      'products:delete',
    )
  })

  test('a bad environment is a JSON error too', () => {
    const out: string[] = []
    const code = runAdmin(
      ['store:list', '--json'],
      (s) => out.push(s),
      { DATA_DIR: dir, DB_SYNCHRONOUS: 'sometimes' },
      () => {},
    )
    expect(code).toBe(2)
    expect(JSON.parse(out[0]!)).toMatchObject({ code: 'CONFIG', error: expect.stringContaining('DB_SYNCHRONOUS') })
  })
})

describe('a running app sees CLI changes on the very next request', () => {
  let t: TestApp
  const clock = fixedClock(Date.UTC(2026, 0, 1, 0, 0, 30))
  beforeAll(() => {
    t = makeApp({}, { clock })
  })
  afterAll(() => t.close())
  const cli = (...argv: string[]) => adminAt(clock, t.config.dataDir, ...argv).json

  test('a new key works at once; revocation is refused at once', async () => {
    const store = cli('store:create', '--name', 'Live Shop', '--plan', 'pro')
    // Warm the app's caches with an unknown key and a key of this store.
    const warm = cli('key:create', '--store', store.id, '--scopes', 'all')
    expectStatus(...(await t.api.get('/api/v1/products', { key: warm.key }))).toBe(200)
    const { id, key } = cli('key:create', '--store', store.id, '--scopes', 'products:read')
    const [res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(200)
    expectStatus(...(await t.api.get('/api/v1/categories', { key }))).toBe(403)

    cli('key:revoke', id)
    const [res2, body2] = await t.api.get('/api/v1/products', { key })
    expectStatus(res2, body2).toBe(401)
    expect(body2.code).toBe('UNAUTHORIZED')
    // The other key of the store is untouched.
    expectStatus(...(await t.api.get('/api/v1/products', { key: warm.key }))).toBe(200)
  })

  test('an expiry date is honoured by the clock of the app', async () => {
    const store = cli('store:create', '--name', 'Expiring Shop')
    const expiresAt = new Date(clock.now() + 10_000).toISOString()
    const { key } = cli('key:create', '--store', store.slug, '--scopes', 'all', '--expires-at', expiresAt)
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(200)
    clock.advance(10_000)
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(401)
    // A date already past is refused (exit 2) rather than making a key that never works.
    const past = adminAt(
      clock,
      t.config.dataDir,
      'key:create',
      '--store',
      store.slug,
      '--scopes',
      'all',
      '--expires-at',
      new Date(clock.now() - 1).toISOString(),
    )
    expect(past.code).toBe(2)
    expect(past.json).toMatchObject({ code: 'USAGE', error: expect.stringContaining('in the past') })
  })

  test('suspension → 402 on the next request; reinstatement → the same key works again', async () => {
    const store = cli('store:create', '--name', 'Suspended Shop', '--plan', 'pro')
    const { key } = cli('key:create', '--store', store.id, '--scopes', 'all')
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(200)
    expect(cli('store:suspend', store.id, '--reason', 'unpaid').status).toBe('suspended')
    const [res, body] = await t.api.get('/api/v1/products', { key })
    expectStatus(res, body).toBe(402)
    expect(body).toMatchObject({ error: 'payment_required', state: 'suspended' })
    expect(cli('store:reinstate', store.id).status).toBe('active')
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(200)
  })

  test('a plan change is seen by the next request (paid feature gate)', async () => {
    const store = cli('store:create', '--name', 'Plan Shop', '--plan', 'pro')
    const { key } = cli('key:create', '--store', store.id, '--scopes', 'all')
    const [before] = await t.api.get('/api/v1/stats', { key })
    expect(before.status).not.toBe(403)
    cli('store:plan', store.id, 'free')
    const [res, body] = await t.api.get('/api/v1/stats', { key })
    expectStatus(res, body).toBe(403)
    expect(body).toMatchObject({ code: 'PLAN_REQUIRED', feature: 'advancedAnalytics' })
  })
})

test('`bun run admin … --json` as a separate process: one JSON object on stdout, and the key works', async () => {
  const t = makeApp()
  try {
    const run = (...args: string[]) => {
      const p = Bun.spawnSync(['bun', 'run', '--silent', 'admin', ...args, '--json'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: t.config.dataDir },
      })
      const stdout = p.stdout.toString().trim()
      expect(stdout.split('\n')).toHaveLength(1)
      return { code: p.exitCode, json: JSON.parse(stdout) }
    }
    const store = run('store:create', '--name', 'Spawned Shop', '--plan', 'pro')
    expect(store.code).toBe(0)
    expect(store.json).toMatchObject({ slug: 'spawned-shop', plan: 'pro', status: 'active' })
    const created = run('key:create', '--store', 'spawned-shop', '--scopes', 'products:read,products:write')
    expect(created.code).toBe(0)
    const [res, body] = await t.api.post('/api/v1/products', { name: 'Mug', price: 3.5 }, { key: created.json.key })
    expectStatus(res, body).toBe(201)
    const bad = run('key:create', '--store', 'spawned-shop', '--scopes', 'everything')
    expect(bad.code).toBe(2)
    expect(bad.json.code).toBe('USAGE')
  } finally {
    t.close()
  }
})
