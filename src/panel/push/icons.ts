/**
 * The installed panel's icons: the store's initial, white on the panel's colour, drawn as SVG
 * and rendered to PNG by sharp (192 and 512 px, and a maskable 512 whose letter stays inside
 * the safe zone, since a launcher may cut the image to a circle). Made once per (initial, kind);
 * sharp is loaded at the first icon asked for (lib/vips.ts).
 */
import { vips } from '../../lib/vips'

export const THEME_COLOR = '#17324d'
export const BACKGROUND_COLOR = '#ffffff'
export const ICON_KINDS = ['192', '512', 'maskable-512'] as const
export type IconKind = (typeof ICON_KINDS)[number]

/**
 * Icons made, at most MAX_DRAWN (then all are dropped and made again as asked): a PNG is 4–18 KB,
 * so the map holds at most ~3 MB — the initials of 100 stores in the three kinds.
 */
const MAX_DRAWN = 300
const drawn = new Map<string, Promise<Uint8Array<ArrayBuffer>>>()

/** The store name's first letter or digit, upper-cased; "S" for a name without one. */
export function initialOf(name: string | undefined): string {
  const m = /[\p{L}\p{N}]/u.exec(name ?? '')
  return (m?.[0] ?? 'S').toLocaleUpperCase()
}

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)

function svgOf(initial: string, kind: IconKind): string {
  const size = kind === '192' ? 192 : 512
  const maskable = kind === 'maskable-512'
  // A maskable icon fills the square (the launcher shapes it); the letter keeps to the middle 60 %.
  const radius = maskable ? 0 : size * 0.18
  const font = size * (maskable ? 0.42 : 0.6)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<rect width="${size}" height="${size}" rx="${radius}" fill="${THEME_COLOR}"/>
<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold"
  font-size="${font}" fill="#ffffff">${escapeXml(initial)}</text>
</svg>`
}

export function iconPng(initial: string, kind: IconKind): Promise<Uint8Array<ArrayBuffer>> {
  const key = `${initial}:${kind}`
  let png = drawn.get(key)
  if (!png) {
    if (drawn.size >= MAX_DRAWN) drawn.clear()
    png = vips()
      .then((sharp) =>
        sharp(Buffer.from(svgOf(initial, kind)))
          .png()
          .toBuffer(),
      )
      .then((b) => new Uint8Array(b))
    drawn.set(key, png)
  }
  return png
}
