/**
 * The served OpenAPI document as generators and linters take it:
 * lint-clean under Redocly's `recommended` rules, integers as `type: integer`, no OpenAPI 3.0
 * `nullable`, named components, camelCase verb operationIds, JSON-only bodies, documented
 * response headers, the error code enum, webhooks and servers. The rules are checked over the
 * whole document, so routes added later are held to them too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ERROR_CODES } from '../../src/openapi/error-codes'
import { NAMED_COMPONENTS } from '../../src/openapi/components'
import { fixSchema } from '../../src/openapi/normalize'
import { operationIdFor } from '../../src/openapi/operation-ids'
import { makeApp, tempDir, type Json, type TestApp } from '../helpers/app'

let t: TestApp
let doc: Json
beforeAll(async () => {
  t = makeApp()
  doc = await (await t.app.handle(new Request('http://localhost/docs/json'))).json()
})
afterAll(() => t.close())

const METHODS = ['get', 'put', 'post', 'delete', 'patch']
const operations = (): { method: string; path: string; op: Json }[] =>
  Object.entries<Json>(doc.paths).flatMap(([p, item]) =>
    Object.entries<Json>(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ method, path: p, op })),
  )

/** Every schema object in the document, with where it is. */
function schemas(): { at: string; s: Json }[] {
  const out: { at: string; s: Json }[] = []
  const visit = (s: Json, at: string) => {
    if (!s || typeof s !== 'object') return
    out.push({ at, s })
    for (const k of ['properties', 'patternProperties', '$defs'])
      for (const [n, c] of Object.entries<Json>(s[k] ?? {})) visit(c, `${at}/${k}/${n}`)
    for (const k of ['items', 'additionalProperties', 'not'])
      if (s[k] && typeof s[k] === 'object') visit(s[k], `${at}/${k}`)
    for (const k of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
      (s[k] ?? []).forEach((c: Json, i: number) => visit(c, `${at}/${k}/${i}`))
  }
  for (const [name, s] of Object.entries<Json>(doc.components.schemas)) visit(s, `#/components/schemas/${name}`)
  const media = (content: Json, at: string) =>
    Object.entries<Json>(content ?? {}).forEach(([type, m]) => visit(m.schema, `${at}/${type}`))
  for (const { method, path: p, op } of operations()) {
    const at = `${method.toUpperCase()} ${p}`
    for (const prm of op.parameters ?? []) visit(prm.schema, `${at} parameter ${prm.name}`)
    media(op.requestBody?.content, `${at} body`)
    for (const [status, r] of Object.entries<Json>(op.responses)) media(r.content, `${at} ${status}`)
  }
  for (const [event, item] of Object.entries<Json>(doc.webhooks))
    media(item.post.requestBody.content, `webhook ${event}`)
  return out
}

test('redocly lint (recommended rules) finds no error', async () => {
  const dir = tempDir('sf-openapi-lint-')
  try {
    const file = path.join(dir, 'openapi.json')
    writeFileSync(file, JSON.stringify(doc))
    const cli = path.join(import.meta.dir, '../../node_modules/@redocly/cli/bin/cli.js')
    const proc = Bun.spawnSync(
      [process.execPath, cli, 'lint', file, '--format=json', '--max-problems=1000', '--extends=recommended'],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        cwd: dir,
      },
    )
    const report = JSON.parse(proc.stdout.toString())
    const errors = report.problems
      .filter((p: Json) => p.severity === 'error')
      .map((p: Json) => `${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`)
    expect(errors).toEqual([])
    expect(report.totals.errors).toBe(0)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}, 30_000)

test('is OpenAPI 3.1 with servers', () => {
  expect(doc.openapi).toMatch(/^3\.1\./)
  expect(doc.servers.length).toBeGreaterThan(0)
  expect(doc.servers[0].url).toBeTruthy()
})

describe('schemas', () => {
  test('integers are `type: integer`: no string-or-integer unions, no number with multipleOf 1', () => {
    const bad = schemas()
      .filter(({ s }) => {
        const branches: Json[] = s.anyOf ?? s.oneOf ?? []
        const coerced = branches.some((b) => b?.type === 'string' && ['integer', 'numeric'].includes(b.format))
        const fakeInteger = [s.type].flat().includes('number') && s.multipleOf === 1
        return coerced || fakeInteger || s.format === 'integer'
      })
      .map(({ at }) => at)
    expect(bad).toEqual([])
    // Counts and quantities really are integers.
    expect(
      doc.paths['/api/v1/products'].get.responses['200'].content['application/json'].schema.properties.total.type,
    ).toBe('integer')
    const orderLine =
      doc.paths['/api/orders'].post.requestBody.content['application/json'].schema.properties.items.items
    expect(orderLine.properties.quantity.type).toBe('integer')
    expect(doc.paths['/api/v1/products'].get.parameters.find((p: Json) => p.name === 'limit').schema.type).toBe(
      'integer',
    )
  })

  test('no OpenAPI 3.0 `nullable`, no custom `error` keyword; nullable values are `null` types', () => {
    const bad = schemas()
      .filter(({ s }) => 'nullable' in s || (typeof s.error === 'string' && !s.properties))
      .map(({ at }) => at)
    expect(bad).toEqual([])
    expect(doc.components.schemas.Product.properties.description.type).toEqual(['string', 'null'])
  })

  test("the normalizer turns the generator's forms into 3.1 ones", () => {
    expect(
      fixSchema({
        anyOf: [
          { type: 'string', format: 'integer', default: 0 },
          { type: 'integer', minimum: 1 },
        ],
        minimum: 1,
        description: 'n',
      }),
    ).toEqual({
      type: 'integer',
      minimum: 1,
      description: 'n',
    })
    expect(fixSchema({ type: 'number', multipleOf: 1 })).toEqual({ type: 'integer' })
    expect(fixSchema({ nullable: true, type: 'string', enum: ['a'] })).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    })
    expect(fixSchema({ nullable: true, description: 'd', $ref: '#/components/schemas/X' })).toEqual({
      description: 'd',
      anyOf: [{ $ref: '#/components/schemas/X' }, { type: 'null' }],
    })
    expect(fixSchema({ type: 'string', error: 'custom message' })).toEqual({ type: 'string' })
    expect(
      fixSchema({
        description: 'd',
        anyOf: [
          {
            anyOf: [
              { type: 'string', format: 'integer' },
              { type: 'integer', minimum: 0 },
            ],
          },
          { type: 'null' },
        ],
      }),
    ).toEqual({
      type: ['integer', 'null'],
      minimum: 0,
      description: 'd',
    })
  })

  test('the named models are components, referenced, and never inlined again', () => {
    const text = JSON.stringify({ paths: doc.paths, webhooks: doc.webhooks, components: doc.components })
    for (const name of NAMED_COMPONENTS) {
      expect(doc.components.schemas[name]?.type).toBe('object')
      expect(text).toContain(`"$ref":"#/components/schemas/${name}"`)
    }
    const inlined = schemas()
      .filter(({ at, s }) => typeof s.title === 'string' && at !== `#/components/schemas/${s.title}`)
      .map(({ at, s }) => `${s.title} at ${at}`)
    expect(inlined).toEqual([])
    const dangling = [...text.matchAll(/"\$ref":"#\/components\/(\w+)\/([^"]+)"/g)].filter(
      ([, kind, name]) => !doc.components[kind!]?.[name!],
    )
    expect(dangling.map(([ref]) => ref)).toEqual([])
  })

  test('Error.code is the enum of every code the service throws', () => {
    expect(doc.components.schemas.Error.properties.code.enum).toEqual([...ERROR_CODES])
    // Codes named where errors are thrown: `super(409, 'X'`, `Conflict('X'`, `super('X'`.
    const thrown = new Set<string>()
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (p.endsWith('.ts'))
          for (const m of readFileSync(p, 'utf8').matchAll(/(?:super\((?:\d{3}, )?|Conflict\()'([A-Z][A-Z_]+)'/g))
            thrown.add(m[1]!)
      }
    }
    walk(path.join(import.meta.dir, '../../src'))
    expect(thrown.size).toBeGreaterThan(5)
    expect([...thrown].filter((c) => !(ERROR_CODES as readonly string[]).includes(c))).toEqual([])
  })
})

