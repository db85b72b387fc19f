/**
 * The /docs page works with no network beyond the service: its
 * only script is served by the service, content-addressed and cached immutably, from the vendored
 * copy of the pinned @scalar/api-reference bundle; the page's CSP admits this origin only.
 * e2e/docs-offline.e2e.ts renders it in a browser.
 */
import { expect, test } from 'bun:test'
import { createHash } from 'node:crypto'
import path from 'node:path'
import meta from '../../src/openapi/vendor/scalar-api-reference.json'
import { appForFile } from '../helpers/app'

const t = appForFile()

const get = (p: string, headers: Record<string, string> = {}) =>
  t.app.handle(new Request(`http://localhost${p}`, { headers }))

async function scriptUrl(page: string): Promise<string> {
  const html = await (await get(page)).text()
  const srcs = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!)
  expect(srcs).toHaveLength(1)
  return srcs[0]!
}

for (const page of ['/docs', '/docs/']) {
  test(`${page}: HTML whose script and document URLs are absolute paths here, with a self-only CSP`, async () => {
    const res = await get(page)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const csp = res.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toMatch(/https?:|\*/)
    const html = await res.text()
    expect(html).not.toMatch(/https?:\/\//)
    // No inline script: every <script> element is empty or has a src.
    expect(
      [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, , body]) => body!.trim() !== ''),
    ).toEqual([])
    expect(html).toContain('data-url="/docs/json"')
    expect(html).toContain('bearerAuth')
    expect(await scriptUrl(page)).toMatch(/^\/docs\/assets\/scalar-api-reference-[\d.]+\.[0-9a-f]{12}\.js$/)
  })
}

test('the script: gzip when accepted, plain otherwise, cached immutably; the page itself is revalidated', async () => {
  const url = await scriptUrl('/docs')
  const gz = await get(url, { 'accept-encoding': 'gzip, br' })
  expect(gz.status).toBe(200)
  expect(gz.headers.get('content-encoding')).toBe('gzip')
  expect(gz.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
  expect(gz.headers.get('content-type')).toContain('javascript')
  const plain = await get(url)
  expect(plain.headers.get('content-encoding')).toBeNull()
  const body = new Uint8Array(await plain.arrayBuffer())
  expect(createHash('sha256').update(body).digest('hex')).toBe(meta.sha256)
  expect(url).toContain(meta.sha256.slice(0, 12))
  expect((await get('/docs')).headers.get('cache-control')).toBe('no-cache')
})

test('the vendored bundle is the pinned package version, byte for byte (scripts/vendor-docs-ui.ts)', async () => {
  const root = path.join(import.meta.dir, '../..')
  const pkg = await Bun.file(path.join(root, 'package.json')).json()
  expect(pkg.devDependencies['@scalar/api-reference']).toBe(meta.version)
  const installed = path.join(root, 'node_modules/@scalar/api-reference')
  expect((await Bun.file(path.join(installed, 'package.json')).json()).version).toBe(meta.version)
  const js = new Uint8Array(await Bun.file(path.join(installed, meta.file)).arrayBuffer())
  expect(createHash('sha256').update(js).digest('hex')).toBe(meta.sha256)
})
