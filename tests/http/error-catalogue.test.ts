/**
 * One closed catalogue of error codes (lib/errors.ts): the throwers take their status from it,
 * the mapper answers only its codes, and the OpenAPI document's `code` enum is exactly the list.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { AppError, Conflict, ERROR_CODES, ERROR_STATUS, codeToStatus } from '../../src/lib/errors'
import { toErrorResult } from '../../src/plugins/errors'
import { createLogger } from '../../src/lib/log'
import { makeApp, type Json, type TestApp } from '../helpers/app'
import { makeShop } from '../helpers/factories'

let t: TestApp
let doc: Json
let key: string
beforeAll(async () => {
  t = makeApp()
  key = makeShop(t.deps, { plan: 'pro' }).key
  doc = await (await t.app.handle(new Request('http://localhost/docs/json'))).json()
})
afterAll(() => t.close())

/** Every `code` enum in the document's response schemas. */
function codeEnums(node: Json, out: string[][] = []): string[][] {
  if (!node || typeof node !== 'object') return out
  if (node.properties?.code) {
    const c = node.properties.code
    const values: string[] | undefined = c.enum ?? c.anyOf?.map((x: Json) => x.const)
    if (values && values.length > 1) out.push(values)
  }
  for (const v of Object.values(node)) codeEnums(v, out)
  return out
}

describe('the error catalogue', () => {
  test('each thrower takes its status from the catalogue', () => {
    expect(new Conflict('DUPLICATE_SLUG', 'x').status).toBe(409)
    for (const code of ERROR_CODES) expect(new AppError(code, 'x').status).toBe(codeToStatus(code))
    expect(codeToStatus('SERVICE_UNAVAILABLE')).toBe(503)
    expect(codeToStatus('PLAN_REQUIRED')).toBe(403)
  })

  test('the mapper answers only catalogue codes, with the catalogue status', () => {
    const log = createLogger('silent')
    for (const [code, error] of [
      ['NOT_FOUND', new Error()],
      ['X', new Error('boom')],
      ['X', Object.assign(new Error(), { status: 413 })],
    ] as const) {
      const r = toErrorResult(code, error, { log })
      const c = r.body.code as keyof typeof ERROR_STATUS
      expect(ERROR_CODES).toContain(c)
      expect(r.status).toBe(ERROR_STATUS[c])
    }
  })

  test('the OpenAPI `code` enum is the catalogue', () => {
    const enums = codeEnums(doc)
    expect(enums.length).toBeGreaterThan(0)
    for (const e of enums) expect([...e].sort()).toEqual([...ERROR_CODES].sort())
  })

  test('answers seen over HTTP carry catalogue codes', async () => {
    const seen: [number, string][] = []
    for (const [method, path, body, k] of [
      ['GET', '/api/v1/products', undefined, undefined],
      ['GET', '/api/v1/nothing', undefined, key],
      ['POST', '/api/v1/products', { price: 1 }, key],
      ['GET', '/api/v1/products/nope', undefined, key],
    ] as const) {
      const [res, json] = await t.api.call(method, path, body, { key: k })
      seen.push([res.status, json.code])
    }
    for (const [status, code] of seen) expect(codeToStatus(code as never)).toBe(status)
  })
})
