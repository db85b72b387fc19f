/**
 * Fuzzing every POST/PUT body and GET query string under /api (CI size: 40 runs per route;
 * `bun run resilience` runs 1,000): never a 5xx, the spec's error shape, no partial writes.
 * Plus regression tests for what the fuzzer found.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runFuzz, setAt } from './fuzz'
import { expectClean } from './expect'
import { makeApp, expectStatus, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../../src/plugins/body-depth'

test('fuzz: arbitrary bodies and query strings on every /api route', async () => {
  expectClean(await runFuzz({ runsPerRoute: 40 }))
}, 60_000)

// The generator itself once threw in CI: a key named "length" added to an array set an invalid length.
test('the fuzzer adds a named key to an array as an element, whatever the name', () => {
  expect(setAt({ items: [1] }, ['items', 'length'], -1, false)).toEqual({ items: [1, -1] })
  expect(setAt({ items: [1, 2] }, ['items', 0], 'x', true)).toEqual({ items: [2] })
  expect(setAt({ a: 1 }, ['length'], -1, false)).toEqual({ a: 1, length: -1 })
})

describe('deep nesting (found by the fuzzer)', () => {
  let t: TestApp
  let key: string
  beforeAll(() => {
    t = makeApp()
    key = makeShop(t.deps).key
  })
  afterAll(() => t.close())

  // Found by the fuzzer: a 200 KB body nested 100,000 levels made Elysia's ValidationError
  // stringify it recursively (~5 s of CPU, then a stack overflow and a 500).
  for (const [label, text] of [
    ['arrays', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['objects', `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`],
  ] as const) {
    test(`a body of deeply nested ${label} → 400 VALIDATION_ERROR too_deep on public and key routes`, async () => {
      for (const [path, opts] of [
        ['/api/orders', {}],
        ['/api/v1/webhooks', { key }],
        ['/api/v1/products', { key }],
      ] as const) {
        const [res, body] = await t.api.post(path, undefined, { ...opts, raw: text })
        expectStatus(res, body).toBe(400)
        expect(body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body', reason: 'too_deep' } })
      }
    })
  }

  test('a multipart body with a deep JSON field is a 400, not a 500', async () => {
    const form = new FormData()
    form.set('name', '['.repeat(20_000) + ']'.repeat(20_000))
    const res = await t.app.handle(
      new Request('http://localhost/api/v1/products', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form,
      }),
    )
    const body = (await res.json()) as { code: string }
    expectStatus(res, body).toBe(400)
    expect(body.code).toBe('VALIDATION_ERROR')
  })

  test(`nesting up to ${MAX_BODY_DEPTH} levels is left to the schemas`, () => {
    let v: unknown = 1
    for (let i = 0; i < MAX_BODY_DEPTH; i++) v = [v]
    expect(nestsDeeperThan(v, MAX_BODY_DEPTH)).toBe(false)
    expect(nestsDeeperThan([v], MAX_BODY_DEPTH)).toBe(true)
    expect(nestsDeeperThan({ items: [{ variantId: 'x', quantity: 1 }] }, MAX_BODY_DEPTH)).toBe(false)
    expect(nestsDeeperThan(null, 1)).toBe(false)
  })
})
