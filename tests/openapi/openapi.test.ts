/**
 * The OpenAPI document (contract: "/docs/json … describes every endpoint, request body,
 * response and error shape"). Generic over `app.routes`, so routes added later are held to the
 * same rules: a valid OpenAPI 3 document, every /api route present with its method, a request
 * schema where it takes a body, success and error responses (401/403/429 where a key is
 * needed), the bearer scheme, and the scope named in the description.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import SwaggerParser from '@apidevtools/swagger-parser'
import { policyFor } from '../helpers/access'
import { makeApp, type Json, type TestApp } from '../helpers/app'

let t: TestApp
let doc: Json
beforeAll(async () => {
  t = makeApp()
  const res = await t.app.handle(new Request('http://localhost/docs/json'))
  expect(res.status).toBe(200)
  doc = await res.json()
})
afterAll(() => t.close())

/** Routes deliberately left out of the document: none under /api today. */
const EXCLUDED = new Set<string>([])

const apiRoutes = () =>
  t.app.routes
    .filter((r) => (r.path.startsWith('/api/') || r.path === '/api') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .filter((r) => !EXCLUDED.has(`${r.method} ${r.path}`))
const docPath = (p: string) => p.replace(/\/$/, '').replace(/:(\w+)/g, '{$1}')
const samplePath = (p: string) => p.replace(/:(\w+)/g, 'x')
const operation = (method: string, path: string) => doc.paths?.[docPath(path)]?.[method.toLowerCase()]
const jsonSchema = (r: Json) => r?.content?.['application/json']?.schema

test('validates as OpenAPI 3 with swagger-parser', async () => {
  expect(doc.openapi).toMatch(/^3\./)
  await SwaggerParser.validate(structuredClone(doc))
})

test('declares the bearer security scheme', () => {
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
})

test('/docs serves the interactive HTML page, without a key', async () => {
  const res = await t.app.handle(new Request('http://localhost/docs'))
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/html')
  expect(await res.text()).toMatch(/<html/i)
})

test('/health is documented with its 200 { status: "ok" } body', () => {
  const schema = jsonSchema(doc.paths?.['/health']?.get?.responses?.['200'])
  expect(schema?.properties?.status).toBeTruthy()
})

test('there are /api routes to check', () => {
  expect(apiRoutes().length).toBeGreaterThanOrEqual(9)
})

describe('every /api route', () => {
  test('appears in the document with its method', () => {
    const missing = apiRoutes()
      .filter((r) => !operation(r.method, r.path))
      .map((r) => `${r.method} ${r.path}`)
    expect(missing).toEqual([])
  })

  test('has a JSON request schema where it validates a body', () => {
    const bad = apiRoutes()
      .filter((r) => (r.hooks as Json)?.body)
      .filter((r) => {
        const content = operation(r.method, r.path)?.requestBody?.content ?? {}
        return !Object.values<Json>(content).some(
          (c) => c?.schema && (c.schema.type || c.schema.$ref || c.schema.anyOf || c.schema.properties),
        )
      })
      .map((r) => `${r.method} ${r.path}`)
    expect(bad).toEqual([])
  })

  test('declares a 2xx response with a schema, and its error responses', () => {
    const problems: string[] = []
    for (const r of apiRoutes()) {
      const op = operation(r.method, r.path)
      if (!op) continue
      const name = `${r.method} ${r.path}`
      const responses = op.responses ?? {}
      const success = Object.keys(responses).filter((s) => /^2\d\d$/.test(s))
      if (success.length === 0) problems.push(`${name}: no 2xx response`)
      for (const s of success)
        if (!jsonSchema(responses[s]) && s !== '204') problems.push(`${name}: ${s} has no JSON schema`)
      const policy = policyFor(r.method, samplePath(r.path))
      const needed = policy.kind === 'key' ? ['400', '401', '403', '429'] : ['429']
      for (const s of needed) {
        const schema = jsonSchema(responses[s])
        if (!schema) problems.push(`${name}: no ${s} response with a JSON schema`)
      }
      if (!Object.keys(responses).some((s) => /^4\d\d$/.test(s))) problems.push(`${name}: no error response`)
    }
    expect(problems).toEqual([])
  })

  test('error responses use the spec bodies (error, code, details; 402 and plan bodies)', () => {
    const problems: string[] = []
    // Named models are components: follow `$ref` to the schema it names.
    const deref = (schema: Json): Json => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema)
    const props = (schema: Json): Set<string> => {
      if (!schema) return new Set()
      const parts = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map(deref)
      return new Set(parts.flatMap((p: Json) => Object.keys(p.properties ?? {})))
    }
    for (const r of apiRoutes()) {
      const responses = operation(r.method, r.path)?.responses ?? {}
      for (const [status, response] of Object.entries<Json>(responses)) {
        if (!/^[45]\d\d$/.test(status)) continue
        const p = props(jsonSchema(response))
        const ok =
          status === '402' ? ['error', 'message', 'state', 'upgradeUrl'].every((k) => p.has(k)) : p.has('error')
        if (!ok) problems.push(`${r.method} ${r.path} ${status}`)
      }
    }
    expect(problems).toEqual([])
  })

  test('authenticated routes require bearerAuth and name their scope; public routes need no key', () => {
    const problems: string[] = []
    for (const r of apiRoutes()) {
      const op = operation(r.method, r.path)
      if (!op) continue
      const name = `${r.method} ${r.path}`
      const policy = policyFor(r.method, samplePath(r.path))
      const secured = (op.security ?? doc.security ?? []).some((s: Json) => 'bearerAuth' in s)
      if (policy.kind === 'key') {
        if (!secured) problems.push(`${name}: no bearerAuth security`)
        if (policy.scope && !`${op.description ?? ''} ${op.summary ?? ''}`.includes(policy.scope))
          problems.push(`${name}: description does not name ${policy.scope}`)
        if (policy.feature && !('403' in (op.responses ?? {}))) problems.push(`${name}: paid feature without 403`)
      } else if (secured) problems.push(`${name}: public route marked as needing a key`)
      if (!op.summary) problems.push(`${name}: no summary`)
    }
    expect(problems).toEqual([])
  })

  test('path parameters are declared', () => {
    const problems: string[] = []
    for (const r of apiRoutes()) {
      const op = operation(r.method, r.path)
      if (!op) continue
      for (const [, param] of r.path.matchAll(/:(\w+)/g)) {
        if (!(op.parameters ?? []).some((p: Json) => p.in === 'path' && p.name === param))
          problems.push(`${r.method} ${r.path}: :${param}`)
      }
    }
    expect(problems).toEqual([])
  })
})

test('internal columns never appear in response schemas', () => {
  const text = JSON.stringify(
    Object.values<Json>(doc.paths).flatMap((ops) => Object.values<Json>(ops).map((op) => op.responses)),
  )
  expect(['"hash"', '"deletedAt"'].filter((internal) => text.includes(internal))).toEqual([])
})