describe('operations', () => {
  test('operationIds are unique camelCase verbs', () => {
    const ids = operations().map(({ op }) => op.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    const bad = ids.filter(
      (id) => !/^(list|get|create|update|delete|check|receive|rotate|retry|moderate)[A-Z][A-Za-z]*$/.test(id),
    )
    expect(bad).toEqual([])
    const byRoute = (m: string, p: string) => doc.paths[p][m].operationId
    expect(byRoute('get', '/api/v1/products')).toBe('listProducts')
    expect(byRoute('get', '/api/v1/products/{id}')).toBe('getProduct')
    expect(byRoute('post', '/api/orders')).toBe('createOrder')
    expect(byRoute('put', '/api/v1/orders/{id}/status')).toBe('updateOrderStatus')
    expect(byRoute('get', '/api/v1/webhooks/{id}/deliveries')).toBe('listWebhookDeliveries')
    expect(byRoute('get', '/api/v1/shipping')).toBe('listShippingOptions')
    // Routes still to come get sensible names without an entry.
    expect(operationIdFor('GET', '/api/v1/categories/{id}')).toBe('getCategory')
    expect(operationIdFor('POST', '/api/v1/products/{id}/images')).toBe('createProductImage')
    expect(operationIdFor('DELETE', '/api/v1/products/{id}/images/{imageId}')).toBe('deleteProductImage')
  })

  test('public operations declare `security: []`; keyed ones bearerAuth', () => {
    const bad = operations()
      .filter(({ path: p, op }) => {
        const isPublic = !p.startsWith('/api/v1/') || p.startsWith('/api/v1/stores')
        return isPublic ? JSON.stringify(op.security) !== '[]' : JSON.stringify(op.security) !== '[{"bearerAuth":[]}]'
      })
      .map(({ method, path: p }) => `${method} ${p}`)
    expect(bad).toEqual([])
    expect(doc.paths['/api/orders'].post.security).toEqual([])
  })

  test('bodies are JSON only (uploads multipart, the raw billing event text); each can be refused with 413', () => {
    const problems: string[] = []
    const uploads = new Set(
      t.app.routes
        // An upload route declares `upload` in its access (it streams its multipart body itself).
        .filter(
          (r) =>
            /formdata|multipart\/form-data/.test(JSON.stringify((r.hooks as Json)?.parse ?? '')) ||
            (r.hooks as Json)?.type === 'multipart/form-data' ||
            (r.hooks as Json)?.accessDeclared?.upload === true,
        )
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    )
    for (const { method, path: p, op } of operations()) {
      if (!op.requestBody) continue
      const types = Object.keys(op.requestBody.content)
      const expected = uploads.has(`${method} ${p}`)
        ? ['multipart/form-data']
        : p === '/api/billing/events'
          ? ['text/plain']
          : ['application/json']
      if (JSON.stringify(types) !== JSON.stringify(expected)) problems.push(`${method} ${p}: ${types}`)
      if (!op.responses['413']) problems.push(`${method} ${p}: no 413`)
    }
    expect(problems).toEqual([])
  })

  test('responses document their headers', () => {
    const problems: string[] = []
    for (const { method, path: p, op } of operations()) {
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        const h = Object.keys(r.headers ?? {})
        const want = ['X-Request-Id']
        if (p.startsWith('/api/') && status !== '401')
          want.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'RateLimit', 'RateLimit-Policy')
        if (status === '429' || status === '503') want.push('Retry-After')
        for (const w of want) if (!h.includes(w)) problems.push(`${method} ${p} ${status}: ${w}`)
      }
    }
    expect(problems).toEqual([])
    expect(Object.keys(doc.paths['/api/orders'].post.responses['201'].headers)).toContain('Idempotent-Replayed')
    for (const name of [
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'Idempotent-Replayed',
    ]) {
      expect(doc.components.headers[name].schema.type).toBeTruthy()
    }
  })

  test('the documented headers are the ones the service sends', async () => {
    const res = await t.app.handle(new Request('http://localhost/api/v1/stores'))
    for (const name of ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'RateLimit', 'RateLimit-Policy'])
      expect(res.headers.get(name)).toBeTruthy()
  })
})

test('webhooks: the three events with the Standard Webhooks envelope', () => {
  expect(Object.keys(doc.webhooks).sort()).toEqual(['order.created', 'order.updated', 'review.created'])
  for (const [event, item] of Object.entries<Json>(doc.webhooks)) {
    const schema = item.post.requestBody.content['application/json'].schema
    expect(schema.required).toEqual(['type', 'event', 'timestamp', 'storeId', 'data'])
    expect(schema.properties.type.const).toBe(event)
    expect(item.post.parameters.map((p: Json) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ])
  }
  expect(doc.webhooks['order.created'].post.requestBody.content['application/json'].schema.properties.data).toEqual({
    $ref: '#/components/schemas/Order',
  })
})
