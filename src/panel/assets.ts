/**
 * The panel's static files: one stylesheet, one icon and one script. The script is
 * assets/panel.ts bundled with @simplewebauthn/browser by Bun.build, once per process at first
 * use (~100 ms), so nothing is loaded from another origin and no build step is needed before
 * start. Each file is named by a hash of its bytes (`/admin/assets/panel.3f2a91c0.js`) and
 * served as immutable, like the shop's.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

export interface PanelAsset {
  url: string
  type: string
  body: Uint8Array<ArrayBuffer>
  gzip: Uint8Array<ArrayBuffer>
  etag: string
}

export interface PanelAssets {
  css: PanelAsset
  js: PanelAsset
  icon: PanelAsset
  byUrl: Map<string, PanelAsset>
}

const DIR = path.join(import.meta.dir, 'assets')

function asset(name: string, ext: string, type: string, bytes: Uint8Array<ArrayBuffer>): PanelAsset {
  const hash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex').slice(0, 12)
  return {
    url: `/admin/assets/${name}.${hash}.${ext}`,
    type,
    body: bytes,
    gzip: new Uint8Array(Bun.gzipSync(bytes, { level: 9 })),
    etag: `"${hash}"`,
  }
}

async function bundle(): Promise<Uint8Array<ArrayBuffer>> {
  const out = await Bun.build({
    entrypoints: [path.join(DIR, 'panel.ts')],
    target: 'browser',
    format: 'esm',
    minify: true,
  })
  if (!out.success) throw new AggregateError(out.logs, 'panel script did not build')
  return new Uint8Array(await out.outputs[0]!.arrayBuffer())
}

let loading: Promise<PanelAssets> | undefined

/** Built once per process (the sources don't change while it runs). */
export function panelAssets(): Promise<PanelAssets> {
  return (loading ??= (async () => {
    // The shell's rules, then the catalog pages' (products, settings, keys, webhooks), the
    // product editor's pictures and the bulk edit and CSV pages: one file served.
    const styles = ['panel.css', 'catalog.css', 'pictures.css', 'bulk.css', 'dashboard.css', 'orders.css']
      .map((f) => readFileSync(path.join(DIR, f), 'utf8'))
      .join('\n')
    const css = asset(
      'panel',
      'css',
      'text/css; charset=utf-8',
      new TextEncoder().encode(styles) as Uint8Array<ArrayBuffer>,
    )
    const icon = asset('icon', 'svg', 'image/svg+xml', new Uint8Array(readFileSync(path.join(DIR, 'icon.svg'))))
    const js = asset('panel', 'js', 'text/javascript; charset=utf-8', await bundle())
    return { css, js, icon, byUrl: new Map([css, js, icon].map((a) => [a.url, a])) }
  })())
}
