/**
 * The panel's one way to make a page (src/panel/route.ts): each /admin route's handler is one
 * the builder made, and the panel's code reaches its person and ctx through the builder's types,
 * never by casting Elysia's context away or asserting that a person or a store is there.
 */
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import path from 'node:path'
import { declaredRoutes } from '../../src/http/access'
import { madeByPanelRoute, panelPlugin, panelRoute } from '../../src/panel/route'
import { appForFile } from '../helpers/app'
import { ROOT } from '../helpers/import-graph'

const t = appForFile()

/** What no panel file does once its routes are the builder's. */
const OLD_WAYS: [string, RegExp][] = [
  ['a cast through unknown', /\bas unknown as\b/],
  ["a cast of Elysia's set", /\bc\.set as\b/],
  ['a person or ctx asserted present', /\b(?:person|ctx|store)!/],
  ['the gate decision read by hand', /\bpanelOf\(/],
]

/** Files with routes made the older ways: they register on Elysia themselves or take the context untyped. */
async function offenders(): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>()
  for await (const file of new Glob('src/panel/**/*.ts').scan(ROOT)) {
    // The builder itself is where the context is narrowed; the browser scripts take no request but
    // are held to the same casts.
    if (file === 'src/panel/route.ts') continue
    const code = (await Bun.file(path.join(ROOT, file)).text())
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    const ways = OLD_WAYS.filter(([, re]) => re.test(code)).map(([name]) => name)
    // The panel's own app (its hook, the plugins it mounts) is routes.ts; routes come from the builder.
    if (/new Elysia\(/.test(code) && file !== 'src/panel/routes.ts') ways.push('its own Elysia routes')
    if (ways.length) found.set(file, ways)
  }
  return found
}

describe('one way to make a panel page', () => {
  test('no panel file casts the context, asserts a person or a ctx, or registers routes itself', async () => {
    expect([...(await offenders())]).toEqual([])
  })

  test('every panel route is made by the builder', () => {
    const panel = t.app.routes.filter((r) => declaredRoutes([r]).some((d) => 'panel' in d.access))
    expect(panel.length).toBeGreaterThan(100)
    const outside = panel.filter((r) => !madeByPanelRoute(r.handler)).map((r) => `${r.method} ${r.path}`)
    expect(outside).toEqual([])
  })

  test('a handler made outside the builder is told apart, and the scan finds each old way', () => {
    expect(madeByPanelRoute(() => new Response('x'))).toBe(false)
    const old = [
      'const c = raw as unknown as Handler',
      "finish(c.set as Req['set'], 200)",
      'const ctx = p.person!.ctx!',
      'const p = panelOf(c)',
    ]
    expect(old.map((code) => OLD_WAYS.filter(([, re]) => re.test(code)).length)).toEqual([1, 1, 1, 1])
  })

  test('a builder route reached without the panel gate fails closed: its handler never runs', async () => {
    let ran = false
    const app = panelPlugin('bare', [
      panelRoute({ method: 'get', path: '/admin/x', need: 'member' }, ({ seeOther }) => {
        ran = true
        return seeOther('/admin')
      }),
    ])
    const res = await app.handle(new Request('http://localhost/admin/x'))
    expect(res.status).toBe(500)
    expect(ran).toBe(false)
  })
})
