/**
 * The installable panel: its web app manifest, icons, service worker and offline page.
 * - The manifest is linked from every page with `crossorigin="use-credentials"` (views/frame.ts),
 *   so the browser sends the session and it can name the person's store; without one it names
 *   the panel only. It starts at the orders inbox, in its own window (`standalone`).
 * - Icons are the store's initial (push/icons.ts), addressed by that letter: nothing about the
 *   store but its first letter is in the URL, and every store with that letter shares the file.
 * - /admin/sw.js is built once per process from sw/worker.ts, after a line that tells it which
 *   URLs to keep for offline use (the offline page, the stylesheet and the icon; nothing authenticated).
 * - /admin/offline is the page the worker shows when a navigation finds no network.
 */
import path from 'node:path'
import { html } from '../../shop/html'
import { panelAssets } from '../assets'
import { finish, page } from '../respond'
import { frameOf } from '../frame'
import { panelPlugin, panelRoute } from '../route'
import { layout } from '../views'
import { BACKGROUND_COLOR, ICON_KINDS, type IconKind, THEME_COLOR, iconPng, initialOf } from './icons'

export const MANIFEST_PATH = '/admin/manifest.webmanifest'
export const OFFLINE_PATH = '/admin/offline'
export const iconUrl = (initial: string, kind: IconKind) => `/admin/icons/${encodeURIComponent(initial)}/${kind}.png`

let worker: Promise<string> | undefined
async function workerSource(): Promise<string> {
  const built = await Bun.build({
    entrypoints: [path.join(import.meta.dir, '../sw/worker.ts')],
    target: 'browser',
    format: 'esm',
    minify: true,
  })
  if (!built.success) throw new AggregateError(built.logs, 'service worker did not build')
  const a = await panelAssets()
  const precache = { offline: OFFLINE_PATH, assets: [a.css.url, a.icon.url], icon: iconUrl('S', '192') }
  // The bundle is a module with `export {}` only for the type checker; a classic worker script has no exports.
  const code = (await built.outputs[0]!.text()).replace(/export\s*\{\s*\};?\s*$/, '')
  return `const PRECACHE=${JSON.stringify(precache)};\n${code}`
}

export function installRoutes() {
  const anyone = <const Path extends string>(path: Path) => ({ method: 'get', path, need: 'anonymous' }) as const
  return panelPlugin('installRoutes', [
    panelRoute(anyone(MANIFEST_PATH), ({ p, set }) => {
      const w = p.w
      const store = p.person?.store?.name
      const initial = initialOf(store)
      const manifest = {
        id: '/admin/',
        name: store ? `${store} · ${w.shell.panel}` : w.shell.panel,
        short_name: (store ?? w.shell.panel).slice(0, 12),
        lang: p.lang,
        start_url: '/admin/orders',
        scope: '/admin/',
        display: 'standalone',
        background_color: BACKGROUND_COLOR,
        theme_color: THEME_COLOR,
        icons: ICON_KINDS.map((kind) => ({
          src: iconUrl(initial, kind),
          sizes: kind === '192' ? '192x192' : '512x512',
          type: 'image/png',
          purpose: kind === 'maskable-512' ? 'maskable' : 'any',
        })),
      }
      return finish(set, 200, JSON.stringify(manifest), {
        'content-type': 'application/manifest+json; charset=utf-8',
        // It names the signed-in person's store: never shared between sessions.
        'cache-control': 'private, no-cache',
        vary: 'cookie, accept-language',
      })
    }),
    panelRoute(anyone('/admin/icons/:initial/:file'), async ({ params, set }) => {
      const initial = decodeURIComponent(params.initial)
      const kind = ICON_KINDS.find((k) => `${k}.png` === params.file)
      if (!/^[\p{Lu}\p{Lo}\p{N}]$/u.test(initial) || !kind)
        return finish(set, 404, 'Not found\n', { 'content-type': 'text/plain; charset=utf-8' })
      return finish(set, 200, await iconPng(initial, kind), {
        'content-type': 'image/png',
        'cache-control': 'public, max-age=86400',
      })
    }),
    panelRoute(anyone('/admin/sw.js'), async ({ set }) => {
      worker ??= workerSource()
      return finish(set, 200, await worker, {
        'content-type': 'text/javascript; charset=utf-8',
        // Browsers check for a new worker on navigation; no-cache keeps that check honest.
        'cache-control': 'no-cache',
        'content-security-policy': "default-src 'self'",
      })
    }),
    panelRoute(anyone(OFFLINE_PATH), async ({ p, set }) => {
      const w = p.w
      // The anonymous frame whoever asks: the worker stores this page, so it must name nobody.
      const f = { ...(await frameOf({ ...p, person: undefined, formToken: undefined })) }
      return page(
        set,
        200,
        layout(
          f,
          w.push.offlineTitle,
          html`<p>${w.push.offlineText}</p><p><a href="/admin/orders">${w.push.retry}</a></p>`,
          {
            narrow: true,
          },
        ),
      )
    }),
  ])
}
