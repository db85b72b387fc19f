/**
 * The negative cases of the order of checks (docs/api.md), for every authenticated route:
 * 401 (missing, malformed, unknown, revoked, expired key; before body validation) → 402 → 429
 * → 403 scope → 403 another store's record → 403 PLAN_REQUIRED.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile, expectStatus, windowStartClock } from '../helpers/app'
import { makeKey, makeShop, makeStore } from '../helpers/factories'
import { PROTECTED_ROUTES, type ProtectedRoute } from '../helpers/protected-routes'
import { policyFor } from '../helpers/access'
import { revokeKey } from '../../src/modules/keys/service'
import { suspendStore } from '../../src/modules/platform-stores/service'
import { systemClock } from '../../src/lib/time'

const t = appForFile({ rateLimitKey: 3 }, { clock: windowStartClock() })

const FAKE_ID = 'zzzzzzzzzzzzzzzzzzzzzzzz'
const pathOf = (r: ProtectedRoute, id = FAKE_ID) =>
  r.path.replace(':deliveryId', FAKE_ID).replace(':imageId', FAKE_ID).replace(':id', id)
const call = (
  r: ProtectedRoute,
  opts: { key?: string; raw?: string; headers?: Record<string, string> } = {},
  id?: string,
) => t.api.call(r.method, pathOf(r, id), r.body, opts)

test('every registered /api/v1 route is in the table, with the scope the gate enforces', () => {
  const registered = t.app.routes
    .filter((r) => r.path.startsWith('/api/v1/') && !r.path.startsWith('/api/v1/stores'))
    .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`)
  const listed = PROTECTED_ROUTES.map((r) => `${r.method} ${r.path}`)
  expect(registered.sort()).toEqual([...new Set(listed)].sort())
  for (const r of PROTECTED_ROUTES) {
    const p = policyFor(r.method, pathOf(r))
    expect(p).toMatchObject({ kind: 'key', scope: r.scope })
    expect((p as { feature?: string }).feature).toBe(r.feature)
  }
})

describe.each(PROTECTED_ROUTES.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  test('401 without a key, with a malformed header, an unknown, revoked or expired key', async () => {
    const { store } = makeShop(t.deps)
    const revoked = makeKey(t.deps, store.id)
    const revokedId = t.deps.db.$client
      .query<{ id: string }, [string]>('SELECT id FROM api_keys WHERE prefix = ?')
      .get(revoked.slice(0, 12))!.id
    revokeKey({ ctx: { db: t.adminDb(), clock: systemClock }, input: { id: revokedId } })
    const expired = makeKey(t.deps, store.id, ['all'], { expiresAt: Date.now() - 1000 })
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Token abc' },
      { authorization: 'Bearer' },
      { authorization: `Bearer sfk_${'A'.repeat(33)}` },
      { authorization: `Bearer ${revoked}` },
      { authorization: `Bearer ${expired}` },
    ]
    for (const headers of cases) {
      const [res, body] = await call(route, { headers })
      expectStatus(res, body).toBe(401)
      expect(body.code).toBe('UNAUTHORIZED')
      expect(typeof body.error).toBe('string')
      expect(res.headers.get('x-ratelimit-limit')).not.toBeNull()
    }
    if (route.method !== 'GET' && route.method !== 'DELETE') {
      const [res, body] = await call(route, { raw: '{not json' })
      expectStatus(res, body).toBe(401)
    }
  })

  test('402 with the exact body when the store is suspended, before scope and limits', async () => {
    const { store } = makeShop(t.deps)
    const key = makeKey(t.deps, store.id, ['store:read'])
    suspendStore({ ctx: { db: t.adminDb(), clock: systemClock }, input: { storeId: store.id, reason: 'unpaid' } })
    const [res, body] = await call(route, { key })
    expectStatus(res, body).toBe(402)
    expect(body).toEqual({
      error: 'payment_required',
      message: expect.any(String),
      state: 'suspended',
      upgradeUrl: t.config.upgradeUrl,
    })
  })

  test('429 once the per-key limit is spent, with Retry-After and Remaining 0', async () => {
    const { store } = makeShop(t.deps)
    const key = makeKey(t.deps, store.id, [])
    for (let i = 0; i < 3; i++) {
      const [res] = await call(route, { key })
      expect(res.status).toBe(403)
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(2 - i))
    }
    const [res, body] = await call(route, { key })
    expectStatus(res, body).toBe(429)
    expect(body.code).toBe('RATE_LIMIT_EXCEEDED')
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(body.error).toMatch(/\d+ seconds/)
  })

  test(`403 FORBIDDEN naming ${route.scope} for a key without it`, async () => {
    const { store } = makeShop(t.deps)
    const other = route.scope.endsWith(':read')
      ? route.scope.replace(':read', ':write')
      : route.scope.replace(':write', ':read')
    const key = makeKey(t.deps, store.id, [
      other === 'customers:write' || other === 'stats:write' ? 'orders:read' : other,
    ])
    const [res, body] = await call(route, { key, raw: route.body === undefined ? undefined : '{bad json' })
    expectStatus(res, body).toBe(403)
    expect(body.code).toBe('FORBIDDEN')
    expect(body.error).toContain(route.scope)
  })

  if (route.own) {
    test("403 for another store's record", async () => {
      const mine = makeShop(t.deps)
      const theirs = makeStore(t.deps)
      const id = await route.own!(t.deps, theirs.id)
      const [res, body] = await call(route, { key: mine.key }, id)
      expectStatus(res, body).toBe(403)
      expect(body.code).toBe('FORBIDDEN')
      expect(JSON.stringify(body)).not.toContain(theirs.id)
    })

    if (route.body !== undefined) {
      test("403 for another store's record comes before body validation (400)", async () => {
        const mine = makeShop(t.deps)
        const theirs = makeStore(t.deps)
        const id = await route.own!(t.deps, theirs.id)
        for (const raw of ['{not json', '{"status": 12, "price": "x", "name": 5, "url": 1}']) {
          const [res, body] = await call(route, { key: mine.key, raw }, id)
          expectStatus(res, body).toBe(403)
          expect(body.code).toBe('FORBIDDEN')
        }
      })
    }
  }

  if (route.feature) {
    test(`403 PLAN_REQUIRED (${route.feature}) on the free plan`, async () => {
      const { key } = makeShop(t.deps, { plan: 'free' })
      const [res, body] = await call(route, { key })
      expectStatus(res, body).toBe(403)
      expect(body).toMatchObject({
        error: 'plan_required',
        code: 'PLAN_REQUIRED',
        feature: route.feature,
        upgradeUrl: t.config.upgradeUrl,
      })
    })
  }
})
