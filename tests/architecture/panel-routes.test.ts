/**
 * The panel's one way to make a page (src/panel/route.ts): each /admin route's handler is one
 * the builder made, and the panel's code reaches its person and ctx through the builder's types,
 * never by casting Elysia's context away or asserting that a person or a store is there.
 *
 * `OLD_PATH` names the files still registering routes the older ways; the test fails when one of
 * them no longer does (take it off the list) and on any other file that does.
 */
import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import path from 'node:path'
import { declaredRoutes } from '../../src/http/access'
import { madeByPanelRoute } from '../../src/panel/route'
import { appForFile } from '../helpers/app'
import { ROOT } from '../helpers/import-graph'

const t = appForFile()

const OLD_PATH = new Set([
  'src/panel/pages/bulk/routes.ts',
  'src/panel/pages/categories.ts',
  'src/panel/pages/crud.ts',
  'src/panel/pages/csv/routes.ts',
  'src/panel/pages/discounts/routes.ts',
  'src/panel/pages/keys.ts',
  'src/panel/pages/products/add-pictures.ts',
  'src/panel/pages/products/pictures.ts',
  'src/panel/pages/products/render.ts',
  'src/panel/pages/products/routes.ts',
  'src/panel/pages/reviews.ts',
  'src/panel/pages/settings.ts',
  'src/panel/pages/shipping.ts',
  'src/panel/pages/webhooks.ts',
])

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
    if (file === 'src/panel/route.ts' || file.startsWith('src/panel/assets/')) continue
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
  test('no panel file but those still on the old path casts the context, asserts a person or registers routes itself', async () => {
    const found = await offenders()
    const fresh = [...found].filter(([file]) => !OLD_PATH.has(file))
    expect(fresh).toEqual([])
    // A file converted to the builder leaves the list.
    expect([...OLD_PATH].filter((file) => !found.has(file))).toEqual([])
  })

  test('every panel route is made by the builder', () => {
    const panel = t.app.routes.filter((r) => declaredRoutes([r]).some((d) => 'panel' in d.access))
    expect(panel.length).toBeGreaterThan(100)
    const outside = panel.filter((r) => !madeByPanelRoute(r.handler)).map((r) => `${r.method} ${r.path}`)
    expect(outside).toEqual([])
  })

  test('a handler made outside the builder is told apart', () => {
    expect(madeByPanelRoute(() => new Response('x'))).toBe(false)
  })
})
