/**
 * The shop's static files: one script, one stylesheet, one icon. Read once at start, named by a
 * hash of their bytes (`/assets/shop.3f2a91c0.js`), so a URL always means the same bytes and
 * can be cached for a year as immutable; a gzip copy is made once for clients that accept it.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'

export interface Asset {
  /** The public path, e.g. /assets/shop.3f2a91c0.css */
  url: string
  type: string
  body: Blob
  gzip: Blob
  etag: string
}

const FILES: [name: string, type: string][] = [
  ['shop.css', 'text/css; charset=utf-8'],
  ['shop.js', 'text/javascript; charset=utf-8'],
  ['icon.svg', 'image/svg+xml'],
]

function load(name: string, type: string): Asset {
  const bytes = readFileSync(path.join(import.meta.dir, 'assets', name))
  const hash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex').slice(0, 12)
  const dot = name.lastIndexOf('.')
  return {
    url: `/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}`,
    type,
    body: new Blob([bytes]),
    gzip: new Blob([Bun.gzipSync(bytes, { level: 9 })]),
    etag: `"${hash}"`,
  }
}

const loaded = FILES.map(([name, type]) => [name, load(name, type)] as const)
export const ASSETS = Object.fromEntries(loaded) as Record<'shop.css' | 'shop.js' | 'icon.svg', Asset>
export const ASSETS_BY_URL = new Map(loaded.map(([, a]) => [a.url, a]))

export const IMMUTABLE = 'public, max-age=31536000, immutable'
