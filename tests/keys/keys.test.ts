/**
 * API keys: `sfk_` + 33 base62 characters from 24 random
 * bytes; only the SHA-256 hash and a 12-character prefix are stored (the secret is nowhere in
 * the database file); lastUsedAt is written behind; scopes are enforced, `all` grants all.
 */
import { describe, expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { hasScope, parseScopes, SCOPES } from '../../src/lib/scopes'
import { fixedClock } from '../../src/lib/time'
import { createKey, KEY_RE, listKeys } from '../../src/modules/keys/service'
import { appForFile, expectStatus } from '../helpers/app'
import { makeStore } from '../helpers/factories'

const clock = fixedClock(Date.UTC(2026, 2, 1, 12, 0, 0))
const t = appForFile({}, { clock })

describe('format and randomness', () => {
  test('sfk_ + 33 base62 characters, and 62^33 covers the 192 bits of 24 random bytes', () => {
    const store = makeStore(t.deps)
    const keys = t.deps.db.$client.transaction(() =>
      Array.from(
        { length: 1000 },
        () => createKey({ ctx: { db: t.deps.db, clock }, input: { storeId: store.id, scopes: ['all'] } }).key,
      ),
    )()
    for (const k of keys) {
      expect(k).toMatch(/^sfk_[0-9A-Za-z]{33}$/)
      expect(KEY_RE.test(k)).toBe(true)
    }
    expect(new Set(keys).size).toBe(keys.length)
    expect(33 * Math.log2(62)).toBeGreaterThanOrEqual(192)
    // Every base62 character shows up, at every position but the first few (leading digits of a
    // 192-bit number in base 62 are bounded): no constant filler, no reduced alphabet.
    const chars = new Set(keys.flatMap((k) => [...k.slice(4)]))
    expect(chars.size).toBe(62)
    for (let pos = 6; pos < 37; pos++) expect(new Set(keys.map((k) => k[pos])).size).toBeGreaterThan(50)
  })
})

describe('storage', () => {
  test('the row holds the SHA-256 hash and a 12-character prefix; the secret is in no column, not in the file', () => {
    const store = makeStore(t.deps)
    const { id, key } = createKey({
      ctx: { db: t.deps.db, clock },
      input: { storeId: store.id, scopes: ['products:read'], name: 'till' },
    })
    const row = t.deps.db.$client
      .query<Record<string, unknown>, [string]>('SELECT * FROM api_keys WHERE id = ?')
      .get(id)!
    expect(row.hash).toBe(createHash('sha256').update(key).digest('hex'))
    expect(row.prefix).toBe(key.slice(0, 12))
    for (const value of Object.values(row))
      if (typeof value === 'string') expect(value.includes(key.slice(12))).toBe(false)

    const secretPart = Buffer.from(key.slice(12))
    const files = ['storefront.db', 'storefront.db-wal'].map((f) => path.join(t.config.dataDir, f)).filter(existsSync)
    expect(files.length).toBeGreaterThan(0)
    const scan = () => files.some((f) => readFileSync(f).includes(secretPart))
    expect(scan()).toBe(false)
    t.deps.db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    expect(scan()).toBe(false)
    // The scan would find it if it were there: the prefix is.
    expect(readFileSync(path.join(t.config.dataDir, 'storefront.db')).includes(Buffer.from(key.slice(0, 12)))).toBe(
      true,
    )
  })

  test('listKeys shows the prefix and never the secret or the hash', () => {
    const store = makeStore(t.deps)
    const { key } = createKey({ ctx: { db: t.deps.db, clock }, input: { storeId: store.id, scopes: ['all'] } })
    const [listed] = listKeys({ ctx: { db: t.deps.db }, input: { storeId: store.id } })
    expect(Object.keys(listed!).sort()).toEqual([
      'createdAt',
      'expiresAt',
      'id',
      'lastUsedAt',
      'name',
      'prefix',
      'revokedAt',
      'scopes',
    ])
    expect(JSON.stringify(listed)).not.toContain(key.slice(12))
  })
})

test('lastUsedAt is set by use (written behind, seen after a flush)', async () => {
  const store = makeStore(t.deps)
  const { id, key } = createKey({ ctx: { db: t.deps.db, clock }, input: { storeId: store.id, scopes: ['all'] } })
  const lastUsed = () =>
    listKeys({ ctx: { db: t.deps.db }, input: { storeId: store.id } }).find((k) => k.id === id)!.lastUsedAt
  expect(lastUsed()).toBeNull()
  clock.advance(5_000)
  expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(200)
  t.app.gate.flushUsage()
  expect(lastUsed()).toBe(new Date(clock.now()).toISOString())
  clock.advance(60_000)
  expectStatus(...(await t.api.get('/api/v1/categories', { key }))).toBe(200)
  t.app.gate.flushUsage()
  expect(lastUsed()).toBe(new Date(clock.now()).toISOString())
})

describe('scopes', () => {
  test('GET needs :read and POST/PUT/DELETE need :write of the resource', async () => {
    const store = makeStore(t.deps)
    const { key } = createKey({
      ctx: { db: t.deps.db, clock },
      input: { storeId: store.id, scopes: ['products:read', 'categories:write'] },
    })
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(200)
    const [res, body] = await t.api.post('/api/v1/products', { name: 'Mug', price: 1 }, { key })
    expectStatus(res, body).toBe(403)
    expect(body).toEqual({
      error: expect.stringContaining('products:write'),
      code: 'FORBIDDEN',
      details: { scope: 'products:write' },
    })
    expectStatus(...(await t.api.get('/api/v1/categories', { key }))).toBe(403)
    expectStatus(...(await t.api.post('/api/v1/categories', { name: 'Cups' }, { key }))).toBe(201)
  })

  test('`all` grants every scope', async () => {
    const store = makeStore(t.deps)
    const { key } = createKey({ ctx: { db: t.deps.db, clock }, input: { storeId: store.id, scopes: ['all'] } })
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(200)
    expectStatus(...(await t.api.post('/api/v1/products', { name: 'Mug', price: 1 }, { key }))).toBe(201)
    for (const s of SCOPES) expect(hasScope(['all'], s)).toBe(true)
  })

  test('a key with no scopes can do nothing', async () => {
    const store = makeStore(t.deps)
    const { key } = createKey({ ctx: { db: t.deps.db, clock }, input: { storeId: store.id, scopes: [] } })
    expectStatus(...(await t.api.get('/api/v1/products', { key }))).toBe(403)
  })

  test('the matcher fails closed', () => {
    expect(hasScope(['all'], 'secrets:read')).toBe(false)
    expect(hasScope(['products:read'], 'products:write')).toBe(false)
    expect(hasScope(['products:*'], 'products:read')).toBe(false)
    expect(hasScope([''], 'products:read')).toBe(false)
  })

  test('the documented scopes, exactly', () => {
    expect<string[]>([...SCOPES].sort()).toEqual(
      (
        'store:read store:write products:read products:write categories:read categories:write orders:read ' +
        'orders:write discounts:read discounts:write reviews:read reviews:write customers:read stats:read ' +
        'shipping:read shipping:write webhooks:read webhooks:write'
      )
        .split(' ')
        .sort(),
    )
  })

  test('parseScopes accepts comma lists and `all`, rejects unknown names', () => {
    expect(parseScopes('products:read,orders:write')).toEqual(['products:read', 'orders:write'])
    expect(parseScopes('products:read, products:read')).toEqual(['products:read'])
    expect(parseScopes('all')).toEqual(['all'])
    expect(() => parseScopes('products:read,products:delete')).toThrow(/products:delete/)
    expect(() => parseScopes('all,products:read')).toThrow()
    expect(() => parseScopes('')).toThrow()
  })
})
